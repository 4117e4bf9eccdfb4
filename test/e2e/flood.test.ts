/**
 * A page that floods the wallet with requests: 200 at once still wait in one window that says how many there are,
 * the first can be continued, the rest end with 4001 when the window is closed, and the worker goes on working.
 * (How fast Continue reaches the dapp under the flood is measured by `npm run bench:extension`.)
 */
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { type Dapp, devWalletPage } from './support/dapp.ts'
import { callThroughConfirmWindow, queuedIds, REJECTED, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const FLOOD = 200

describe('a flood of requests', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let account: string

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    account = (devnet.fixtures.accounts[0]?.address ?? '').toLowerCase()
    dapp.page('/flood', devWalletPage(devnet.fixtures.rpcUrl, account))
  })
  afterAll(() => session?.close())

  it('shows 200 requests in one window, continues the first, rejects the other 199 when closed, and lives', async () => {
    const page = await context.newPage()
    await page.goto(`${dapp.url}/flood`)
    let windows = 0
    const count = (opened: { url(): string }) => {
      if (opened.url().includes('/ui/confirm.html')) windows++
    }
    context.on('page', count)
    const sign = (index: number) =>
      `ethereum.request({ method: 'personal_sign', params: ['0x${index.toString(16).padStart(4, '0')}', '${account}'] })`
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `Promise.allSettled(Array.from({ length: ${FLOOD} }, (_, index) => ${sign(0).replace("'0x0000'", "'0x' + index.toString(16).padStart(4, '0')")}))
         .then((all) => all.map((one) => one.status === 'fulfilled' ? 'signed' : one.reason.code))`,
    )
    await expect.poll(() => queuedIds(context), { timeout: 60_000 }).toHaveLength(FLOOD)
    await expect.poll(() => confirm.getByTestId('queue-position').textContent()).toContain(`Request 1 of ${FLOOD}`)
    await shownAction(confirm)
    // Continue swallows a click that comes as its buttons move (a late layout change on a loaded machine re-arms it,
    // as it must against a page timing a second request): a person clicks again, and so does this test, only while
    // the first request is still the one shown.
    const position = confirm.getByTestId('queue-position')
    await expect
      .poll(
        async () => {
          if ((await position.textContent())?.includes(`Request 1 of ${FLOOD}`)) {
            await confirm.getByRole('button', { name: 'Continue', exact: true }).click()
          }
          return (await queuedIds(context)).length
        },
        { timeout: 20_000, interval: 1_500 },
      )
      .toBe(FLOOD - 1)
    await confirm.close()
    const settled = (await result()).ok as (string | number)[]
    expect(settled.filter((outcome) => outcome === 'signed')).toHaveLength(1)
    expect(settled.filter((outcome) => outcome === 4001)).toHaveLength(FLOOD - 1)
    expect(await queuedIds(context)).toEqual([])
    context.off('page', count)
    expect(windows).toBe(1)

    // The worker still works: one more request gets a window and an answer.
    const after = await callThroughConfirmWindow(context, page, sign(FLOOD))
    await after.confirm.getByRole('button', { name: 'Reject', exact: true }).click()
    expect(await after.result()).toEqual(REJECTED)
  })
})
