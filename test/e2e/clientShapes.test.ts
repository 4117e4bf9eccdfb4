/**
 * Honest dapp and wallet shapes through the built extension in Chromium, which must work as they do without
 * Preflight: a page whose Promise is a polyfill's (zone.js in every Angular app), a wallet that normalises the
 * transaction it receives in place, and a page-side Proxy around a class-based wallet.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { clickDecision, nextConfirmWindow, pendingOf, shownAction, startCall } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const FAKE_HASH = `0x${'11'.repeat(32)}`

/**
 * What zone.js does to a page: window.Promise becomes a class of its own (not the native one, nor a subclass), whose
 * `then` settles later. A wallet that builds its promise with the global Promise at call time answers with it.
 */
const ZONE_LIKE_PROMISE = `
  const NativePromise = Promise
  class ZoneAwarePromise {
    constructor(executor) { this.settled = new NativePromise(executor) }
    then(onOk, onKo) {
      return new ZoneAwarePromise((ok, ko) => this.settled.then(
        (value) => { try { ok(onOk ? onOk(value) : value) } catch (error) { ko(error) } },
        (reason) => { try { onKo ? ok(onKo(reason)) : ko(reason) } catch (error) { ko(error) } },
      ))
    }
    catch(onKo) { return this.then(undefined, onKo) }
    static resolve(value) { return new ZoneAwarePromise((ok) => ok(value)) }
    static reject(reason) { return new ZoneAwarePromise((_ok, ko) => ko(reason)) }
  }
  window.Promise = ZoneAwarePromise`

describe('honest client shapes through the built extension', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let account: Hex
  let recipient: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    account = devnet.fixtures.accounts[0]?.address as Hex
    recipient = devnet.fixtures.accounts[6]?.address as Hex
  }, 180_000)
  afterAll(() => session?.close())

  const walletOptions = () => JSON.stringify({ rpcUrl: devnet.fixtures.rpcUrl, account })

  /** Starts `expression`, waits for the window it opens, and answers what it showed and how the call settled. */
  async function decided(page: Page, expression: string, decision: 'Continue' | 'Reject') {
    const opened = nextConfirmWindow(context)
    const result = await startCall(page, expression)
    const confirm = await opened
    const action = await shownAction(confirm)
    const shown = await pendingOf(confirm)
    await clickDecision(confirm, decision)
    return { action, shown, settled: await result() }
  }

  it("shows the wallet's account and chain when the page's Promise is a polyfill's (zone.js), and sends on Continue", async () => {
    const page = await session.open(
      '/zone',
      `<!doctype html><meta charset="utf-8"><script src="/wallet.js"></script><script>
        const inner = DevWallet.createDevWallet(${walletOptions()})
        // A wallet compiled for older targets: request builds its promise with the global Promise at call time.
        const wallet = { isMetaMask: true, request(args) { return new Promise((ok, ko) => inner.request(args).then(ok, ko)) },
          on() { return wallet }, removeListener() { return wallet } }
        DevWallet.announceDevWallet(wallet)
        ${ZONE_LIKE_PROMISE}
      </script>`,
    )
    expect(await page.evaluate(() => (window as unknown as { Promise: { name: string } }).Promise.name)).toBe(
      'ZoneAwarePromise',
    )
    const { action, shown, settled } = await decided(
      page,
      `window.ethereum.request({ method: 'eth_sendTransaction', params: [{ to: '${recipient}', value: '0x1', gas: '0x5208' }] })`,
      'Continue',
    )
    expect({ action, account: shown.account, chainId: shown.chainId }).toEqual({
      action: 'NONE',
      account: account.toLowerCase(),
      chainId: 31337,
    })
    expect(settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    await page.close()
  })

  it('lets a wallet that normalises the transaction in place (strict mode) send it after Continue, as shown', async () => {
    const page = await session.open(
      '/normalising',
      `<!doctype html><meta charset="utf-8"><script src="/wallet.js"></script><script>
        'use strict'
        const wallet = DevWallet.createDevWallet(${walletOptions()})
        const request = wallet.request
        window.received = []
        wallet.request = async (args) => {
          if (args.method !== 'eth_sendTransaction') return request(args)
          const tx = args.params[0]
          tx.from = tx.from.toLowerCase() // as eth-json-rpc-middleware's wallet middleware does
          window.received.push(JSON.parse(JSON.stringify(tx)))
          return '${FAKE_HASH}'
        }
        DevWallet.announceDevWallet(wallet)
      </script>`,
    )
    const { shown, settled } = await decided(
      page,
      `window.ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1', gas: '0x5208' }] })`,
      'Continue',
    )
    expect(settled).toEqual({ ok: FAKE_HASH })
    expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual(shown.params)
    await page.close()
  })

  it('reviews a call through a page-side Proxy of a class-based wallet and forwards it to the wallet', async () => {
    const page = await session.open(
      '/proxied',
      `<!doctype html><meta charset="utf-8"><script src="/wallet.js"></script><script>
        const inner = DevWallet.createDevWallet(${walletOptions()})
        window.selves = []
        class ClassWallet {
          constructor() { this.isMetaMask = true }
          request(args) { if (args.method === 'personal_sign') window.selves.push(this === wallet); return inner.request(args) }
        }
        const wallet = new ClassWallet()
        DevWallet.announceDevWallet(wallet)
        // A dapp's own logging wrapper: forwards everything unchanged.
        window.wrapped = new Proxy(window.ethereum, {})
      </script>`,
    )
    const { settled } = await decided(
      page,
      `window.wrapped.request({ method: 'personal_sign', params: ['0x6869', '${account}'] })`,
      'Continue',
    )
    expect(settled.ok).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await page.evaluate(() => (window as unknown as { selves: boolean[] }).selves)).toEqual([true])
    await page.close()
  })
})
