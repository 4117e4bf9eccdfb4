/**
 * A tab that stops answering (its page spins its main thread, which its relay shares) after its request is queued:
 * the other sites' requests in the same window still settle, the window still moves on, and new requests still open
 * one. Before, settling the spinning tab's request waited for its delivery, inside the window's one-at-a-time queue.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { devWalletPage } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  nextConfirmWindow,
  queuedIds,
  REJECTED,
  shownAction,
  shownId,
  startCall,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const STILL_WAITING = 'still waiting'
/**
 * How long a settlement may take: the spinning tab holds a core of the 2-core machine while the rest of the suite runs
 * beside it, and what is tested is that it settles at all (before, it waited for the spinning tab forever).
 */
const SETTLES_WITHIN = 12_000
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<typeof STILL_WAITING>((resolve) => setTimeout(() => resolve(STILL_WAITING), ms))])

describe('a tab that stops answering', () => {
  let session: E2eSession
  let context: BrowserContext
  let account: Hex
  const sign = (text: string) => `ethereum.request({ method: 'personal_sign', params: ['${text}', '${account}'] })`
  const spinning: Page[] = []

  beforeAll(async () => {
    session = await startE2eSession()
    context = session.context
    account = session.devnet.fixtures.accounts[0]?.address as Hex
    session.dapp.page('/w', devWalletPage(session.devnet.fixtures.rpcUrl, account))
  })
  afterEach(async () => {
    // One spinning tab at a time: each holds a core.
    for (const page of spinning.splice(0)) await page.close({ runBeforeUnload: false }).catch(() => undefined)
  })
  afterAll(async () => {
    await session?.close()
  })

  /** A hostile tab's request first in the window, an honest tab's behind it; then the hostile page spins forever. */
  async function queueSpinningFirst() {
    const hostile = await context.newPage()
    spinning.push(hostile)
    await hostile.goto(`${session.dapp.url}/w`)
    const honest = await context.newPage()
    await honest.goto(`${session.dapp.otherOriginUrl}/w`)
    const first = await callThroughConfirmWindow(context, hostile, sign('0x68'))
    const behind = await startCall(honest, sign('0x67'))
    await expect.poll(async () => (await queuedIds(context)).length).toBe(2)
    await shownAction(first.confirm)
    await hostile.evaluate(
      () =>
        void setTimeout(() => {
          for (;;) {}
        }, 50),
    )
    await hostile.waitForTimeout(300)
    return { honest, confirm: first.confirm, behind }
  }

  it('closing the window rejects the honest request behind it, and a later request opens a new window', async () => {
    const { honest, confirm, behind } = await queueSpinningFirst()
    await confirm.close()
    expect(await within(behind(), SETTLES_WITHIN)).toEqual(REJECTED)
    const opened = within(nextConfirmWindow(context), SETTLES_WITHIN)
    const later = await startCall(honest, sign('0x6c'))
    const window = await opened
    expect(window).not.toBe(STILL_WAITING)
    await (window as Page).close()
    expect(await within(later(), SETTLES_WITHIN)).toEqual(REJECTED)
    await honest.close()
  })

  it("Reject on the spinning tab's request moves the window on to the next", async () => {
    const { honest, confirm, behind } = await queueSpinningFirst()
    const first = shownId(confirm)
    await clickDecision(confirm, 'Reject')
    await expect.poll(() => shownId(confirm), { timeout: SETTLES_WITHIN }).not.toBe(first)
    await confirm.close()
    expect(await within(behind(), SETTLES_WITHIN)).toEqual(REJECTED)
    await honest.close()
  })

  it('Refuse all settles the honest request too', async () => {
    const { honest, confirm, behind } = await queueSpinningFirst()
    await confirm.getByRole('button', { name: /Refuse all/ }).click()
    expect(await within(behind(), SETTLES_WITHIN)).toEqual(REJECTED)
    await honest.close()
  })
})
