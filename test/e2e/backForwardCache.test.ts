/**
 * A page the browser keeps in its back/forward cache and shows again (Back) still gets an answer to the request it
 * left open, and its next request is checked. Chromium keeps that cache here, as every user's browser does; Playwright
 * turns it off by default, so no other suite meets it.
 */
import type { Page } from 'playwright-core'
import { type Address, type Hex, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'
import { countingWalletPage, forwardedCount } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision, REJECTED, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

/** The dapp's call as it settled, or "no answer" after `ms`: a call left waiting must fail the test, not stall it. */
const within = <T>(settled: Promise<T>, ms: number) =>
  Promise.race([settled, new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), ms))])

describe('a page restored from the back/forward cache', () => {
  let session: E2eSession
  let client: ReturnType<typeof devnetClient>
  let account: Address
  let recipient: Address
  const transfer = (value: string, wallet = 'ethereum') =>
    `${wallet}.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '${value}' }] })`

  beforeAll(async () => {
    session = await startE2eSession({ backForwardCache: true })
    const { fixtures } = session.devnet
    account = fixtures.accounts[0]?.address as Address
    recipient = fixtures.accounts[5]?.address as Address
    client = devnetClient(fixtures.rpcUrl)
    session.dapp.page('/counted', countingWalletPage(fixtures.rpcUrl, account))
    session.dapp.page(
      '/framed',
      '<!doctype html><meta charset="utf-8"><title>framed</title><iframe src="/counted"></iframe>',
    )
    session.dapp.page('/elsewhere', '<!doctype html><meta charset="utf-8"><title>elsewhere</title>')
  })
  afterAll(() => session?.close())

  /**
   * Goes to another page in the same tab and back; true when the browser showed `page`, and its frame when `framed`,
   * again from its cache.
   */
  const leaveAndComeBack = async (page: Page, framed = false): Promise<boolean> => {
    const watch = (inFrame: boolean) => {
      const target = (inFrame ? window.frames[0] : window) as unknown as Window & { shownAgain?: Promise<boolean> }
      target.shownAgain = new Promise((resolve) =>
        target.addEventListener('pageshow', (event) => resolve(event.persisted)),
      )
    }
    await page.evaluate(watch, framed)
    await page.goto(`${session.dapp.url}/elsewhere`)
    // A page shown from the cache is not loaded again: there is no load event to wait for.
    await page.goBack({ waitUntil: 'commit' })
    return page.evaluate((inFrame) => {
      const target = (inFrame ? window.frames[0] : window) as unknown as { shownAgain?: Promise<boolean> }
      return target?.shownAgain ?? false
    }, framed)
  }

  it('answers the request it left open with 4001, and checks and forwards the next one', async () => {
    const page = await session.open('/counted')
    const left = await callThroughConfirmWindow(session.context, page, transfer('0x1'))
    expect(await shownAction(left.confirm)).toBe('NONE')
    const closed = left.confirm.waitForEvent('close')
    expect(await leaveAndComeBack(page)).toBe(true)
    // The window closed as the page went away, rejecting the request; the page, shown again, is told so.
    await closed
    expect(await within(left.result(), 10_000)).toEqual(REJECTED)
    expect(await forwardedCount(page)).toBe(0)

    const before = await client.getBalance({ address: recipient })
    const next = await callThroughConfirmWindow(session.context, page, transfer('0x2386f26fc10000'))
    expect(await shownAction(next.confirm)).toBe('NONE')
    await clickDecision(next.confirm, 'Continue')
    const { ok } = await next.result()
    await waitForReceipt(client, ok as Hex)
    expect(await forwardedCount(page)).toBe(1)
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.01'))
  })

  it('does the same for a frame of the page', async () => {
    const page = await session.open('/framed')
    await page.waitForFunction(() => 'ethereum' in (window.frames[0] ?? {}))
    const framed = 'window.frames[0].ethereum'
    const forwarded = () => page.evaluate(() => (window.frames[0] as unknown as { forwarded: number }).forwarded)
    const left = await callThroughConfirmWindow(session.context, page, transfer('0x1', framed))
    expect(await shownAction(left.confirm)).toBe('NONE')
    expect(await leaveAndComeBack(page, true)).toBe(true)
    expect(await within(left.result(), 10_000)).toEqual(REJECTED)
    expect(await forwarded()).toBe(0)

    const next = await callThroughConfirmWindow(session.context, page, transfer('0x1', framed))
    expect(await shownAction(next.confirm)).toBe('NONE')
    await clickDecision(next.confirm, 'Continue')
    await waitForReceipt(client, (await next.result()).ok as Hex)
    expect(await forwarded()).toBe(1)
  })

  it('a Continue followed at once by leaving and coming back reaches the wallet at most once, as the call is told', async () => {
    // The Continue's answer races the page into the cache: delivered before, it is gone from the relay's open requests;
    // after, the page asks for it on return (resume), and only a request still open there is answered.
    const page = await session.open('/counted')
    const before = await client.getBalance({ address: recipient })
    const sent = await callThroughConfirmWindow(session.context, page, transfer('0x2386f26fc10000'))
    expect(await shownAction(sent.confirm)).toBe('NONE')
    await clickDecision(sent.confirm, 'Continue')
    expect(await leaveAndComeBack(page)).toBe(true)
    const result = await within(sent.result(), 10_000)
    expect(result).not.toBe('no answer')
    const forwardedOnce = typeof result === 'object' && result !== null && 'ok' in result
    if (forwardedOnce) await waitForReceipt(client, (result as { ok: Hex }).ok)
    else expect(result).toEqual(REJECTED)
    // Given time for a late second delivery or a second resume, the wallet still saw it once (or never).
    expect(await leaveAndComeBack(page)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await forwardedCount(page)).toBe(forwardedOnce ? 1 : 0)
    const paid = (await client.getBalance({ address: recipient })) - before
    expect(paid).toBe(forwardedOnce ? parseEther('0.01') : 0n)
  })
})
