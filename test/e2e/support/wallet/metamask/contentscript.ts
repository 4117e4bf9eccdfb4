/**
 * The test wallet's content script for MetaMask's page script (inpage.ts beside it): in its extension's own world it
 * unpacks the multiplexed WindowPostMessageStream as MetaMask's content script does, and answers each request on the
 * 'metamask-provider' substream as MetaMask's background would, from the wallet's node.
 */
import { type Answer, answerCall, type Call } from '../answer.ts'
import { providerStream } from './streams.ts'

declare const __WALLET__: { rpcUrl: string; account: string }

const { rpcUrl, account } = __WALLET__
const provider = providerStream('metamask-contentscript', 'metamask-inpage')

/** What the provider asks of MetaMask itself, its state and the page's metadata; the rest goes to the node. */
async function answer(call: Call): Promise<Answer> {
  if (call.method === 'metamask_sendDomainMetadata') return { result: true }
  if (call.method !== 'metamask_getProviderState') return answerCall(rpcUrl, account, call)
  const [chainId, networkVersion] = await Promise.all([
    answerCall(rpcUrl, account, { method: 'eth_chainId' }),
    answerCall(rpcUrl, account, { method: 'net_version' }),
  ])
  if (!('result' in chainId) || !('result' in networkVersion)) return 'error' in chainId ? chainId : networkVersion
  return {
    result: { isUnlocked: true, accounts: [account], chainId: chainId.result, networkVersion: networkVersion.result },
  }
}

provider.on('data', async (request: Call & { id?: unknown }) => {
  // A notification has no id and gets no answer.
  if (request.id === undefined) return
  provider.write({ jsonrpc: '2.0', id: request.id, ...(await answer(request)) })
})
