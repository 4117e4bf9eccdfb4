import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { watchDefinitions, watchWindowProviders } from '../../../src/extension/inpage/discover.ts'
import type { Gate } from '../../../src/extension/inpage/gate.ts'
import { createPatcher } from '../../../src/extension/inpage/patchProvider.ts'

const SEND = { method: 'eth_sendTransaction', params: [{ to: '0x000000000000000000000000000000000000dEaD' }] }
const page = globalThis as unknown as Record<string, unknown>

/** A wallet provider that records every request reaching it. */
function wallet() {
  const reached: string[] = []
  const provider = {
    request: async (args: { method: string }) => {
      reached.push(args.method)
      return '0xsent'
    },
  }
  return { provider, reached }
}

// The hook as hook.iife.ts starts it, once for this file (it installs itself on this process's global): every
// request it holds back is rejected, as a user pressing Reject.
const reviewed: string[] = []
const gate: Gate = (_held, method, _params, done) => {
  reviewed.push(method)
  queueMicrotask(() => done({ kind: 'error', error: { code: 4001, message: 'User rejected the request.' } }))
}
const patcher = createPatcher(gate, () => false)
const windowProviders = watchWindowProviders(patcher.register)
watchDefinitions(windowProviders.one, patcher.redefined)

/** Sends through `provider` and expects the hook to have rejected it, the wallet untouched. */
async function expectHeldBack(provider: unknown, reached: string[]) {
  const before = reviewed.length
  await expect((provider as ReturnType<typeof wallet>['provider']).request(SEND)).rejects.toMatchObject({ code: 4001 })
  expect(reviewed.slice(before)).toEqual(['eth_sendTransaction'])
  expect(reached).toEqual([])
}

describe('the wallets published under their own global names (walletGlobals.json)', () => {
  it('hooks a wallet assigned to its name after the hook started', async () => {
    const { provider, reached } = wallet()
    page.okxwallet = provider
    await expectHeldBack(page.okxwallet, reached)
  })

  it('hooks a provider inside a namespace defined non-configurable and filled in after, and one defined over it', async () => {
    const namespace: Record<string, unknown> = {}
    Object.defineProperty(globalThis, 'phantom', { value: namespace, configurable: false, writable: false })
    const first = wallet()
    namespace.ethereum = first.provider
    await Promise.resolve()
    await expectHeldBack(namespace.ethereum, first.reached)
    const second = wallet()
    Object.defineProperty(namespace, 'ethereum', { value: second.provider, configurable: true, writable: true })
    await expectHeldBack(namespace.ethereum, second.reached)
  })

  it('hooks the provider of a namespace that replaces another, and one two levels deep', async () => {
    const first = wallet()
    page.xfi = { ethereum: first.provider }
    const second = wallet()
    page.xfi = { ethereum: second.provider }
    await expectHeldBack((page.xfi as { ethereum: unknown }).ethereum, second.reached)
    const deep = wallet()
    page.enkrypt = { providers: { ethereum: deep.provider } }
    await expectHeldBack((page.enkrypt as { providers: { ethereum: unknown } }).providers.ethereum, deep.reached)
  })

  it('adds no key to a namespace that lacks the provider, and the rechecks hook it once it is there', async () => {
    const namespace: Record<string, unknown> = { solana: {} }
    page.bitkeep = namespace
    await Promise.resolve()
    expect(Object.keys(namespace)).toEqual(['solana'])
    expect('ethereum' in namespace).toBe(false)
    const late = wallet()
    namespace.ethereum = late.provider
    // As at DOMContentLoaded and load (beforePageScripts).
    windowProviders.all()
    await expectHeldBack(namespace.ethereum, late.reached)
  })

  it('a getter that throws at one name fails neither its definition nor the checks of the others', async () => {
    let ready = false
    const binance = wallet()
    const define = () =>
      Object.defineProperty(globalThis, 'BinanceChain', {
        configurable: true,
        get: () => {
          if (!ready) throw new Error('not ready')
          return binance.provider
        },
      })
    expect(define).not.toThrow()
    const namespace: Record<string, unknown> = {}
    page.frontier = namespace
    const frontier = wallet()
    namespace.ethereum = frontier.provider
    expect(() => windowProviders.all()).not.toThrow()
    await expectHeldBack(namespace.ethereum, frontier.reached)
    ready = true
    windowProviders.all()
    await expectHeldBack(page.BinanceChain, binance.reached)
  })

  it('leaves a page its own values under those names: assigned, or defined non-configurable', () => {
    page.tally = { mine: true }
    expect(page.tally).toEqual({ mine: true })
    Object.defineProperty(globalThis, 'zeal', { value: 'page', configurable: false, writable: false })
    expect(page.zeal).toBe('page')
    expect(Object.getOwnPropertyDescriptor(globalThis, 'zeal')).toMatchObject({ configurable: false, value: 'page' })
  })
})
