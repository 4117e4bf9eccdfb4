import '../inpage/support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { guardWalletChannels } from '../../../src/extension/relay/channelGuard.ts'
import { createAllowances } from '../../../src/extension/relay/walletChannel.ts'

const TX = { from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', to: '0x000000000000000000000000000000000000dead' }
const ATTACKER = '0x00000000000000000000000000000000000000aa'

type Listener = (event: unknown) => void

/**
 * A window whose posted messages reach its listeners as Chrome delivers them: one task later, from the window itself,
 * trusted, each world (listener) with its own structured clone, capturing listeners first; stopImmediatePropagation
 * ends the delivery.
 */
function postingWindow() {
  const capturing: Listener[] = []
  const bubbling: Listener[] = []
  const win = {
    addEventListener(type: string, listener: Listener, capture?: boolean) {
      if (type === 'message') (capture ? capturing : bubbling).push(listener)
    },
    removeEventListener(_type: string, listener: Listener) {
      for (const list of [capturing, bubbling]) if (list.includes(listener)) list.splice(list.indexOf(listener), 1)
    },
    postMessage(message: unknown) {
      setTimeout(() => {
        let stopped = false
        for (const listener of [...capturing, ...bubbling]) {
          if (stopped) return
          listener({
            data: structuredClone(message),
            source: win,
            isTrusted: true,
            stopImmediatePropagation: () => {
              stopped = true
            },
          })
        }
      })
    },
  }
  return win
}

/** The wallet's content script: what reaches it on its channel, as its own world reads it. */
function walletBehind(win: ReturnType<typeof postingWindow>) {
  const received: { params: unknown }[] = []
  win.addEventListener('message', (event) => {
    const message = (event as { data: { target?: string; data?: { data?: { params: unknown } } } }).data
    if (message.target === 'testwallet-contentscript' && message.data?.data) received.push(message.data.data)
  })
  return received
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe("a request a Continue forwarded, on the wallet's channel", () => {
  it("reaches the wallet as Preflight's copy of the params shown, never as the object posted there", async () => {
    const win = postingWindow()
    const allowances = createAllowances()
    guardWalletChannels({ win: win as unknown as Window, allowances, submit: () => {}, announce: () => {} })
    const received = walletBehind(win)
    // What the page's world can post in place of the provider's message: JSON reads each as the params shown, and a
    // wallet that reads the object itself finds a String object, a list with a field of its own, a hole.
    const posted = [
      [{ ...TX, to: new String(TX.to) }],
      Object.assign([{ ...TX }], { from: ATTACKER }),
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point: JSON reads it as null
      [{ ...TX }, ,],
    ]
    for (const params of posted) {
      allowances.allow('eth_sendTransaction', JSON.parse(JSON.stringify(params)))
      win.postMessage({
        target: 'testwallet-contentscript',
        data: { name: 'testwallet-provider', data: { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params } },
      })
      await settle()
    }
    expect(received).toHaveLength(3)
    const [boxed, named, holed] = received.map((request) => request.params as { to?: unknown }[])
    expect(typeof boxed?.[0]?.to).toBe('string')
    expect(Object.keys(named ?? {})).toEqual(['0'])
    expect(Object.keys(holed ?? {})).toEqual(['0', '1'])
    expect(received.map((request) => request.params)).toEqual([[TX], [TX], [TX, null]])
  })
})
