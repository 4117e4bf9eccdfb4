/**
 * Concurrent requests queue in one confirmation window, across tabs: it shows the oldest with its place in the queue,
 * moves on after each decision and closes when none is left. Closing it rejects every request it holds; a tab that
 * goes away takes only its own requests; a stopped worker loses nothing. The dapps' wallets count what reaches them.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { type Dapp, walletPage } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  queuedIds,
  REJECTED,
  serviceWorker,
  shownAction,
  shownId,
  startCall,
  stopServiceWorkers,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('one confirmation window for concurrent requests', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let account: Hex
  /** Confirmation windows opened since the test began. */
  let opened: Page[]
  const recordWindow = (page: Page) => page.url().includes('/ui/confirm.html') && opened.push(page)

  const open = async (base: string): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${base}/counted`)
    return page
  }
  /** Texts whose personal_sign reached the page's wallet, below the hook. */
  const forwarded = (page: Page) => page.evaluate(() => (window as unknown as { forwarded: string[] }).forwarded)
  const sign = (text: string) => `ethereum.request({ method: 'personal_sign', params: ['${text}', '${account}'] })`
  const position = (confirm: Page) => confirm.getByTestId('queue-position').textContent()

  /** Request A from `first`, then B from `second`, then C from `third`, each queued before the next is sent. */
  async function queueThree(first: Page, second: Page, third: Page) {
    const a = await callThroughConfirmWindow(context, first, sign('0x61'))
    const b = await startCall(second, sign('0x62'))
    await expect.poll(() => position(a.confirm)).toContain('Request 1 of 2')
    const c = await startCall(third, sign('0x63'))
    await expect.poll(() => position(a.confirm)).toContain('Request 1 of 3')
    const ids = await queuedIds(context)
    expect(ids).toHaveLength(3)
    return { confirm: a.confirm, results: [a.result, b, c], ids }
  }

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    account = devnet.fixtures.accounts[0]?.address as Hex
    dapp.page(
      '/counted',
      walletPage(`
        const wallet = DevWallet.createDevWallet(${JSON.stringify({ rpcUrl: devnet.fixtures.rpcUrl, account })})
        window.forwarded = []
        const request = wallet.request
        wallet.request = (args) => {
          if (args.method === 'personal_sign') forwarded.push(args.params[0])
          return request(args)
        }
        DevWallet.announceDevWallet(wallet)
      `),
    )
    context.on('page', recordWindow)
  })
  afterAll(async () => {
    context?.off('page', recordWindow)
    await session?.close()
  })

  it('shows three requests from two tabs one at a time, "1 of 3", and answers each call once', async () => {
    const [tab1, tab2] = await Promise.all([open(dapp.url), open(dapp.otherOriginUrl)])
    opened = []
    const { confirm, results, ids } = await queueThree(tab1, tab2, tab1)
    const [a, b, c] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]]
    expect(shownId(confirm)).toBe(ids[0])
    // The waiting requests are listed with their origins, in turn, but have no buttons of their own.
    expect(await confirm.getByTestId('queued-request').allTextContents()).toEqual([
      expect.stringContaining(dapp.otherOriginUrl),
      expect.stringContaining(dapp.url),
    ])
    expect(await confirm.getByRole('button', { name: 'Continue' }).count()).toBe(1)
    expect(await confirm.getByTestId('close-note').textContent()).toBe('Closing this window rejects all 3 requests.')

    await shownAction(confirm)
    await clickDecision(confirm, 'Continue')
    const signatureA = (await a()).ok as Hex
    expect(await verifyMessage({ address: account, message: 'a', signature: signatureA })).toBe(true)

    await expect.poll(() => shownId(confirm)).toBe(ids[1])
    expect(await position(confirm)).toContain('Request 1 of 2')
    await shownAction(confirm)
    await clickDecision(confirm, 'Reject')
    expect(await b()).toEqual(REJECTED)

    await expect.poll(() => shownId(confirm)).toBe(ids[2])
    // The last request alone: no queue to show.
    await shownAction(confirm)
    expect(await confirm.getByTestId('queue-position').count()).toBe(0)
    const closed = confirm.waitForEvent('close')
    await clickDecision(confirm, 'Continue')
    const signatureC = (await c()).ok as Hex
    expect(await verifyMessage({ address: account, message: 'c', signature: signatureC })).toBe(true)
    await closed

    expect(opened).toHaveLength(1)
    expect(await forwarded(tab1)).toEqual(['0x61', '0x63'])
    expect(await forwarded(tab2)).toEqual([])
    expect(await queuedIds(context)).toEqual([])
    await Promise.all([tab1.close(), tab2.close()])
  })

  it('rejects every request in the window with 4001 when the window is closed, and opens no other', async () => {
    const [tab1, tab2] = await Promise.all([open(dapp.url), open(dapp.otherOriginUrl)])
    opened = []
    const { confirm, results } = await queueThree(tab1, tab2, tab2)
    await shownAction(confirm)
    await confirm.close()

    expect(await Promise.all(results.map((result) => result()))).toEqual([REJECTED, REJECTED, REJECTED])
    expect(await queuedIds(context)).toEqual([])
    expect(opened).toHaveLength(1)
    expect([...(await forwarded(tab1)), ...(await forwarded(tab2))]).toEqual([])
    await Promise.all([tab1.close(), tab2.close()])
  })

  it('drops only the requests of a tab that goes away, and waits for the user before showing the next', async () => {
    const [tab1, tab2] = await Promise.all([open(dapp.url), open(dapp.otherOriginUrl)])
    opened = []
    const { confirm, ids } = await queueThree(tab1, tab2, tab2)
    await tab1.close()

    // The shown request went away: the window says so and offers the next one instead of swapping it in unasked.
    await confirm.locator('main[data-state="settled"]').waitFor()
    expect(await confirm.getByText(`The request from ${dapp.url} is no longer waiting`).count()).toBe(1)
    expect(await queuedIds(context)).toEqual(ids.slice(1))
    await confirm.getByRole('button', { name: 'Show the next request' }).click()
    expect(shownId(confirm)).toBe(ids[1])
    expect(await position(confirm)).toContain('Request 1 of 2')

    // The other tab goes away too: nothing is left, so the worker closes the window.
    const closed = confirm.waitForEvent('close')
    await tab2.close()
    await closed
    expect(await queuedIds(context)).toEqual([])
    expect(opened).toHaveLength(1)
    const worker = await serviceWorker(context)
    const decisions = await worker.evaluate(
      async (keys) =>
        Object.values(await chrome.storage.session.get(keys)).map((value) => (value as { decision: string }).decision),
      ids.map((id) => `settled:${id}`),
    )
    expect(decisions).toEqual(['closed', 'closed', 'closed'])
  })

  it('still delivers every queued decision after the worker was stopped', async () => {
    const [tab1, tab2] = await Promise.all([open(dapp.url), open(dapp.otherOriginUrl)])
    opened = []
    const { confirm, results, ids } = await queueThree(tab1, tab2, tab1)
    await shownAction(confirm)
    await (await serviceWorker(context)).evaluate(() => {
      ;(globalThis as { beforeStop?: boolean }).beforeStop = true
    })
    await stopServiceWorkers(confirm)

    for (const id of ids) {
      await expect.poll(() => shownId(confirm)).toBe(id)
      await shownAction(confirm)
      await clickDecision(confirm, 'Continue')
    }
    const settled = await Promise.all(results.map((result) => result()))
    const texts = ['a', 'b', 'c']
    for (const [index, outcome] of settled.entries()) {
      const signature = outcome.ok as Hex
      expect(await verifyMessage({ address: account, message: texts[index] ?? '', signature })).toBe(true)
    }
    // A new worker handled the decisions: the stopped one's globals are gone.
    expect(
      await (await serviceWorker(context)).evaluate(() => (globalThis as { beforeStop?: boolean }).beforeStop),
    ).toBeUndefined()
    expect(await forwarded(tab1)).toEqual(['0x61', '0x63'])
    expect(await forwarded(tab2)).toEqual(['0x62'])
    expect(opened).toHaveLength(1)
    await Promise.all([tab1.close(), tab2.close()])
  })
})
