/** Safe transaction messages against the devnet's 2-of-3 Safe (seed §1.3, §2.3, §2.8.2). */
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseAbi,
  parseEther,
  slice,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { plainSafeTx, SAFE_TX_TYPES, safeTxTypedData } from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { NATIVE_ASSET_ADDRESS, scanMessageWithStats } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const safeAbi = parseAbi([
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)',
  'function encodeTransactionData(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes)',
  'function domainSeparator() view returns (bytes32)',
  'function nonce() view returns (uint256)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
])

describe('scanMessage: Safe transaction messages', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let recipient: Address
  const validate = messageResponseValidator()
  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })

  /** The seed's multisig message: the Safe sends `value` wei to the recipient, as dapps and Safe{Wallet} send it. */
  const safeTx = (overrides: { nonce?: number; chainId?: string; verifyingContract?: string; value?: bigint } = {}) =>
    safeTxTypedData(
      overrides.chainId ?? String(fixtures.chainId),
      overrides.verifyingContract ?? fixtures.safe.address,
      plainSafeTx(recipient, overrides.value ?? parseEther('1'), BigInt(overrides.nonce ?? 0)),
    )
  const request = (data: unknown, userAccount: string) => ({
    message: { kind: 'SIGN_TYPED_DATA', data },
    userAccount,
    metadata: { origin: 'https://app.safe.global' },
  })
  const txArgs = (nonce: bigint) =>
    [recipient, parseEther('1'), '0x', 0, 0n, 0n, 0n, zeroAddress, zeroAddress, nonce] as const

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    recipient = fixtures.accounts[5]?.address as Address
  })
  afterAll(() => devnet?.stop())

  it('simulates the 1 ETH transfer from the wallet, signed by an owner holding no ETH: action NONE, 1 round trip', async () => {
    const signer = fixtures.safe.owners[1] as Address
    await client().request({ method: 'anvil_setBalance' as never, params: [signer, '0x0'] as never })
    const { response, roundTrips } = await scanOk(request(safeTx(), signer), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(validate({ ...response, action: 'MAYBE' })).not.toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges).toEqual([
      {
        humanReadableDiff: 'Send 1 ETH',
        rawInfo: {
          kind: 'NATIVE_ASSET_TRANSFER',
          data: {
            amount: { before: parseEther('100').toString(), after: parseEther('99').toString() },
            counterparty: { address: recipient.toLowerCase(), kind: 'ACCOUNT' },
            asset: expect.objectContaining({ address: NATIVE_ASSET_ADDRESS, symbol: 'ETH', decimals: 18 }),
            contract: { address: NATIVE_ASSET_ADDRESS, kind: 'ACCOUNT' },
          },
        },
      },
    ])
    expect(response.simulationResults.multisig).toMatchObject({
      wallet: fixtures.safe.address.toLowerCase(),
      version: '1.4.1',
      owners: fixtures.safe.owners.map((owner) => owner.toLowerCase()),
      threshold: 2,
      currentNonce: '0',
      messageNonce: '0',
    })
    const [perTransaction] = response.simulationResults.perTransaction ?? []
    expect(perTransaction?.error).toBeNull()
    expect(perTransaction?.decodedCalldata?.data.functionName).toBe('execTransaction')
    expect(response.simulationResults.decodedMessage?.primaryType).toBe('SafeTx')
    const safe = { name: 'Safe', trustLevel: 'TRUSTED', imageUrl: null, websiteUrl: 'https://safe.global' }
    expect(response.simulationResults.protocol).toMatchObject(safe)
    expect(perTransaction?.protocol).toMatchObject(safe)
    expect(roundTrips).toBe(1)
  })

  it('reports the hashes the Safe contract itself computes, and owners signing that hash can execute it', async () => {
    const c = client()
    const safe = fixtures.safe.address
    const { response } = await scanOk(request(safeTx(), fixtures.safe.owners[0] as Address), fixtures.rpcUrl)
    const multisig = response.simulationResults.multisig
    const onChainHash = await c.readContract({
      address: safe,
      abi: safeAbi,
      functionName: 'getTransactionHash',
      args: txArgs(0n),
    })
    const encoded = await c.readContract({
      address: safe,
      abi: safeAbi,
      functionName: 'encodeTransactionData',
      args: txArgs(0n),
    })
    expect(multisig?.safeTxHash).toBe(onChainHash)
    expect(multisig?.domainHash).toBe(
      await c.readContract({ address: safe, abi: safeAbi, functionName: 'domainSeparator' }),
    )
    expect(multisig?.messageHash).toBe(slice(encoded, 34, 66))

    // Two owners sign the reported hash (as EIP-712 typed data), sorted by address; the Safe accepts it.
    const signers = fixtures.accounts
      .slice(0, 2)
      .sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1))
    const signatures: Hex[] = []
    for (const { privateKey } of signers) {
      const account = privateKeyToAccount(privateKey)
      signatures.push(
        await account.signTypedData({
          domain: { chainId: fixtures.chainId, verifyingContract: safe },
          types: { SafeTx: SAFE_TX_TYPES.SafeTx },
          primaryType: 'SafeTx',
          message: plainSafeTx(recipient, parseEther('1'), 0n),
        }),
      )
    }
    const executor = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[7]?.privateKey as Hex),
    })
    const before = await c.getBalance({ address: recipient })
    const hash = await executor.writeContract({
      address: safe,
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [...txArgs(0n).slice(0, 9), concat(signatures)] as never,
    })
    const receipt = await waitForReceipt(c, hash)
    expect(receipt.status).toBe('success')
    expect(await c.getBalance({ address: recipient })).toBe(before + parseEther('1'))
    expect(await c.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(1n)
  })

  it('warns plainly when the nonce was already used (the Safe is now at nonce 1)', async () => {
    const { response } = await scanOk(
      request(safeTx({ nonce: 0 }), fixtures.safe.owners[0] as Address),
      fixtures.rpcUrl,
    )
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['MULTISIG_NONCE_USED', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/already executed or replaced.*can never be executed/)
    expect(response.action).toBe('WARN')
    // No simulation pretends it will run: no effects are claimed.
    expect(response.simulationResults.expectedStateChanges).toEqual([])
    expect(response.simulationResults.perTransaction).toBeUndefined()
    expect(response.simulationResults.multisig).toMatchObject({ currentNonce: '1', messageNonce: '0' })
    expect(validate(response)).toEqual([])
  })

  it('simulates a queued transaction with a future nonce as if it were next', async () => {
    const { response } = await scanOk(
      request(safeTx({ nonce: 5 }), fixtures.safe.owners[2] as Address),
      fixtures.rpcUrl,
    )
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges[0]?.humanReadableDiff).toBe('Send 1 ETH')
    expect(response.simulationResults.multisig).toMatchObject({ currentNonce: '1', messageNonce: '5' })
  })

  it('warns when the signer is not an owner, and still shows what the transaction would do', async () => {
    const stranger = fixtures.accounts[6]?.address as Address
    const { response } = await scanOk(request(safeTx({ nonce: 1 }), stranger), fixtures.rpcUrl)
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['MULTISIG_SIGNER_NOT_OWNER', 'WARNING']])
    expect(response.warnings[0]?.message).toContain('is not an owner of the Safe')
    expect(response.action).toBe('WARN')
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual(['Send 1 ETH'])
    expect(validate(response)).toEqual([])
  })

  it('blocks a Safe transaction whose domain names another chain', async () => {
    const { response } = await scanOk(
      request(safeTx({ nonce: 1, chainId: '0x1' }), fixtures.safe.owners[0] as Address),
      fixtures.rpcUrl,
    )
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['MULTISIG_CHAIN_MISMATCH', 'CRITICAL']])
    expect(response.warnings[0]?.message).toContain('for chain 1, but the simulation ran on chain 31337')
    expect(response.action).toBe('BLOCK')
  })

  it('a Safe message that writes the wallet in decimal is read as that Safe, and blocked for it', async () => {
    const data = safeTx({ nonce: 1, verifyingContract: BigInt(fixtures.safe.address).toString() })
    const { response } = await scanOk(request(data, fixtures.safe.owners[0] as Address), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.multisig?.wallet).toBe(fixtures.safe.address.toLowerCase())
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['NON_CANONICAL_ADDRESS', 'CRITICAL']])
    expect(response.warnings[0]?.message).toContain('writes domain.verifyingContract as')
    expect(response.action).toBe('BLOCK')
  })

  it('reports a Safe-shaped message for a contract that is not a Safe as unsupported, not a crash', async () => {
    const data = safeTx({ nonce: 1, verifyingContract: fixtures.erc20.address })
    const { response } = await scanOk(request(data, fixtures.safe.owners[0] as Address), fixtures.rpcUrl)
    expect(response.simulationResults.error).toMatchObject({ kind: 'UNSUPPORTED_MESSAGE' })
    expect(response.simulationResults.error?.humanReadableError).toContain('is not a Safe on this chain')
    expect(response.simulationResults.expectedStateChanges).toEqual([])
    expect(response.simulationResults.multisig).toBeUndefined()
    expect(response.simulationResults.protocol).toBeNull()
    // What it would do cannot be shown: the person is told so, and the action is WARN, not NONE.
    expect(response.warnings.map((w) => w.kind)).toEqual(['RELIABLE_SIMULATION_NOT_POSSIBLE'])
    expect(response.action).toBe('WARN')
  })

  it('explains a Safe transaction that would fail: more ETH than the wallet holds', async () => {
    const data = safeTx({ nonce: 1, value: parseEther('1000') })
    const { response } = await scanOk(request(data, fixtures.safe.owners[0] as Address), fixtures.rpcUrl)
    expect(response.simulationResults.error?.kind).toBe('SIMULATION_FAILED')
    expect(response.simulationResults.error?.humanReadableError).toMatch(/GS013/)
    expect(response.simulationResults.expectedStateChanges).toEqual([])
    expect(response.simulationResults.perTransaction?.[0]?.error?.kind).toBe('TRANSACTION_REVERTED')
  })

  it('answers an unreachable node with an RPC error value', async () => {
    const { outcome } = await scanMessageWithStats(request(safeTx(), fixtures.safe.owners[0] as Address), {
      rpcUrl: 'http://127.0.0.1:9',
    })
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'RPC_ERROR' } })
  })
})
