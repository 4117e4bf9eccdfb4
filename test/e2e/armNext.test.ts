/**
 * A window opened for one tab's request whose wallet is slow to answer shows another tab's request first. When the
 * first is decided, the window's own request comes next, and it is armed after a pause like any request that replaced
 * another on screen: a double click or a repeated Escape meant for the first cannot reject it unseen.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerHoldingWalletPage, devWalletPage } from './support/dapp.ts'
import { nextConfirmWindow, queuedIds, REJECTED, shownAction, shownId, startCall } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

/** Holds the slow tab's wallet answer to eth_accounts until the page calls release(). */
const HOLD = `(() => {
  const held = new Promise((resolve) => { window.release = resolve })
  window.beforeAnswer = (method) => method === 'eth_accounts' && held
})()`

const STILL_WAITING = 'still waiting'

describe("the window's own request, shown after another tab's", () => {
  let session: E2eSession
  let context: BrowserContext
  let account: Hex
  let slow: Page
  let fast: Page
  const sign = (text: string) => `ethereum.request({ method: 'personal_sign', params: ['${text}', '${account}'] })`

  beforeAll(async () => {
    session = await startE2eSession()
    context = session.context
    account = session.devnet.fixtures.accounts[0]?.address as Hex
    session.dapp.page('/slow', answerHoldingWalletPage(session.devnet.fixtures.rpcUrl, account))
    session.dapp.page('/fast', devWalletPage(session.devnet.fixtures.rpcUrl, account))
    slow = await context.newPage()
    await slow.goto(`${session.dapp.url}/slow`)
    fast = await context.newPage()
    await fast.goto(`${session.dapp.otherOriginUrl}/fast`)
  })
  afterAll(() => session?.close())

  /** The window opens for B (slow tab); A (fast tab) arrives first and is shown; B, then C, are stored behind it. */
  async function aShownBeforeB() {
    await slow.evaluate(HOLD)
    const opened = nextConfirmWindow(context)
    const b = await startCall(slow, sign('0x62'))
    const confirm = await opened
    const idB = shownId(confirm)
    const a = await startCall(fast, sign('0x61'))
    await expect.poll(async () => (await queuedIds(context)).length).toBe(1)
    const [idA] = await queuedIds(context)
    await expect.poll(() => shownId(confirm)).toBe(idA)
    await slow.evaluate('release()')
    await expect.poll(async () => (await queuedIds(context)).length).toBe(2)
    // A third behind B keeps the queue bar, so the buttons stay where they were when B replaces A.
    const c = await startCall(fast, sign('0x63'))
    await expect.poll(async () => (await queuedIds(context)).length).toBe(3)
    await shownAction(confirm)
    // A is not the request the window opened for, so it too is armed after a pause before it can be decided.
    await confirm.waitForTimeout(1_000)
    return { confirm, a, b, c, idB }
  }

  const outcomeWithin = (call: () => Promise<unknown>, ms: number) =>
    Promise.race([call(), new Promise((resolve) => setTimeout(() => resolve(STILL_WAITING), ms))])

  it('a double click on Reject for A rejects A only', async () => {
    const { confirm, a, b, c, idB } = await aShownBeforeB()
    const box = await confirm.getByRole('button', { name: 'Reject' }).boundingBox()
    if (!box) throw new Error('no Reject button')
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2]
    await confirm.mouse.click(x, y)
    const clicked = Date.now()
    await expect.poll(() => shownId(confirm), { interval: 5 }).toBe(idB)
    await confirm.waitForTimeout(Math.max(0, 250 - (Date.now() - clicked)))
    await confirm.mouse.click(x, y)
    expect(await a()).toEqual(REJECTED)
    expect(await outcomeWithin(b, 2_000)).toBe(STILL_WAITING)
    await confirm.close()
    expect(await b()).toEqual(REJECTED)
    expect(await c()).toEqual(REJECTED)
  })

  it('Escape pressed twice for A rejects A only', async () => {
    const { confirm, a, b, c } = await aShownBeforeB()
    await confirm.keyboard.press('Escape')
    await confirm.waitForTimeout(120)
    await confirm.keyboard.press('Escape')
    expect(await a()).toEqual(REJECTED)
    expect(await outcomeWithin(b, 2_000)).toBe(STILL_WAITING)
    await confirm.close()
    expect(await b()).toEqual(REJECTED)
    expect(await c()).toEqual(REJECTED)
  })
})
