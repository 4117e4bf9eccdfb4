/**
 * Every request settles exactly once, end to end: a repeated or forged decision changes nothing, and a request still
 * ends — never hangs — when its window is closed mid-scan, the worker is stopped mid-scan, session storage is full, or
 * the extension is reloaded (reload.test.ts). The dapp's wallet counts what reaches it; the devnet's nonce says what was mined.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, type PublicClient, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { countingWalletPage, type Dapp, forwardedCount } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  evaluateInContentScript,
  pendingOf,
  REJECTED,
  serviceWorker,
  shownAction,
  startCall,
  stopServiceWorkers,
  writeSettings,
} from './support/extension.ts'
import { type HeldRpc, startHeldRpc } from './support/heldRpc.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const TX_HASH = /^0x[0-9a-f]{64}$/

describe('each request settles exactly once', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let rpc: HeldRpc
  let chain: PublicClient
  let account: Hex
  let sendTx: string

  const open = async (): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${dapp.url}/counted`)
    return page
  }
  const sessionValue = async (key: string) =>
    (await serviceWorker(context)).evaluate(async (name) => (await chrome.storage.session.get(name))[name], key)
  const sign = (text: string) => `ethereum.request({ method: 'personal_sign', params: ['${text}', '${account}'] })`

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    const recipient = fixtures.accounts[5]?.address as Hex
    sendTx = `{ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1' }] }`
    chain = createPublicClient({ transport: http(fixtures.rpcUrl), pollingInterval: 50 })
    // Scans go through the pass-through (so a test can hold them); the dapp's wallet talks to the devnet directly.
    rpc = await startHeldRpc(fixtures.rpcUrl)
    await writeSettings(context, { rpcUrls: { '31337': rpc.url } })
    // The wallet counts the transactions that reach it, below the hook.
    dapp.page('/counted', countingWalletPage(fixtures.rpcUrl, account))
  })
  afterAll(async () => {
    await session?.close()
    await rpc?.close()
  })

  it('forwards once when the decision arrives twice, and ignores decisions for settled or unknown requests', async () => {
    const page = await open()
    const nonce = await chain.getTransactionCount({ address: account })
    // The callback form: a callback, unlike a promise, could be called twice.
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `new Promise((resolve) => {
        window.answers = []
        ethereum.sendAsync({ id: 1, jsonrpc: '2.0', ...${sendTx} }, (error, response) => {
          answers.push(response)
          resolve(response)
        })
      })`,
    )
    await shownAction(confirm)
    const { id } = await pendingOf(confirm)

    const replies = await confirm.evaluate(async (requestId) => {
      const decide = (target: string, decision: string) =>
        chrome.runtime.sendMessage({ type: 'preflight/decision', id: target, decision, seen: 0 })
      const racing = await Promise.all([decide(requestId, 'continue'), decide(requestId, 'continue')])
      return { racing, late: await decide(requestId, 'reject'), unknown: await decide(crypto.randomUUID(), 'continue') }
    }, id)
    // Nothing else waits in the window: no reply names a next request, so the window may close.
    expect(replies.racing).toEqual(
      expect.arrayContaining([
        { ok: true, next: null },
        { ok: false, next: null },
      ]),
    )
    expect(replies).toMatchObject({ late: { ok: false, next: null }, unknown: { ok: false, next: null } })
    const { result: hash } = (await result()).ok as { result: Hex }
    expect(hash).toMatch(TX_HASH)
    await confirm.close()
    await waitForReceipt(chain, hash)

    // Decisions reach the page in order: once a later request has settled, no second answer to the first can follow.
    const later = await callThroughConfirmWindow(context, page, sign('0x6c61746572'))
    await clickDecision(later.confirm, 'Reject')
    expect(await later.result()).toEqual(REJECTED)
    expect(await page.evaluate(() => (window as unknown as { answers: unknown[] }).answers.length)).toBe(1)
    expect(await forwardedCount(page)).toBe(1)
    expect(await chain.getTransactionCount({ address: account })).toBe(nonce + 1)
  })

  it("refuses a decision that does not come from the extension's own pages, for a real or a forged id", async () => {
    const page = await open()
    const { confirm, result } = await callThroughConfirmWindow(context, page, `ethereum.request(${sendTx})`)
    await shownAction(confirm)
    const { id } = await pendingOf(confirm)

    // A web page cannot even address the extension (it declares no externally_connectable).
    const pageRuntime = await page.evaluate(
      () => typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage,
    )
    expect(pageRuntime).toBe('undefined')
    // A content script can send runtime messages; the worker does not answer decisions from it.
    const answers = await evaluateInContentScript(
      page,
      `Promise.all([${JSON.stringify(id)}, crypto.randomUUID()].map((id) =>
        chrome.runtime.sendMessage({ type: 'preflight/decision', id, decision: 'continue', seen: 0 })
          .then((reply) => reply ?? 'no answer')))`,
    )
    expect(answers).toEqual(['no answer', 'no answer'])

    expect((await pendingOf(confirm)).id).toBe(id)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
    expect(await forwardedCount(page)).toBe(0)
  })

  it('gives the dapp 4001 when the window is closed while the scan is still running', async () => {
    rpc.hold()
    try {
      const page = await open()
      const { confirm, result } = await callThroughConfirmWindow(context, page, `ethereum.request(${sendTx})`)
      await rpc.holding()
      const { id } = await pendingOf(confirm)
      expect(await confirm.locator('[data-action]').getAttribute('data-action')).toBe('PENDING')
      await confirm.close()

      expect(await result()).toEqual(REJECTED)
      expect(await sessionValue(`pending:${id}`)).toBeUndefined()
      expect(await forwardedCount(page)).toBe(0)
    } finally {
      rpc.release()
    }
  })

  it('finishes a scan the stopped worker left running, and Continue still forwards once', async () => {
    const nonce = await chain.getTransactionCount({ address: account })
    rpc.hold()
    const page = await open()
    const { confirm, result } = await callThroughConfirmWindow(context, page, `ethereum.request(${sendTx})`)
    try {
      await rpc.holding()
      await stopServiceWorkers(confirm)
    } finally {
      rpc.release()
    }
    // The stopped worker can no longer write a result: only the restarted worker's scan can end the PENDING state.
    expect(await shownAction(confirm)).toBe('NONE')
    await clickDecision(confirm, 'Continue')

    const hash = (await result()).ok as Hex
    expect(hash).toMatch(TX_HASH)
    // anvil may answer with the hash before the block is mined.
    await waitForReceipt(chain, hash)
    expect(await forwardedCount(page)).toBe(1)
    expect(await chain.getTransactionCount({ address: account })).toBe(nonce + 1)
  })

  it('answers the dapp with an error, instead of leaving it waiting, when the request cannot be stored', async () => {
    const worker = await serviceWorker(context)
    // Session storage is capped (10 MB in Chrome): leave too little room for one more large request.
    await worker.evaluate(async () => {
      const quota = chrome.storage.session.QUOTA_BYTES
      await chrome.storage.session.set({ filler: 'x'.repeat(quota - 200_000) })
    })
    const windows: Page[] = []
    const collect = (opened: Page) => windows.push(opened)
    context.on('page', collect)
    try {
      const page = await open()
      windows.length = 0
      const big = `0x${'61'.repeat(150_000)}`
      const settled = await (await startCall(page, sign(big)))()
      expect(settled).toMatchObject({ code: -32603, message: expect.stringContaining('could not keep this request') })
      expect(await forwardedCount(page)).toBe(0)
      // The window opened as the request was announced (see announce.test.ts) closes again: it never had one to show.
      await expect.poll(() => windows.filter((opened) => !opened.isClosed()).length, { timeout: 10_000 }).toBe(0)
      const confirms = windows.filter((opened) => opened.url().includes('/ui/confirm.html'))
      expect(confirms.every((opened) => opened.url().includes('announced=1'))).toBe(true)
    } finally {
      context.off('page', collect)
      await worker.evaluate(() => chrome.storage.session.remove('filler'))
    }
  })
  it('keeps one tab from filling the store: past 2 MB of waiting requests its next is refused, another tab is not', async () => {
    const waitingCount = async () =>
      (await serviceWorker(context)).evaluate(
        async () =>
          Object.keys(await chrome.storage.session.get(null)).filter((key) => key.startsWith('pending:')).length,
      )
    // About 450 kB of params each: four fit in the tab's 2 MiB, a fifth does not.
    const large = (n: number) => sign(`0x${n.toString(16).padStart(2, '0')}${'61'.repeat(225_000)}`)
    const page = await open()
    const { confirm, result } = await callThroughConfirmWindow(context, page, large(1))
    const results = [result]
    for (let n = 2; n <= 4; n++) results.push(await startCall(page, large(n)))
    await expect.poll(waitingCount).toBe(4)
    expect(await (await startCall(page, large(5)))()).toMatchObject({
      code: -32005,
      message: expect.stringContaining('of requests waiting for review'),
    })
    // Another tab's request is kept, to wait in the same window.
    const other = await open()
    results.push(await startCall(other, large(6)))
    await expect.poll(waitingCount).toBe(5)
    // Closing the window rejects all five, and frees the tab's budget.
    await confirm.close()
    for (const settled of results) expect(await settled()).toEqual(REJECTED)
    const again = await callThroughConfirmWindow(context, page, large(7))
    await clickDecision(again.confirm, 'Reject')
    expect(await again.result()).toEqual(REJECTED)
  })

  it('settles a decision when storage has no room left for how it ended', async () => {
    const page = await open()
    const big = `0x${'61'.repeat(150_000)}`
    const { confirm, result } = await callThroughConfirmWindow(context, page, sign(big))
    await shownAction(confirm)
    const worker = await serviceWorker(context)
    // A page can fill session storage with requests: leave less room than the note of a Continue (its params) needs.
    await worker.evaluate(async () => {
      const free = chrome.storage.session.QUOTA_BYTES - (await chrome.storage.session.getBytesInUse(null))
      await chrome.storage.session.set({ filler: 'x'.repeat(free - 50_000) })
    })
    try {
      await clickDecision(confirm, 'Continue')
      // The wallet signed exactly the message shown.
      const signature = (await result()).ok as Hex
      expect(await verifyMessage({ address: account, message: { raw: big as Hex }, signature })).toBe(true)
    } finally {
      await worker.evaluate(() => chrome.storage.session.remove('filler'))
    }
  })
})
