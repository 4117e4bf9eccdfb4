/**
 * Safe takeovers and Safe messages in the real window: the built extension in Chromium, a dapp page with the dev
 * wallet, the devnet. Each malicious proposal ends at BLOCK with the change in control leading the Safe panel, and
 * Continue takes a deliberate second step; the honest batch shows NONE with its transfers and goes through; a Safe
 * message of a bare hash is WARN, and what is signed is what the window showed; a proxy upgrade is WARN, and once
 * executed the proxy runs the code the window named.
 */
import type { BrowserContext, Page } from 'playwright-core'
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  parseAbi,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execTransactionData, safePermitHash } from '../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { SAFE_MESSAGE_TYPES, SAFE_TX_TYPES, safeMessageTypedData, safeTxTypedData } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { SAFE_SCENARIOS, type SafeScenario } from '../../src/devnet/safeProposals.ts'
import type { SafeTx } from '../../src/engine/index.ts'
import { devWalletPage } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision, REJECTED, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const execAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
])
const eip1271Abi = parseAbi(['function isValidSignature(bytes32 dataHash, bytes signature) view returns (bytes4)'])

describe('Safe proposals in the confirmation window', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let page: Page
  let owner: Address

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    owner = devnet.fixtures.accounts[0]?.address as Address
    page = await session.open('/', devWalletPage(devnet.fixtures.rpcUrl, owner))
  })
  afterAll(() => session?.close())

  const proposal = (scenario: SafeScenario) => SAFE_SCENARIOS[scenario].build(devnet.fixtures, 0n)

  /** Owner 0 is asked to sign the proposal, as Safe{Wallet} asks (eth_signTypedData_v4, a JSON string). */
  const sign = (tx: SafeTx) => {
    const typedData = safeTxTypedData(devnet.fixtures.chainId, devnet.fixtures.safe.address, tx)
    return callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${owner}', ${JSON.stringify(JSON.stringify(typedData))}] })`,
    )
  }

  /** Owner 0's signature, from the window, with owner 1's beside it, sorted by owner as the Safe requires. */
  const withSecondOwner = async (signed: Hex, typedData: { types: object; primaryType: string; message: object }) => {
    const { fixtures } = devnet
    const second = fixtures.accounts[1] as { address: Address; privateKey: Hex }
    const cosigned = await privateKeyToAccount(second.privateKey).signTypedData({
      domain: { chainId: fixtures.chainId, verifyingContract: fixtures.safe.address },
      ...typedData,
    } as never)
    const bySigner = [
      { signer: owner, signature: signed },
      { signer: second.address, signature: cosigned },
    ].sort((a, b) => (BigInt(a.signer) < BigInt(b.signer) ? -1 : 1))
    return concat(bySigner.map((entry) => entry.signature))
  }

  /** The panel's rows for what changes in control: [field, severity]. */
  const controlRows = (confirm: Page) =>
    confirm
      .getByRole('region', { name: 'Safe transaction' })
      .locator('[data-kind="SAFE_CONFIGURATION_CHANGE"]')
      .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-field'), row.getAttribute('data-severity')]))

  /** BLOCK: the banner says the Safe changes hands, Continue waits for the acknowledgement, Reject gives 4001. */
  async function expectBlocked(confirm: Page, result: () => Promise<unknown>) {
    expect(await shownAction(confirm)).toBe('BLOCK')
    await expect.poll(() => confirm.getByRole('alert').first().textContent()).toContain('who controls the Safe')
    const proceed = confirm.getByRole('button', { name: 'Continue' })
    expect(await proceed.isDisabled()).toBe(true)
    await confirm.getByRole('checkbox', { name: /I understand the risk/ }).check()
    // Continue arms after a moment without a press in the window (the tick was one).
    await expect.poll(() => proceed.isEnabled()).toBe(true)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  }

  for (const [scenario, field] of [
    ['safe-takeover', 'singleton'],
    ['safe-hidden-delegatecall', 'singleton'],
    ['safe-enable-module', 'modules'],
    ['safe-set-guard', 'guard'],
  ] as const) {
    it(`${scenario}: BLOCK, led by the ${field} change judged CRITICAL`, async () => {
      const { confirm, result } = await sign(proposal(scenario))
      await expect.poll(() => controlRows(confirm)).toEqual([[field, 'CRITICAL']])
      // What changes in control comes before the asset changes.
      const order = await confirm.locator('section.card h2').allTextContents()
      expect(order.indexOf('Safe transaction')).toBeLessThan(order.indexOf('What changes'))
      await expectBlocked(confirm, result)
    })
  }

  it('adding an owner with threshold 1: BLOCK (the newcomer alone controls the Safe), both changes spelled out', async () => {
    const { confirm, result } = await sign(proposal('safe-add-owner'))
    await expect
      .poll(() => controlRows(confirm))
      .toEqual([
        ['owners', 'CRITICAL'],
        ['threshold', 'CRITICAL'],
      ])
    const text = await confirm.getByRole('region', { name: 'Safe transaction' }).textContent()
    expect(text).toContain('2 → 1 (any single owner then controls the Safe)')
    // A 360 px popup at 200 % zoom (200 CSS px): the control rows wrap instead of widening the window.
    await confirm.setViewportSize({ width: 200, height: 640 })
    const fits = () =>
      confirm.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
    await expect.poll(fits).toBe(true)
    await expectBlocked(confirm, result)
  })

  it('an honest MultiSend batch: NONE with its transfers, and Continue signs it', async () => {
    const { confirm, result } = await sign(proposal('safe-honest-batch'))
    expect(await shownAction(confirm)).toBe('NONE')
    const safeGroup = confirm.locator(`[data-account="${devnet.fixtures.safe.address.toLowerCase()}"]`)
    await expect
      .poll(() => safeGroup.getByTestId('state-change').allInnerTexts())
      .toEqual([expect.stringContaining('−1 ETH'), expect.stringContaining('−100 USDC')])
    expect(await confirm.locator('[data-kind="SAFE_CONFIGURATION_CHANGE"]').count()).toBe(0)
    await clickDecision(confirm, 'Continue')
    expect((await result()).ok).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('a Safe message of a bare hash: WARN, the hash shown, and the signature makes the Safe accept that hash', async () => {
    const { fixtures } = devnet
    const hidden = safePermitHash(fixtures)
    const typedData = safeMessageTypedData(fixtures.chainId, fixtures.safe.address, hidden)
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${owner}', ${JSON.stringify(JSON.stringify(typedData))}] })`,
    )
    expect(await shownAction(confirm)).toBe('WARN')
    expect(await confirm.locator('[data-warning-kind="MULTISIG_BLIND_SIGNATURE"]').textContent()).toContain(hidden)
    expect(await confirm.getByTestId('safe-message-signs').textContent()).toBe(hidden)
    await clickDecision(confirm, 'Continue')
    const signed = (await result()).ok as Hex
    // With a second owner's signature, the Safe answers for the hidden permit as its own (EIP-1271).
    const signatures = await withSecondOwner(signed, {
      types: { SafeMessage: SAFE_MESSAGE_TYPES.SafeMessage },
      primaryType: 'SafeMessage',
      message: { message: hidden },
    })
    const answer = await createPublicClient({ transport: http(fixtures.rpcUrl) }).readContract({
      address: fixtures.safe.address,
      abi: eip1271Abi,
      functionName: 'isValidSignature',
      args: [hidden, signatures],
    })
    expect(answer).toBe('0x1626ba7e')
  })

  it('executing the takeover with collected signatures (eth_sendTransaction) is BLOCKed too', async () => {
    const tx = proposal('safe-takeover')
    const signers = devnet.fixtures.accounts
      .slice(0, 2)
      .sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
    const signatures: Hex[] = []
    for (const { privateKey } of signers) {
      signatures.push(
        await privateKeyToAccount(privateKey).signTypedData({
          domain: { chainId: devnet.fixtures.chainId, verifyingContract: devnet.fixtures.safe.address },
          types: { SafeTx: SAFE_TX_TYPES.SafeTx },
          primaryType: 'SafeTx',
          message: tx,
        }),
      )
    }
    const data = encodeFunctionData({
      abi: execAbi,
      functionName: 'execTransaction',
      args: [tx.to, tx.value, tx.data, tx.operation, 0n, 0n, 0n, tx.gasToken, tx.refundReceiver, concat(signatures)],
    })
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${owner}', to: '${devnet.fixtures.safe.address}', data: '${data}' }] })`,
    )
    await expect.poll(() => controlRows(confirm)).toEqual([['singleton', 'CRITICAL']])
    await expectBlocked(confirm, result)
  })

  // Last: it executes, and the Safe's nonce moves on.
  it('upgrading a proxy the Safe administers: WARN naming the new code; signed, co-signed and executed, it runs', async () => {
    const { fixtures } = devnet
    const tx = proposal('safe-upgrade-proxy')
    const { confirm, result } = await sign(tx)
    expect(await shownAction(confirm)).toBe('WARN')
    const warning = await confirm.locator('[data-warning-kind="SET_OWNER_AUTHORITY"]').textContent()
    expect(warning).toContain(`This upgrades ${fixtures.controlled.proxy.toLowerCase().slice(0, 6)}`)
    expect(warning).toContain(fixtures.controlled.nextLogic.toLowerCase().slice(-4))
    expect(await confirm.getByText('It changes who controls a contract').count()).toBe(1)
    await clickDecision(confirm, 'Continue')
    const signed = (await result()).ok as Hex
    const signatures = await withSecondOwner(signed, {
      types: { SafeTx: SAFE_TX_TYPES.SafeTx },
      primaryType: 'SafeTx',
      message: tx,
    })
    const relayer = fixtures.accounts[7] as { address: Address; privateKey: Hex }
    const chain = createPublicClient({ transport: http(fixtures.rpcUrl), pollingInterval: 20 })
    const hash = await createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(relayer.privateKey),
    }).sendTransaction({
      to: fixtures.safe.address,
      data: execTransactionData(tx, signatures),
    })
    expect((await waitForReceipt(chain, hash)).status).toBe('success')
    const version = await chain.readContract({
      address: fixtures.controlled.proxy,
      abi: parseAbi(['function version() view returns (uint256)']),
      functionName: 'version',
    })
    expect(version).toBe(2n)
  })
})
