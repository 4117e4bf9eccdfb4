/**
 * The confirmation flow end to end: a dapp page with the dev wallet, the built extension in Chromium, the devnet.
 * Continue sends the original request to the wallet; Reject or closing the window gives the dapp 4001; a pending
 * request survives the service worker being stopped.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, maxUint48, maxUint160, parseAbi, parseEther, verifyMessage } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { permit2PermitSingle, plainSafeTx, safeTxTypedData } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { HistoryEntry } from '../../src/extension/shared/pending.ts'
import { DEFAULT_SETTINGS } from '../../src/extension/shared/settings.ts'
import { startScanServer } from '../../src/server/server.ts'
import { startLatencyProxy } from '../bench/proxy.ts'
import { startUnreachableEndpoint } from '../support/net.ts'
import { type Dapp, devWalletPage } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  evaluateInContentScript,
  pendingOf,
  REJECTED,
  serviceWorker,
  shownAction,
  stopServiceWorkers,
  writeSettings,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

/** The Safe's own hash of a transaction: what the window's safeTxHash must equal. */
const safeAbi = parseAbi([
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)',
])

describe('confirming requests in the extension window', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let page: Page
  let account: Hex
  let recipient: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    recipient = fixtures.accounts[5]?.address as Hex
    page = await session.open('/', devWalletPage(fixtures.rpcUrl, account))
  })
  afterAll(() => session?.close())

  it('shows −1 ETH for a transfer, and Continue sends it to the wallet, which mines it', async () => {
    const chain = createPublicClient({ transport: http(devnet.fixtures.rpcUrl), pollingInterval: 50 })
    const before = await chain.getBalance({ address: recipient })
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0xde0b6b3a7640000' }] })`,
    )

    expect(await shownAction(confirm)).toBe('NONE')
    const pending = await pendingOf(confirm)
    expect(pending).toMatchObject({ origin: dapp.url, chainId: 31337, method: 'eth_sendTransaction' })
    expect(pending.account).toBe(account.toLowerCase())
    await expect
      .poll(() => confirm.getByTestId('state-change').allInnerTexts())
      .toContainEqual(expect.stringContaining('−1 ETH'))
    await clickDecision(confirm, 'Continue')

    const settled = await result()
    expect(settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    // anvil may answer with the hash before the block is mined.
    const receipt = await waitForReceipt(chain, settled.ok as Hex)
    expect(receipt.status).toBe('success')
    expect(await chain.getBalance({ address: recipient })).toBe(before + parseEther('1'))
    const history = (await (
      await serviceWorker(context)
    ).evaluate(async () => (await chrome.storage.local.get('history')).history)) as HistoryEntry[]
    expect(history[0]).toMatchObject({ id: pending.id, origin: dapp.url, action: 'NONE', decision: 'continue' })
  })

  it('flags a recipient that starts and ends like one the user sent to before (address poisoning), and not that one', async () => {
    const payee = devnet.fixtures.accounts[6]?.address.toLowerCase() as Hex
    // The payee's first and last four hex digits around other ones: what a poisoner generates and plants.
    const lookalike = `${payee.slice(0, 6)}${'f'.repeat(32)}${payee.slice(-4)}` as Hex
    const send = (to: Hex) =>
      callThroughConfirmWindow(
        context,
        page,
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${to}', value: '0x1' }] })`,
      )
    const first = await send(payee)
    expect(await shownAction(first.confirm)).toBe('NONE')
    await clickDecision(first.confirm, 'Continue')
    expect((await first.result()).ok).toMatch(/^0x[0-9a-f]{64}$/)

    const poisoned = await send(lookalike)
    expect(await shownAction(poisoned.confirm)).toBe('BLOCK')
    const warning = poisoned.confirm.locator('[data-warning-kind="POISONED_ADDRESS"]')
    await expect.poll(() => warning.count()).toBe(1)
    // Both in full, one above the other, the differing characters marked: the short forms are the same.
    const pair = poisoned.confirm.getByTestId('lookalike-addresses')
    expect((await pair.locator('dd').allInnerTexts()).map((text) => text.toLowerCase())).toEqual([lookalike, payee])
    const differing = [...payee].filter((char, index) => char !== lookalike[index]).length
    const marked = (await pair.locator('dd').first().locator('mark').allInnerTexts()).join('')
    expect(marked).toHaveLength(differing)
    await clickDecision(poisoned.confirm, 'Reject')
    expect(await poisoned.result()).toEqual(REJECTED)

    const again = await send(payee)
    expect(await shownAction(again.confirm)).toBe('NONE')
    expect(await again.confirm.locator('[data-warning-kind]').count()).toBe(0)
    await clickDecision(again.confirm, 'Reject')
    expect(await again.result()).toEqual(REJECTED)
  })

  it('warns about an unlimited Permit2 permit, and Reject gives the dapp 4001', async () => {
    const { fixtures } = devnet
    const typedData = permit2PermitSingle({
      chainId: fixtures.chainId,
      token: fixtures.erc20.address,
      amount: maxUint160,
      expiration: maxUint48,
      spender: fixtures.drainer.address,
      sigDeadline: maxUint48,
    })
    // Typed data as a JSON string, as most dapps send it.
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(JSON.stringify(typedData))}] })`,
    )

    expect(await shownAction(confirm)).toBe('WARN')
    await expect.poll(() => confirm.locator('[data-warning-kind="PERMIT_UNLIMITED_ALLOWANCE"]').count()).toBe(1)
    await clickDecision(confirm, 'Reject')

    expect(await result()).toEqual(REJECTED)
  })

  it("shows a Safe transaction message as the Safe's −1 ETH, with the safeTxHash the Safe itself computes", async () => {
    const { safe } = devnet.fixtures
    const safeTx = plainSafeTx(recipient, parseEther('1'), 0n)
    const typedData = safeTxTypedData(devnet.fixtures.chainId, safe.address, safeTx)
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(typedData)}] })`,
    )

    expect(await shownAction(confirm)).toBe('NONE')
    const safeGroup = confirm.locator(`[data-account="${safe.address.toLowerCase()}"]`)
    await expect
      .poll(() => safeGroup.getByTestId('state-change').allInnerTexts())
      .toEqual([expect.stringContaining('−1 ETH')])
    expect(await safeGroup.locator('.tag').textContent()).toBe('Safe')
    expect(await confirm.locator(`[data-account="${account.toLowerCase()}"]`).count()).toBe(0)
    // Its domain names the chain the wallet is on: nothing to say about chains.
    expect(await confirm.getByTestId('other-chain').count()).toBe(0)

    const chain = createPublicClient({ transport: http(devnet.fixtures.rpcUrl), pollingInterval: 50 })
    const onChain = await chain.readContract({
      address: safe.address,
      abi: safeAbi,
      functionName: 'getTransactionHash',
      args: [
        safeTx.to,
        safeTx.value,
        safeTx.data,
        safeTx.operation,
        safeTx.safeTxGas,
        safeTx.baseGas,
        safeTx.gasPrice,
        safeTx.gasToken,
        safeTx.refundReceiver,
        safeTx.nonce,
      ],
    })
    const panel = confirm.getByRole('region', { name: 'Safe transaction' })
    expect(await panel.locator('.hash-row', { hasText: 'safeTxHash' }).locator('.hash').textContent()).toBe(onChain)
    const pending = await pendingOf(confirm)
    expect(pending.scan.status === 'DONE' && pending.scan.kind === 'message').toBe(true)
    if (pending.scan.status === 'DONE' && pending.scan.kind === 'message') {
      expect(pending.scan.response.simulationResults.multisig).toMatchObject({
        wallet: safe.address.toLowerCase(),
        safeTxHash: onChain,
      })
    }
    await clickDecision(confirm, 'Continue')
    // anvil signs for its unlocked dev account: a 65-byte signature.
    expect((await result()).ok).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('scans through the real scan API server, and shows a refused API key as an ERROR the user decides on', async () => {
    const { fixtures } = devnet
    const server = await startScanServer({
      port: 0,
      networks: new Map([['ethereum/devnet', fixtures.rpcUrl]]),
      apiKeys: ['e2e-key'],
    })
    // A local scan would fail here: what the window shows can only have come from the server.
    const down = await startUnreachableEndpoint()
    const unreachableRpc = { '31337': down.url }
    const sendEth = `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0xde0b6b3a7640000' }] })`
    try {
      await writeSettings(context, {
        rpcUrls: unreachableRpc,
        backend: { kind: 'remote', apiUrl: server.url, apiKey: 'e2e-key' },
      })
      const accepted = await callThroughConfirmWindow(context, page, sendEth)
      expect(await shownAction(accepted.confirm)).toBe('NONE')
      await expect
        .poll(() => accepted.confirm.getByTestId('state-change').allInnerTexts())
        .toContainEqual(expect.stringContaining('−1 ETH'))
      await clickDecision(accepted.confirm, 'Continue')
      expect((await accepted.result()).ok).toMatch(/^0x[0-9a-f]{64}$/)

      await writeSettings(context, {
        rpcUrls: unreachableRpc,
        backend: { kind: 'remote', apiUrl: server.url, apiKey: 'not-the-key' },
      })
      const refused = await callThroughConfirmWindow(context, page, sendEth)
      expect(await shownAction(refused.confirm)).toBe('ERROR')
      expect(await refused.confirm.getByRole('alert').textContent()).toContain('refused the API key (401')
      await clickDecision(refused.confirm, 'Reject')
      expect(await refused.result()).toEqual(REJECTED)
    } finally {
      await writeSettings(context, { rpcUrls: { '31337': fixtures.rpcUrl } })
      await server.close()
      await down.close()
    }
  })

  it("blocks a sign-in to another site, judged by the origin the browser gives; signs one for the page's own", async () => {
    const signIn = (domain: string) =>
      createSiweMessage({
        address: account,
        chainId: 31337,
        domain,
        nonce: 'e2enonce1',
        uri: `${dapp.url}/login`,
        version: '1',
        issuedAt: new Date(),
      })
    const ask = (message: string) =>
      callThroughConfirmWindow(
        context,
        page,
        `ethereum.request({ method: 'personal_sign', params: ['0x${Buffer.from(message).toString('hex')}', '${account}'] })`,
      )

    const phished = await ask(signIn('opensea.io'))
    expect(await shownAction(phished.confirm)).toBe('BLOCK')
    expect(await phished.confirm.locator('body').textContent()).toContain(
      `This signs you in to opensea.io, but ${dapp.url} is asking for it`,
    )
    await clickDecision(phished.confirm, 'Reject')
    expect(await phished.result()).toEqual(REJECTED)

    const own = signIn(new URL(dapp.url).host)
    const honest = await ask(own)
    expect(await shownAction(honest.confirm)).toBe('NONE')
    await clickDecision(honest.confirm, 'Continue')
    const signature = (await honest.result()).ok as Hex
    expect(await verifyMessage({ address: account, message: own, signature })).toBe(true)
  })

  it('still delivers Continue after the service worker was stopped while the window was open', async () => {
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'personal_sign', params: ['0x68656c6c6f', '${account}'] })`,
    )
    await shownAction(confirm)

    const worker = await serviceWorker(context)
    await worker.evaluate(() => {
      ;(globalThis as { beforeStop?: boolean }).beforeStop = true
    })
    await stopServiceWorkers(confirm)
    await clickDecision(confirm, 'Continue')

    expect((await result()).ok).toMatch(/^0x[0-9a-f]{130}$/)
    // The decision was handled by a new worker: the stopped one's globals are gone.
    const restarted = await serviceWorker(context)
    expect(await restarted.evaluate(() => (globalThis as { beforeStop?: boolean }).beforeStop)).toBeUndefined()
  })

  it('scans in the scanner page, which a stopped worker leaves loaded and which opens again once closed', async () => {
    const scannerPages = async () =>
      (await serviceWorker(context)).evaluate(async () =>
        (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] })).map(
          (page) => page.documentId,
        ),
      )
    const signed = async (text: string) => {
      const { confirm, result } = await callThroughConfirmWindow(
        context,
        page,
        `ethereum.request({ method: 'personal_sign', params: ['0x${Buffer.from(text).toString('hex')}', '${account}'] })`,
      )
      await expect.poll(async () => (await pendingOf(confirm)).scan.status).toBe('DONE')
      await clickDecision(confirm, 'Reject')
      expect(await result()).toEqual(REJECTED)
    }

    await signed('first')
    const [first] = await scannerPages()
    expect(first).toEqual(expect.any(String))
    await stopServiceWorkers(page)
    await signed('after a stop')
    expect(await scannerPages()).toEqual([first])

    await (await serviceWorker(context)).evaluate(() => chrome.offscreen.closeDocument())
    expect(await scannerPages()).toEqual([])
    await signed('after the page was closed')
    const [reopened] = await scannerPages()
    expect(reopened).toEqual(expect.any(String))
    expect(reopened).not.toBe(first)

    // The page takes orders from the worker only. A content script (in a page the attacker runs) that orders a scan
    // through a "scan API" of its choosing, which would be fetched with the extension's access, gets no answer, and
    // nothing is fetched.
    const node = await startLatencyProxy(devnet.fixtures.rpcUrl, 0)
    try {
      const warm = { type: 'preflight/warm', local: false }
      const worker = await serviceWorker(context)
      expect(await worker.evaluate((message) => chrome.runtime.sendMessage(message), warm)).toBe(true)
      const settings = { ...DEFAULT_SETTINGS, backend: { kind: 'remote', apiUrl: node.url, apiKey: 'k' } }
      const call = { method: 'personal_sign', params: ['0x68', account], account, origin: dapp.url, chainId: 31337 }
      const scan = JSON.stringify({ type: 'preflight/scan', call, settings })
      const asked = (message: string) =>
        `chrome.runtime.sendMessage(${message}).then((answer) => answer ?? 'no answer', (error) => error.message)`
      expect(await evaluateInContentScript(page, asked(JSON.stringify(warm)))).not.toBe(true)
      expect(await evaluateInContentScript(page, asked(scan))).not.toEqual(expect.objectContaining({ status: 'DONE' }))
      // The same order from the worker is scanned there: the API is asked.
      expect(await worker.evaluate((message) => chrome.runtime.sendMessage(JSON.parse(message)), scan)).toMatchObject({
        status: 'ERROR',
      })
      const asks = node.take()
      expect(asks).toHaveLength(1)
    } finally {
      await node.close()
    }
  })

  it("simulates on a node that sends no CORS headers, as a self-hosted node does: the scanner has the extension's access", async () => {
    const node = await startLatencyProxy(devnet.fixtures.rpcUrl, 0)
    try {
      // A web page cannot read it: the node does not say it may.
      const fromPage = await page.evaluate(
        (url) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
            () => 'read',
            () => 'refused',
          ),
        node.url,
      )
      expect(fromPage).toBe('refused')
      await writeSettings(context, { rpcUrls: { '31337': node.url } })
      const { confirm, result } = await callThroughConfirmWindow(
        context,
        page,
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1' }] })`,
      )
      await expect
        .poll(async () => (await pendingOf(confirm)).scan)
        .toMatchObject({
          status: 'DONE',
          backend: { kind: 'local', host: new URL(node.url).host },
        })
      await clickDecision(confirm, 'Reject')
      expect(await result()).toEqual(REJECTED)
      expect(node.take().length).toBeGreaterThan(0)
    } finally {
      await writeSettings(context, { rpcUrls: { '31337': devnet.fixtures.rpcUrl } })
      await node.close()
    }
  })

  it('gives the dapp 4001 when the window is closed', async () => {
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'personal_sign', params: ['0x6279', '${account}'] })`,
    )
    await shownAction(confirm)
    await confirm.close()

    expect(await result()).toEqual(REJECTED)
  })
})
