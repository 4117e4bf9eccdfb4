/**
 * Honest dapp and wallet shapes through the built extension in Chromium, which must work as they do without
 * Preflight: a page-side Proxy around a class-based wallet.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { clickDecision, nextConfirmWindow, pendingOf, shownAction, startCall } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('honest client shapes through the built extension', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let account: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    account = devnet.fixtures.accounts[0]?.address as Hex
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
