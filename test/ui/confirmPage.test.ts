/**
 * The confirmation window of the built extension in Chromium, rendering real scans of the devnet from
 * chrome.storage.session: the test hooks of DESIGN.md, live updates, focus and keys, the BLOCK acknowledgement, and
 * the decision message. Uses dist/ (built by `npm test` before vitest), or PREFLIGHT_EXTENSION_DIR.
 */
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { type Address, concat, encodeFunctionData, getAddress, keccak256, parseAbi, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedChromium, launchChromium } from '../../src/devnet/chromium.ts'
import { permit2Single, sendEth, type TxRequest } from '../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { COW_SETTLEMENT_ADDRESS, plainSafeTx, safeMessageTypedData, safeTxTypedData } from '../../src/devnet/eip712.ts'
import { scanMessage, scanTransactions } from '../../src/engine/index.ts'
import type { PendingRequest, ScanState } from '../../src/extension/shared/pending.ts'
import { REQUEST_SHOWN, RESULTS_SHOWN } from '../../src/extension/ui/confirm/shownMarks.ts'
import { clickDecision } from '../e2e/support/extension.ts'
import { startTestDevnet } from '../support/devnet.ts'

const extensionDir = process.env.PREFLIGHT_EXTENSION_DIR ?? join(import.meta.dirname, '../../dist')
const BLOCKLISTED_ORIGIN = 'https://moonbirds.tv'

