/**
 * A wallet that carries its requests from its page script to its content script over window.postMessage, as MetaMask
 * and the wallets built on its packages do, against the built extension in Chromium: a page that posts a signing
 * request on that channel itself, below every entry point the hook patches, or that answers the hook of a frame it
 * reached before Preflight started there, still gets a window, and the wallet receives only what it showed.
 */
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dapp } from './support/dapp.ts'
import { REJECTED } from './support/extension.ts'
import {
  ATTACKER,
  type Attempt,
  answeringFramesHook,
  checkedAttempt,
  type Decide,
  FRIEND,
  ONE_ETH,
  startWalletSession,
  type WalletSession,
} from './support/hostile.ts'
import type { WalletNode } from './support/walletNode.ts'

describe("a wallet's own message channel", () => {
  let session: WalletSession
  let node: WalletNode
  let dapp: Dapp
  let context: BrowserContext
  let account: string

  beforeAll(async () => {
    session = await startWalletSession((base) => [{ ...base, channel: 'testwallet' }])
    ;({ node, dapp, context, account } = session)
  })
  afterAll(() => session?.close())

  const run = (call: string, decide: Decide): Promise<Attempt> =>
    checkedAttempt({ context, node, dapp }, '', call, decide)

  const tx = (to: string, value: string) => `{ from: '${account}', to: '${to}', value: '${value}' }`
  /** Posts `request` on the wallet's channel as its page script would, and resolves with the answer to its id. */
  const onChannel = (request: string, id: string, name = 'testwallet-provider') => `new Promise((resolve) => {
      addEventListener('message', (event) => {
        const answer = event.data?.target === 'testwallet-inpage' ? event.data.data?.data : undefined
        if (answer && answer.id === ${id}) resolve(answer)
      })
      postMessage({ target: 'testwallet-contentscript', data: { name: '${name}', data: ${request} } }, '*')
    })`

  it('an honest request through the provider is shown once, and the wallet gets exactly it over its channel', async () => {
    const outcome = await run(
      `ethereum.request({ method: 'eth_sendTransaction', params: [${tx(FRIEND, '0x1')}] })`,
      'continue',
    )
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    expect(outcome.received).toHaveLength(1)
    expect(outcome.received[0]?.method).toBe('eth_sendTransaction')
  })

  it('a request the page posts on the channel itself is shown; Reject answers it there with 4001, and the wallet gets nothing', async () => {
    const outcome = await run(
      onChannel(
        `{ jsonrpc: '2.0', id: 'page-1', method: 'eth_sendTransaction', params: [${tx(ATTACKER, ONE_ETH)}] }`,
        "'page-1'",
      ),
      'reject',
    )
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.shown[0]?.request.params).toEqual([
      { from: account, to: ATTACKER, value: ONE_ETH, chainId: '0x7a69' },
    ])
    expect(outcome.shown[0]?.request.wallet?.label).toBe('testwallet (its message channel)')
    expect(outcome.settled.ok).toEqual({ jsonrpc: '2.0', id: 'page-1', error: REJECTED })
    expect(outcome.received).toEqual([])
  })

  it('Continue posts it again with the params shown, and the page gets the wallet’s own answer', async () => {
    const outcome = await run(
      onChannel(`{ jsonrpc: '2.0', id: 7, method: 'eth_sendTransaction', params: [${tx(FRIEND, '0x2')}] }`, '7'),
      'continue',
    )
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.received).toHaveLength(1)
    expect(outcome.settled.ok).toMatchObject({ id: 7, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  })

  it('a Multichain API call (wallet_invokeMethod) the page posts is shown for the chain its scope names, and continued as shown', async () => {
    const invoke = `{ jsonrpc: '2.0', id: 'mc-1', method: 'wallet_invokeMethod', params: { scope: 'eip155:31337', request: { method: 'eth_sendTransaction', params: [${tx(FRIEND, '0x3')}] } } }`
    const outcome = await run(onChannel(invoke, "'mc-1'", 'testwallet-multichain-provider'), 'continue')
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.shown[0]?.request).toMatchObject({
      method: 'eth_sendTransaction',
      chainId: 31337,
      params: [{ from: account, to: FRIEND, value: '0x3', chainId: '0x7a69' }],
    })
    expect(outcome.received).toEqual([{ method: 'eth_sendTransaction', params: outcome.shown[0]?.request.params }])
    expect(outcome.settled.ok).toMatchObject({ id: 'mc-1', result: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  })

  it("a frame's message on its parent's channel is left to the wallet, which takes only its own window's: no window, nothing sent", async () => {
    // Were the relay to take it, a Continue would post it again from the parent, under the parent's name.
    dapp.page(
      '/posts-to-parent',
      `<script>parent.postMessage({ target: 'testwallet-contentscript', data: { name: 'testwallet-provider', data: { jsonrpc: '2.0', id: 'framed', method: 'eth_sendTransaction', params: [${tx(ATTACKER, ONE_ETH)}] } } }, '*')</script>`,
    )
    const outcome = await run(
      `new Promise((resolve) => {
         const frame = document.createElement('iframe')
         frame.src = '${dapp.otherOriginUrl}/posts-to-parent'
         document.body.appendChild(frame)
         frame.onload = () => setTimeout(() => resolve('no answer'), 1500)
       })`,
      'continue',
    )
    expect(outcome.shown).toEqual([])
    expect(outcome.settled.ok).toBe('no answer')
    expect(outcome.received).toEqual([])
  })

  it('an event the page dispatches itself, whose request reads as a harmless call to the relay and a transaction to the wallet, reaches nothing', async () => {
    // A dispatched MessageEvent hands each world its own copy of the page's object, and the getter runs for each.
    const outcome = await run(
      `new Promise((resolve) => {
         let reads = 0
         const request = { jsonrpc: '2.0', id: 'forged', params: [${tx(ATTACKER, ONE_ETH)}] }
         Object.defineProperty(request, 'method', { enumerable: true, get: () => (reads++ ? 'eth_sendTransaction' : 'eth_chainId') })
         addEventListener('message', (event) => {
           const answer = event.data?.target === 'testwallet-inpage' ? event.data.data?.data : undefined
           if (answer && answer.id === 'forged') resolve(answer)
         })
         const data = { target: 'testwallet-contentscript', data: { name: 'testwallet-provider', data: request } }
         dispatchEvent(new MessageEvent('message', { data, origin: location.origin, source: window }))
         setTimeout(() => resolve('no answer'), 1500)
       })`,
      'continue',
    )
    expect(outcome.shown).toEqual([])
    expect(outcome.settled.ok).toBe('no answer')
    expect(outcome.received).toEqual([])
  })

  it('a batch holding a signing request, which no provider posts, is refused on the channel and reaches nothing', async () => {
    const outcome = await run(
      onChannel(
        `[{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [${tx(ATTACKER, ONE_ETH)}] }]`,
        'null',
      ),
      'reject',
    )
    expect(outcome.shown).toEqual([])
    expect(outcome.settled.ok).toMatchObject({ id: null, error: { code: -32600 } })
    expect(outcome.received).toEqual([])
  })

  it('a signing request carried by the named properties of arrays, which a lenient wallet would read, is refused and reaches nothing', async () => {
    // Structured cloning keeps an array's named properties: the message, the request, or a Multichain call's params.
    const send = (id: string) =>
      `{ jsonrpc: '2.0', id: '${id}', method: 'eth_sendTransaction', params: [${tx(ATTACKER, ONE_ETH)}] }`
    const outcome = await run(
      `Promise.all([
        Object.assign([], { target: 'testwallet-contentscript', data: { name: 'testwallet-provider', data: ${send('outer')} } }),
        { target: 'testwallet-contentscript', data: { name: 'testwallet-provider', data: Object.assign([], ${send('request')}) } },
        { target: 'testwallet-contentscript', data: { name: 'testwallet-multichain-provider', data: { jsonrpc: '2.0', id: 'invoke',
          method: 'wallet_invokeMethod', params: Object.assign([], { scope: 'eip155:31337', request: ${send('inner')} }) } } },
      ].map((message) => new Promise((resolve) => {
        const id = message.data.data.id
        addEventListener('message', (event) => {
          const answer = event.data?.target === 'testwallet-inpage' ? event.data.data?.data : undefined
          if (answer && answer.id === id) resolve(answer.error?.code)
        })
        postMessage(message, '*')
      })))`,
      'reject',
    )
    expect(outcome.shown).toEqual([])
    expect(outcome.settled.ok).toEqual([-32600, -32600, -32600])
    expect(outcome.received).toEqual([])
  })

  it('a frame whose hook the page answered before Preflight started there still gets a window for what its wallet sends', async () => {
    // The hostile suite's recorded limit, with a wallet that talks over its channel: the page's port forwards its own
    // transaction, and the relay, which the page cannot answer for, stops it on the channel.
    const outcome = await run(answeringFramesHook(dapp, tx(ATTACKER, ONE_ETH), tx(FRIEND, '0x1')), 'reject')
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.shown[0]?.request.params).toMatchObject([{ to: ATTACKER, value: ONE_ETH }])
    expect(outcome.settled).toEqual(REJECTED)
    expect(outcome.received).toEqual([])
  })
})
