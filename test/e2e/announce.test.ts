/**
 * The window opens as a signing request is announced: the hook tells the worker a request is coming before it asks
 * the wallet for its accounts and chain, and the worker opens the window then, so Chrome makes it and loads its page
 * while the wallet answers and the request is checked. Proven here with a wallet that holds its eth_accounts answer
 * until the test releases it (an extension wallet's answers cross its own content script and worker, and take longer
 * than the devnet's in-page wallet).
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOUNCED_PARAM } from '../../src/extension/shared/pending.ts'
import { answerHoldingWalletPage } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  pendingOf,
  queuedIds,
  REJECTED,
  shownAction,
  shownId,
  startCall,
  writeSettings,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

/** Holds the wallet's eth_accounts answer until `release()`; run in the page of an answerHoldingWalletPage. */
const HOLD = `(() => {
  const held = new Promise((resolve) => { window.release = resolve })
  window.beforeAnswer = (method) => method === 'eth_accounts' && held
})()`

const isConfirm = (page: Page) => page.url().includes('/ui/confirm.html')

describe('the window opens as a request is announced', () => {
  let session: E2eSession
  let context: BrowserContext
  let page: Page
  let account: Hex
  let recipient: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    context = session.context
    account = session.devnet.fixtures.accounts[0]?.address as Hex
    recipient = session.devnet.fixtures.accounts[5]?.address as Hex
    page = await session.open('/', answerHoldingWalletPage(session.devnet.fixtures.rpcUrl, account))
  })
  afterAll(() => session?.close())

  const transfer = () =>
    `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1' }] })`

  it('is open while the wallet has not answered, then shows the request and forwards exactly it', async () => {
    await page.evaluate(HOLD)
    const { confirm, result } = await callThroughConfirmWindow(context, page, transfer())
    // Opened for the request before it was stored: nothing is queued yet, and the window waits for it.
    const url = new URL(confirm.url())
    expect(url.searchParams.get(ANNOUNCED_PARAM)).toBe('1')
    const id = shownId(confirm)
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await queuedIds(context)).toEqual([])
    await confirm.getByText('Loading…').waitFor()
    expect(await confirm.locator('[data-state="settled"]').count()).toBe(0)

    await page.evaluate('release()')
    expect(await shownAction(confirm)).toBe('NONE')
    const shown = await pendingOf(confirm)
    expect(shown).toMatchObject({ id, method: 'eth_sendTransaction', account: account.toLowerCase() })
    expect(shown.params).toEqual([
      { from: account.toLowerCase(), to: recipient.toLowerCase(), value: '0x1', chainId: '0x7a69' },
    ])
    await clickDecision(confirm, 'Continue')
    expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('closes the window it opened when the request is refused once it arrives', async () => {
    await page.evaluate(HOLD)
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_sendRawTransaction', params: ['0x02deadbeef'] })`,
    )
    const closed = confirm.waitForEvent('close', { timeout: 10_000 })
    await page.evaluate('release()')
    expect((await result()).code).toBe(-32602)
    await closed
    expect(context.pages().filter(isConfirm)).toEqual([])
  })

  it('keeps the window for a wallet that does not answer, until the hook sends the request without its answer', async () => {
    const opened: Page[] = []
    const onPage = (candidate: Page) => isConfirm(candidate) && opened.push(candidate)
    context.on('page', onPage)
    try {
      await page.evaluate(HOLD)
      const { confirm, result } = await callThroughConfirmWindow(context, page, transfer())
      const id = shownId(confirm)
      // The hook gives up on the wallet after WALLET_ANSWER_TIMEOUT_MS and sends the request as it has it; the worker
      // waits longer than that for an announced request, so the same window shows it.
      expect(await shownAction(confirm)).toBeTruthy()
      expect((await pendingOf(confirm)).id).toBe(id)
      expect(opened).toEqual([confirm])
      await clickDecision(confirm, 'Reject')
      expect(await result()).toEqual(REJECTED)
      await page.evaluate('release()')
    } finally {
      context.off('page', onPage)
    }
  })

  it('opens nothing for a page where checking is paused, and the wallet gets the request', async () => {
    const opened: Page[] = []
    const onPage = (candidate: Page) => isConfirm(candidate) && opened.push(candidate)
    context.on('page', onPage)
    try {
      await writeSettings(context, {
        rpcUrls: { '31337': session.devnet.fixtures.rpcUrl },
        pausedOrigins: [session.dapp.url],
      })
      await page.evaluate(HOLD)
      const result = await startCall(page, transfer())
      await page.waitForTimeout(1_000)
      await page.evaluate('release()')
      expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
      expect(opened).toEqual([])
    } finally {
      context.off('page', onPage)
      await writeSettings(context, { rpcUrls: { '31337': session.devnet.fixtures.rpcUrl } })
    }
  })
})
