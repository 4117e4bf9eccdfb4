/**
 * The test wallet's content script for a wallet with a message channel (inpage.ts with `channel`): in its extension's
 * own world it takes the page script's requests from window.postMessage, sends each to the wallet's node and posts
 * the answer back, in the envelope MetaMask's packages use (`{ target, data: { name, data } }`). Its listener does
 * not capture, as theirs does not.
 */

import { type Answer, answerCall } from './answer.ts'

declare const __WALLET__: { rpcUrl: string; account: string; channel: string }

;(() => {
  const { rpcUrl, account, channel } = __WALLET__
  // The provider's stream, and the Multichain API's (CAIP-27 `wallet_invokeMethod`, the call inside run as it is).
  const names = [`${channel}-provider`, `${channel}-multichain-provider`]
  window.addEventListener('message', async (event) => {
    if (event.source !== window) return
    const message = event.data
    const name = message?.data?.name
    if (message?.target !== `${channel}-contentscript` || !names.includes(name)) return
    const request = message.data.data as { id: unknown; method: string; params?: unknown }
    const answer = (body: Answer) =>
      window.postMessage(
        { target: `${channel}-inpage`, data: { name, data: { jsonrpc: '2.0', id: request.id, ...body } } },
        '*',
      )
    const call =
      request.method === 'wallet_invokeMethod' ? (request.params as { request: typeof request }).request : request
    answer(await answerCall(rpcUrl, account, call))
  })
})()