describe('the confirmation window', () => {
  let devnet: Devnet
  let browser: LaunchedChromium
  let context: BrowserContext
  let base: string
  /** An extension page used to seed storage and to watch the messages the window sends. */
  let control: Page
  let me: Address
  let sendEthScan: ScanState
  let permit2Scan: ScanState
  let blockScan: ScanState
  let tx: TxRequest
  let nodeSettings: Record<string, unknown>

  beforeAll(async () => {
    devnet = await startTestDevnet()
    browser = await launchChromium({ extensionDir })
    context = browser.context
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    base = `chrome-extension://${new URL(worker.url()).host}/src/extension/ui/`
    control = await context.newPage()
    await control.goto(`${base}popup.html`)
    await control.evaluate(() => {
      const seen: unknown[] = []
      ;(window as unknown as { seen: unknown[] }).seen = seen
      chrome.runtime.onMessage.addListener((message) => {
        seen.push(message)
      })
    })
    const { fixtures } = devnet
    me = fixtures.accounts[0]?.address as Address
    const options = { rpcUrl: fixtures.rpcUrl }
    tx = sendEth(fixtures, me)
    // Continue scans a transaction again before it goes on (the re-check): on the devnet the seeded scans came from.
    nodeSettings = { rpcUrls: { '31337': fixtures.rpcUrl } }
    await store({ settings: nodeSettings }, 'local')
    const [sent, permit, blocked] = await Promise.all([
      scanTransactions({ txObjects: [tx], userAccount: me, metadata: { origin: 'http://localhost:5173' } }, options),
      scanMessage(
        {
          message: { kind: 'SIGN_TYPED_DATA', data: permit2Single(fixtures, Math.floor(Date.now() / 1000)) },
          userAccount: me,
          metadata: { origin: 'http://localhost:5173' },
        },
        options,
      ),
      scanTransactions({ txObjects: [tx], userAccount: me, metadata: { origin: BLOCKLISTED_ORIGIN } }, options),
    ])
    if (!sent.ok || !permit.ok || !blocked.ok) throw new Error('a scan failed')
    sendEthScan = {
      status: 'DONE',
      kind: 'transactions',
      response: sent.response,
      backend: { kind: 'local', host: '127.0.0.1:8545' },
    }
    permit2Scan = {
      status: 'DONE',
      kind: 'message',
      response: permit.response,
      backend: { kind: 'remote', host: '127.0.0.1:8080' },
    }
    blockScan = { status: 'DONE', kind: 'transactions', response: blocked.response }
  })
  afterAll(async () => {
    await browser?.close()
    await devnet?.stop()
  })

  const request = (id: string, scan: ScanState, origin = 'http://localhost:5173'): PendingRequest => ({
    id,
    origin,
    tabId: 1,
    frameId: 0,
    chainId: 31337,
    account: me.toLowerCase(),
    method: 'eth_sendTransaction',
    params: [tx],
    createdAt: Date.now(),
    scan,
  })

  const store = (items: Record<string, unknown>, area: 'session' | 'local' = 'session') =>
    control.evaluate(([values, where]) => chrome.storage[where].set(values), [items, area] as const)

  /**
   * Seeds a request as the worker would have stored it. The worker is woken first: a worker that starts after a
   * record was stored takes it for one a stopped worker left behind and scans it again (requests.recover).
   */
  async function open(pending: PendingRequest): Promise<Page> {
    await control.evaluate(() => chrome.runtime.sendMessage({ type: 'preflight/wake' }).catch(() => undefined))
    await store({ [`pending:${pending.id}`]: { ...pending, createdAt: Date.now() } })
    const page = await context.newPage()
    await page.setViewportSize({ width: 360, height: 640 })
    await page.goto(`${base}confirm.html?id=${pending.id}`)
    await page.waitForSelector('main[data-action]')
    return page
  }

  const drop = (...keys: string[]) => control.evaluate((names) => chrome.storage.session.remove(names), keys)
  const action = (page: Page) => page.locator('main').getAttribute('data-action')
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent)
  const fitsWidth = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
  const decisions = () => control.evaluate(() => (window as unknown as { seen: unknown[] }).seen)

  /** The window's User Timing marks by name (src/extension/ui/confirm/shownMarks.ts): start times, in order. */
  const marks = (page: Page) =>
    page.evaluate(
      (names) =>
        Object.fromEntries(
          names.map((name) => [name, performance.getEntriesByName(name, 'mark').map((entry) => entry.startTime)]),
        ),
      [REQUEST_SHOWN, RESULTS_SHOWN],
    )

  it('shows progress while PENDING, then the results as soon as the worker stores them', async () => {
    const pending = request('live', { status: 'PENDING' })
    const page = await open(pending)
    expect(await action(page)).toBe('PENDING')
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true)
    const whilePending = await marks(page)
    expect(whilePending['preflight:request-shown']).toHaveLength(1)
    expect(whilePending['preflight:results-shown']).toEqual([])
    await store({ 'pending:live': { ...pending, scan: sendEthScan } })
    await page.waitForSelector('main[data-action="NONE"]')
    const shown = await marks(page)
    expect(shown['preflight:request-shown']).toEqual(whilePending['preflight:request-shown'])
    expect(shown['preflight:results-shown']).toHaveLength(1)
    expect(shown['preflight:results-shown']?.[0]).toBeGreaterThan(shown['preflight:request-shown']?.[0] ?? Infinity)
    expect(await page.getByTestId('state-change').allTextContents()).toEqual([
      expect.stringContaining('−1 ETH'),
      expect.stringContaining('+1 ETH'),
    ])
    // The recipient's +1 ETH is folded under other accounts; only the user's own change shows at first.
    expect(await page.getByTestId('state-change').allInnerTexts()).toEqual([expect.stringContaining('−1 ETH'), ''])
    expect(await page.getByTestId('other-accounts').locator('summary').textContent()).toBe(
      'Changes to other accounts (1)',
    )
    expect(await page.getByText('No issues found').count()).toBe(1)
    expect(await page.getByTestId('scan-backend').textContent()).toBe(
      'this browser, simulating on the node at 127.0.0.1:8545',
    )
    // Continue arms, and takes the focus, after a moment without a press once the results show.
    await expect.poll(() => focused(page)).toBe('Continue')
    expect(await fitsWidth(page)).toBe(true)
    await page.close()
  })

  it('never says "No issues found" for a NONE answer that reports a problem, as a scan API may for a bad message', async () => {
    if (permit2Scan.status !== 'DONE' || permit2Scan.kind !== 'message') throw new Error('expected a message scan')
    const why = 'message.data.domain: empty: a domain must name at least the contract or chain the signature is for'
    const answer: ScanState = {
      ...permit2Scan,
      response: {
        ...permit2Scan.response,
        action: 'NONE',
        warnings: [],
        simulationResults: {
          ...permit2Scan.response.simulationResults,
          expectedStateChanges: [],
          error: { kind: 'INVALID_MESSAGE', humanReadableError: why },
        },
      },
    }
    const page = await open({ ...request('problem', answer), method: 'eth_signTypedData_v4' })
    expect(await action(page)).toBe('NONE')
    expect(await page.getByText('No issues found').count()).toBe(0)
    expect(await page.getByRole('alert').first().textContent()).toContain('Preflight could not check everything')
    expect(await page.getByText(why).count()).toBe(1)
    // Not "nothing found": Enter must not continue it.
    expect(await focused(page)).toBe('Reject')
    await page.close()
  })

  it('says a reverting transaction would fail, at 360 px without widening it, Reject focused', async () => {
    const { fixtures } = devnet
    const data = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
      functionName: 'transfer',
      args: [fixtures.accounts[3]?.address as Address, 10n ** 15n],
    })
    const failing = { from: me, to: fixtures.erc20.address, data }
    const outcome = await scanTransactions(
      { txObjects: [failing], userAccount: me, metadata: { origin: 'http://localhost:5173' } },
      { rpcUrl: fixtures.rpcUrl },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    const scan: ScanState = { status: 'DONE', kind: 'transactions', response: outcome.response }
    const page = await open({ ...request('reverts', scan), params: [failing] })
    expect(await action(page)).toBe('NONE')
    expect(await page.getByRole('alert').first().textContent()).toContain('This transaction would fail')
    // The engine's reason quotes the sender's full address: it wraps instead of widening the window.
    expect(await page.getByText(/The transaction would fail/).count()).toBe(1)
    expect(await fitsWidth(page)).toBe(true)
    expect(await focused(page)).toBe('Reject')
    expect(await page.getByText(/Nothing would change: the transaction fails/).count()).toBe(1)
    await page.close()
  })

  it('keeps to a 360 px popup at 200 % zoom (200 px of CSS), each amount on one line', async () => {
    if (sendEthScan.status !== 'DONE' || sendEthScan.kind !== 'transactions') throw new Error('expected a tx scan')
    // The same transfer, for an amount as long as a swap's: −2,961.474103 ETH.
    const scan = structuredClone(sendEthScan)
    for (const changes of Object.values(scan.response.simulationResults.aggregated.expectedStateChanges)) {
      for (const { rawInfo } of changes) {
        if (rawInfo.kind !== 'NATIVE_ASSET_TRANSFER') continue
        const sign = BigInt(rawInfo.data.amount.after) < BigInt(rawInfo.data.amount.before) ? -1n : 1n
        rawInfo.data.amount.after = String(BigInt(rawInfo.data.amount.before) + sign * 2_961_474_103_000_000_000_000n)
      }
    }
    const page = await open(request('zoomed', scan))
    await page.setViewportSize({ width: 200, height: 640 })
    expect(await action(page)).toBe('NONE')
    expect(await fitsWidth(page)).toBe(true)
    // The amount before the asset's symbol is laid out on one line: never "−2,961.47410" above "3 ETH".
    await page.getByTestId('other-accounts').locator('summary').click()
    const amountLines = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="state-change"] .change-text')].map((text) => {
        const range = document.createRange()
        range.selectNodeContents(text.firstChild ?? text)
        return [text.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size]
      }),
    )
    expect(amountLines).toEqual([
      ['−2,961.474103 ETH', 1],
      ['+2,961.474103 ETH', 1],
    ])
    await page.close()
  })

  it('lists warnings with their kind, focuses Reject for WARN, and sends the decision before closing', async () => {
    const page = await open(request('warn', permit2Scan))
    expect(await action(page)).toBe('WARN')
    expect(await page.locator('[data-warning-kind="PERMIT_UNLIMITED_ALLOWANCE"]').count()).toBe(1)
    // The severity is a word of its own for a screen reader, not run into the message ("WARNINGThis signature…").
    expect(await page.locator('[data-warning-kind="PERMIT_UNLIMITED_ALLOWANCE"]').textContent()).toMatch(/^WARNING \S/)
    expect(await page.getByTestId('scan-backend').textContent()).toBe('the scan API at 127.0.0.1:8080')
    expect(await focused(page)).toBe('Reject')
    expect(await fitsWidth(page)).toBe(true)
    const closed = page.waitForEvent('close')
    await clickDecision(page, 'Reject')
    await closed
    expect(await decisions()).toContainEqual({ type: 'preflight/decision', id: 'warn', decision: 'reject', seen: 0 })
  })

  it('says what a batch asks of the wallet beyond its calls, each term in words, at 360 px', async () => {
    const batch: PendingRequest = {
      ...request('batch-terms', sendEthScan),
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          from: me.toLowerCase(),
          chainId: '0x7a69',
          atomicRequired: false,
          calls: [{ ...tx }, { to: tx.to, value: '0x0', capabilities: { sessionKey: { id: '0x01' } } }],
          capabilities: { paymasterService: { url: 'https://paymaster.example/rpc/SECRET', optional: true } },
        },
      ],
    }
    const page = await open(batch)
    const terms = page.getByTestId('batch-terms')
    expect(await terms.locator('.term-name').allInnerTexts()).toEqual([
      'atomicRequired',
      'paymasterService',
      'sessionKey (call 2)',
    ])
    const paymaster = (await terms.locator('[data-term="paymasterService"]').textContent()) ?? ''
    expect(paymaster).toContain('A paymaster the site chose pays the gas (paymaster.example).')
    expect(paymaster).toContain('Optional: the wallet may go without it.')
    expect(paymaster).not.toContain('SECRET')
    expect(await terms.locator('.tag').allInnerTexts()).toEqual(['not simulated', 'not simulated', 'not simulated'])
    expect(await fitsWidth(page)).toBe(true)
    await page.close()
  })

  it('makes Continue deliberate on BLOCK: Reject has focus, Continue waits for "I understand the risk"', async () => {
    const page = await open(request('block', blockScan, BLOCKLISTED_ORIGIN))
    expect(await action(page)).toBe('BLOCK')
    expect(await page.locator('[data-warning-kind="TRUSTED_BLOCKLIST_DOMAIN"]').count()).toBe(1)
    expect(await focused(page)).toBe('Reject')
    const proceed = page.getByRole('button', { name: 'Continue' })
    expect(await proceed.isDisabled()).toBe(true)
    await page.getByRole('checkbox', { name: /I understand the risk/ }).check()
    const closed = page.waitForEvent('close')
    await clickDecision(page, 'Continue')
    await closed
    expect(await decisions()).toContainEqual({ type: 'preflight/decision', id: 'block', decision: 'continue', seen: 0 })
  })

  it('says why a scan failed, focuses Reject, and Escape rejects', async () => {
    const failed: ScanState = {
      status: 'ERROR',
      error: { kind: 'RPC_ERROR', reason: 'UNREACHABLE', message: 'connection refused' },
    }
    const page = await open(request('error', failed))
    expect(await action(page)).toBe('ERROR')
    expect(await page.getByText('Why: connection refused').count()).toBe(1)
    // What it asks, in words rather than the raw request's hex wei.
    expect(await page.getByTestId('asked-calls').textContent()).toMatch(/Sends\s*1 ETH/)
    expect(await page.getByTestId('asked-calls').textContent()).toContain(getAddress(tx.to))
    expect(await focused(page)).toBe('Reject')
    await expect.poll(() => page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true)
    const closed = page.waitForEvent('close')
    // The window closes itself while the key press is still being reported.
    await page.keyboard.press('Escape').catch((error) => {
      if (!page.isClosed()) throw error
    })
    await closed
    expect(await decisions()).toContainEqual({ type: 'preflight/decision', id: 'error', decision: 'reject', seen: 0 })
  })

  it('asks for the acknowledgement on a failed scan when the settings say so', async () => {
    await store({ settings: { ...nodeSettings, onScanFailure: 'ask-default-reject' } }, 'local')
    const failed: ScanState = { status: 'ERROR', error: { kind: 'TIMEOUT', message: 'no answer in 10 s' } }
    const page = await open(request('error-strict', failed))
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true)
    expect(await page.getByRole('checkbox', { name: /I understand the risk/ }).count()).toBe(1)
    await store({ settings: nodeSettings }, 'local')
    await page.close()
  })

  it('says when typed data is for another chain than the wallet is on, and where it was checked', async () => {
    const message = { ...request('elsewhere', permit2Scan), method: 'eth_signTypedData_v4' as const }
    const checkedThere = await open({ ...message, chainId: 1, otherChain: { domain: 1, wallet: 31337 } })
    expect(await checkedThere.getByTestId('other-chain').textContent()).toBe(
      'This signature is for Ethereum (1), while the wallet is on Local devnet (31337): it can be used on Ethereum (1) ' +
        'whatever the wallet shows.',
    )
    await checkedThere.close()
    // No node for the domain's chain: checked on the wallet's, and the window says what that leaves unknown.
    const checkedHere = await open({ ...message, id: 'fallback', otherChain: { domain: 1337, wallet: 31337 } })
    expect(await checkedHere.getByTestId('other-chain').textContent()).toContain(
      'Preflight has no node or scan API for it, so it checked this one on Local devnet (31337): what it does on chain ' +
        '1337 is not known.',
    )
    expect(await fitsWidth(checkedHere)).toBe(true)
    await checkedHere.close()
    const sameChain = await open({ ...message, id: 'same' })
    await sameChain.waitForSelector('main[data-action="WARN"]')
    expect(await sameChain.getByTestId('other-chain').count()).toBe(0)
    await sameChain.close()
  })

  it('sets out a Safe message: the Safe, the hash it would sign, and the hashes to compare', async () => {
    const { fixtures } = devnet
    const hash = keccak256(toHex('the message a dapp asked the Safe to sign'))
    const scanned = await scanMessage(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: safeMessageTypedData(fixtures.chainId, fixtures.safe.address, hash) },
        userAccount: me,
        metadata: { origin: 'https://app.safe.global' },
      },
      { rpcUrl: fixtures.rpcUrl },
    )
    if (!scanned.ok) throw new Error(scanned.error.message)
    const page = await open({
      ...request('safe-message', { status: 'DONE', kind: 'message', response: scanned.response }),
      method: 'eth_signTypedData_v4',
    })
    expect(await action(page)).toBe('WARN')
    const panel = page.getByTestId('safe-message')
    expect(await page.getByTestId('safe-message-signs').textContent()).toBe(hash)
    const text = (await panel.textContent()) ?? ''
    expect(text).toContain('2 of 3 owners')
    const context = scanned.response.simulationResults.safeMessage
    expect(await panel.locator('.hash-row .label span').allTextContents()).toEqual([
      'SafeMessage hash',
      'Domain hash',
      'Message hash',
    ])
    expect(await panel.locator('.hash-row .hash').allTextContents()).toEqual([
      context?.safeMessageHash,
      context?.domainHash,
      context?.messageHash,
    ])
    expect(await page.locator('[data-warning-kind="MULTISIG_BLIND_SIGNATURE"]').textContent()).toContain(
      `whatever message has the hash ${hash}`,
    )
    expect(await panel.textContent()).toContain('v1.4.1')
    // Not "no asset changes", which would read as harmless.
    expect(await page.getByRole('region', { name: 'What changes' }).textContent()).toContain(
      'Signing moves no assets by itself. What the Safe signs can',
    )
    expect(await fitsWidth(page)).toBe(true)
    await page.close()
    // A Safe whose VERSION() could not be read says so, rather than "vunknown".
    const response = scanned.response
    const results = response.simulationResults
    if (!context) throw new Error('the scan did not read a Safe message')
    const unread = await open({
      ...request('safe-message-unread', {
        status: 'DONE',
        kind: 'message',
        response: { ...response, simulationResults: { ...results, safeMessage: { ...context, version: 'unknown' } } },
      }),
      method: 'eth_signTypedData_v4',
    })
    expect(await unread.getByTestId('safe-message').textContent()).toContain('version not readable')
    await unread.close()
  })

  it('a Safe proposal that pre-signs a CoW order: the warning with the order’s ID, and no "no asset changes"', async () => {
    const { fixtures } = devnet
    const uid = concat([
      keccak256(toHex('an order kept off chain')),
      fixtures.safe.address,
      toHex(1_900_000_000, { size: 4 }),
    ])
    const data = encodeFunctionData({
      abi: parseAbi(['function setPreSignature(bytes orderUid, bool signed)']),
      functionName: 'setPreSignature',
      args: [uid, true],
    })
    const proposal = plainSafeTx(COW_SETTLEMENT_ADDRESS, 0n, 0n, data)
    const scanned = await scanMessage(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fixtures.chainId, fixtures.safe.address, proposal) },
        userAccount: me,
        metadata: { origin: 'https://app.safe.global' },
      },
      { rpcUrl: fixtures.rpcUrl },
    )
    if (!scanned.ok) throw new Error(scanned.error.message)
    const page = await open({
      ...request('safe-presign', { status: 'DONE', kind: 'message', response: scanned.response }),
      method: 'eth_signTypedData_v4',
    })
    expect(await action(page)).toBe('WARN')
    expect(await page.locator('[data-warning-kind="MULTISIG_BLIND_SIGNATURE"]').textContent()).toContain(
      uid.toLowerCase(),
    )
    expect(await page.getByRole('region', { name: 'What changes' }).textContent()).toContain(
      'Nothing moves in this transaction itself. What it signs can, later',
    )
    expect(await fitsWidth(page)).toBe(true)
    await page.close()
  })

  it('says so when the request is no longer pending', async () => {
    const page = await context.newPage()
    await page.goto(`${base}confirm.html?id=unknown`)
    await page.waitForSelector('main[data-state="settled"]')
    expect(await page.getByText('no longer waiting for a decision').count()).toBe(1)
    await page.close()
  })

  describe('opened for an announced request (the worker opened it before the request was stored)', () => {
    it('waits for its request instead of saying it is gone, and shows it, ready to decide, once stored', async () => {
      const page = await context.newPage()
      await page.goto(`${base}confirm.html?id=announced-a&announced=1`)
      await page.getByText('Loading…').waitFor()
      await page.waitForTimeout(500)
      expect(await page.locator('main[data-state="settled"]').count()).toBe(0)
      await store({ 'pending:announced-a': { ...request('announced-a', sendEthScan), createdAt: Date.now() } })
      await page.waitForSelector('main[data-action="NONE"]')
      await expect.poll(() => page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(false)
      expect(await marks(page)).toMatchObject({ [REQUEST_SHOWN]: [expect.any(Number)] })
      await drop('pending:announced-a')
      await page.close()
    })

    it('shows a request of another page that joined the window first, and the announced one after it', async () => {
      const page = await context.newPage()
      await page.goto(`${base}confirm.html?id=announced-b&announced=1`)
      await page.getByText('Loading…').waitFor()
      const windowId = await page.evaluate(async () => (await chrome.windows.getCurrent()).id)
      await store({ 'pending:other': { ...request('other', sendEthScan, 'https://other.example'), windowId } })
      await page.waitForURL((url) => url.searchParams.get('id') === 'other')
      await page.waitForSelector('main[data-action="NONE"]')
      expect(await page.locator('.origin').first().textContent()).toBe('https://other.example')
      await store({ 'pending:announced-b': { ...request('announced-b', sendEthScan), windowId } })
      await page.getByTestId('queue-position').filter({ hasText: '1 of 2' }).waitFor()
      await drop('pending:other', 'pending:announced-b')
      await page.close()
    })
  })
})
