/**
 * The confirmation flow end to end: a dapp page with the dev wallet, the built extension in Chromium, the devnet.
 * Continue sends the original request to the wallet; Reject or closing the window gives the dapp 4001; a pending
 * request survives the service worker being stopped.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { HistoryEntry } from '../../src/extension/shared/pending.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { type Dapp, startDapp, walletPage } from './support/dapp.ts'
import {
  type Extension,
  launchExtension,
  nextConfirmWindow,
  pendingOf,
  serviceWorker,
  shownAction,
  startCall,
  stopServiceWorkers,
  writeSettings,
} from './support/extension.ts'

const MAX_UINT160 = ((1n << 160n) - 1n).toString()
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

describe('confirming requests in the extension window', () => {
  let devnet: Devnet
  let dapp: Dapp
  let extension: Extension
  let context: BrowserContext
  let page: Page
  let account: Hex
  let recipient: Hex

  beforeAll(async () => {
    ;[devnet, dapp, extension] = await Promise.all([startTestDevnet(), startDapp(), launchExtension()])
    context = extension.context
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    recipient = fixtures.accounts[5]?.address as Hex
    await writeSettings(context, { rpcUrls: { '31337': fixtures.rpcUrl } })
    dapp.page(
      '/',
      walletPage(
        `DevWallet.announceDevWallet(DevWallet.createDevWallet(${JSON.stringify({ rpcUrl: fixtures.rpcUrl, account })}))`,
      ),
    )
    page = await context.newPage()
    await page.goto(`${dapp.url}/`)
  })
  afterAll(async () => {
    await extension?.close()
    await Promise.all([dapp?.close(), devnet?.stop()])
  })

  it('shows −1 ETH for a transfer, and Continue sends it to the wallet, which mines it', async () => {
    const chain = createPublicClient({ transport: http(devnet.fixtures.rpcUrl) })
    const before = await chain.getBalance({ address: recipient })
    const opened = nextConfirmWindow(context)
    const result = await startCall(
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0xde0b6b3a7640000' }] })`,
    )
    const confirm = await opened

    expect(await shownAction(confirm)).toBe('NONE')
    const pending = await pendingOf(confirm)
    expect(pending).toMatchObject({ origin: dapp.url, chainId: 31337, method: 'eth_sendTransaction' })
    expect(pending.account).toBe(account.toLowerCase())
    await expect
      .poll(() => confirm.getByTestId('state-change').allInnerTexts())
      .toContainEqual(expect.stringContaining('−1 ETH'))
    await confirm.getByRole('button', { name: 'Continue' }).click()

    const settled = await result()
    expect(settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await chain.getTransactionReceipt({ hash: settled.ok as Hex })
    expect(receipt.status).toBe('success')
    expect(await chain.getBalance({ address: recipient })).toBe(before + parseEther('1'))
    const history = (await (
      await serviceWorker(context)
    ).evaluate(async () => (await chrome.storage.local.get('history')).history)) as HistoryEntry[]
    expect(history[0]).toMatchObject({ id: pending.id, origin: dapp.url, action: 'NONE', decision: 'continue' })
  })

  it('warns about an unlimited Permit2 permit, and Reject gives the dapp 4001', async () => {
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
        PermitDetails: [
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint160' },
          { name: 'expiration', type: 'uint48' },
          { name: 'nonce', type: 'uint48' },
        ],
      },
      domain: { name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2 },
      primaryType: 'PermitSingle',
      message: {
        details: {
          token: devnet.fixtures.erc20.address,
          amount: MAX_UINT160,
          expiration: '281474976710655',
          nonce: '0',
        },
        spender: devnet.fixtures.drainer.address,
        sigDeadline: '281474976710655',
      },
    }
    const opened = nextConfirmWindow(context)
    // Typed data as a JSON string, as most dapps send it.
    const result = await startCall(
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(JSON.stringify(typedData))}] })`,
    )
    const confirm = await opened

    expect(await shownAction(confirm)).toBe('WARN')
    await expect.poll(() => confirm.locator('[data-warning-kind="PERMIT_UNLIMITED_ALLOWANCE"]').count()).toBe(1)
    await confirm.getByRole('button', { name: 'Reject' }).click()

    expect(await result()).toEqual({ code: 4001, message: 'User rejected the request.' })
  })

  it("shows a Safe transaction message as the Safe's −1 ETH", async () => {
    const { safe } = devnet.fixtures
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        SafeTx: [
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
          { name: 'operation', type: 'uint8' },
          { name: 'safeTxGas', type: 'uint256' },
          { name: 'baseGas', type: 'uint256' },
          { name: 'gasPrice', type: 'uint256' },
          { name: 'gasToken', type: 'address' },
          { name: 'refundReceiver', type: 'address' },
          { name: 'nonce', type: 'uint256' },
        ],
      },
      domain: { chainId: 31337, verifyingContract: safe.address },
      primaryType: 'SafeTx',
      message: {
        to: recipient,
        value: parseEther('1').toString(),
        data: '0x',
        operation: 0,
        safeTxGas: 0,
        baseGas: 0,
        gasPrice: 0,
        gasToken: '0x0000000000000000000000000000000000000000',
        refundReceiver: '0x0000000000000000000000000000000000000000',
        nonce: 0,
      },
    }
    const opened = nextConfirmWindow(context)
    const result = await startCall(
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(typedData)}] })`,
    )
    const confirm = await opened

    expect(await shownAction(confirm)).toBe('NONE')
    const rows = confirm.getByTestId('state-change')
    await expect.poll(() => rows.allInnerTexts()).toContainEqual(expect.stringContaining('−1 ETH'))
    const pending = await pendingOf(confirm)
    expect(pending.scan.status === 'DONE' && pending.scan.kind === 'message').toBe(true)
    if (pending.scan.status === 'DONE' && pending.scan.kind === 'message') {
      expect(pending.scan.response.simulationResults.multisig?.wallet).toBe(safe.address.toLowerCase())
    }
    await confirm.getByRole('button', { name: 'Continue' }).click()
    // anvil signs for its unlocked dev account: a 65-byte signature.
    expect((await result()).ok).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('still delivers Continue after the service worker was stopped while the window was open', async () => {
    const opened = nextConfirmWindow(context)
    const result = await startCall(
      page,
      `ethereum.request({ method: 'personal_sign', params: ['0x68656c6c6f', '${account}'] })`,
    )
    const confirm = await opened
    await shownAction(confirm)

    const worker = await serviceWorker(context)
    await worker.evaluate(() => {
      ;(globalThis as { beforeStop?: boolean }).beforeStop = true
    })
    await stopServiceWorkers(confirm)
    await confirm.getByRole('button', { name: 'Continue' }).click()

    expect((await result()).ok).toMatch(/^0x[0-9a-f]{130}$/)
    // The decision was handled by a new worker: the stopped one's globals are gone.
    const restarted = await serviceWorker(context)
    expect(await restarted.evaluate(() => (globalThis as { beforeStop?: boolean }).beforeStop)).toBeUndefined()
  })

  it('gives the dapp 4001 when the window is closed', async () => {
    const opened = nextConfirmWindow(context)
    const result = await startCall(
      page,
      `ethereum.request({ method: 'personal_sign', params: ['0x6279', '${account}'] })`,
    )
    const confirm = await opened
    await shownAction(confirm)
    await confirm.close()

    expect(await result()).toEqual({ code: 4001, message: 'User rejected the request.' })
  })
})
