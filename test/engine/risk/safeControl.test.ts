/**
 * Safe transactions that change who controls the wallet (owners, threshold, modules, guard, delegate calls), judged
 * from the simulated configuration, and the MULTISIG_WALLET preset on an address that is not a Safe, against the
 * devnet's 2-of-3 Safe (Safe v1.4.1 at its canonical addresses).
 */
import {
  type Address,
  concat,
  createTestClient,
  encodeFunctionData,
  encodePacked,
  type Hex,
  http,
  parseAbi,
  parseEther,
  size,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { plainSafeTx, safeTxTypedData } from '../../../src/devnet/eip712.ts'
import { multiSendAbi, safeAbi } from '../../../src/engine/abi/abis.ts'
import { type ScanTransactionsResponse, scanTransactions, type Warning } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk as scanMessageOk } from '../messageSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

/** An address holding a copy of MultiSend's code: the same code, but not where Safe deployed it. */
const MULTI_SEND_COPY: Address = '0x000000000000000000000000000000000000dEaD'
const NEW_OWNER: Address = '0x1111111111111111111111111111111111111111'
const erc721 = parseAbi(['function setApprovalForAll(address operator, bool approved)'])

let devnet: Devnet
let rpcUrl: string

beforeAll(async () => {
  devnet = await startTestDevnet()
  rpcUrl = devnet.fixtures.rpcUrl
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  const code = await client.request({
    method: 'eth_getCode',
    params: [devnet.fixtures.safeContracts.multiSend, 'latest'],
  } as never)
  await client.setCode({ address: MULTI_SEND_COPY, bytecode: code as Hex })
})
afterAll(async () => {
  await devnet?.stop()
})

const fx = () => devnet.fixtures
const owner = (index: number) => fx().accounts[index]?.address as Address

function execTransaction(to: Address, value: bigint, data: Hex, operation = 0): Hex {
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [to, value, data, operation, 0n, 0n, 0n, zeroAddress, zeroAddress, '0x'],
  })
}

/** The Safe runs `data` on `to` (itself by default), proposed by owner 0 under the preset. */
function safeRequest(data: Hex, operation = 0, to: Address = fx().safe.address, walletAddress = fx().safe.address) {
  return {
    txObjects: [{ from: owner(0), to: fx().safe.address, data: execTransaction(to, 0n, data, operation) }],
    userAccount: fx().safe.address,
    metadata: { origin: 'https://app.safe.global' },
    simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress }] },
  }
}

async function scanOk(request: unknown): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(request, { rpcUrl })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

const kinds = (warnings: Warning[]) => warnings.map((warning) => warning.kind)

/** A MultiSend batch: 1 ETH to owner 5 and an NFT approval-for-all to owner 6, both plain calls. */
function batch(): Hex {
  const approve = encodeFunctionData({ abi: erc721, functionName: 'setApprovalForAll', args: [owner(6), true] })
  const packed = concat([
    encodePacked(['uint8', 'address', 'uint256', 'uint256'], [0, owner(5), parseEther('1'), 0n]),
    encodePacked(
      ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
      [0, fx().erc721.address, 0n, BigInt(size(approve)), approve],
    ),
  ])
  return encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
}

describe('Safe owner management is flagged in plain English', () => {
  it('addOwnerWithThreshold with threshold 1 → USER_ACCOUNT_OWNER_CHANGE CRITICAL: the newcomer alone controls the Safe', async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'addOwnerWithThreshold', args: [NEW_OWNER, 1n] })
    const response = await scanOk(safeRequest(data))
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(response.action).toBe('BLOCK')
    expect(response.warnings).toEqual([
      expect.objectContaining({ kind: 'USER_ACCOUNT_OWNER_CHANGE', severity: 'CRITICAL' }),
    ])
    expect(response.warnings[0]?.message).toContain('owners adds 0x1111…1111; threshold 2 → 1')
    expect(response.warnings[0]?.message).toContain('any single one of them alone would control the Safe')
    expect(response.warnings[0]?.message).toContain('0x1111…1111, not owners today, would reach the threshold')
    const safeChanges =
      response.simulationResults.aggregated.expectedStateChanges[fx().safe.address.toLowerCase() as Address]
    expect(safeChanges?.map((change) => change.rawInfo.kind)).toEqual([
      'SAFE_CONFIGURATION_CHANGE',
      'SAFE_CONFIGURATION_CHANGE',
    ])
    expect(safeChanges?.[1]?.rawInfo.data).toMatchObject({ field: 'threshold', before: '2', after: '1' })
  })

  it('swapOwner and changeThreshold → USER_ACCOUNT_OWNER_CHANGE with the simulated owners and threshold', async () => {
    const swap = encodeFunctionData({
      abi: safeAbi,
      functionName: 'swapOwner',
      args: [owner(1), owner(2), NEW_OWNER],
    })
    const swapped = await scanOk(safeRequest(swap))
    expect(swapped.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(kinds(swapped.warnings)).toEqual(['USER_ACCOUNT_OWNER_CHANGE'])
    expect(swapped.warnings[0]?.message).toContain('owners adds 0x1111…1111, removes 0x3c44…93bc')
    // One newcomer of three owners, two needed: the current owners keep control.
    expect(swapped.warnings[0]?.severity).toBe('WARNING')
    const threshold = encodeFunctionData({ abi: safeAbi, functionName: 'changeThreshold', args: [3n] })
    const changed = await scanOk(safeRequest(threshold))
    expect(kinds(changed.warnings)).toEqual(['USER_ACCOUNT_OWNER_CHANGE'])
    expect(changed.warnings[0]?.message).toContain('threshold 2 → 3')
    expect(changed.warnings[0]?.message).toContain('3 of them would have to confirm every transaction')
  })

  it('enableModule of an unknown module → SET_OWNER_AUTHORITY CRITICAL, BLOCK: a module moves assets unasked', async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [NEW_OWNER] })
    const response = await scanOk(safeRequest(data))
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(response.action).toBe('BLOCK')
    expect(response.warnings).toEqual([expect.objectContaining({ kind: 'SET_OWNER_AUTHORITY', severity: 'CRITICAL' })])
    expect(response.warnings[0]?.message).toContain('without any owner’s confirmation')
  })

  it('a proposal that would revert is still judged by its calldata', async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [NEW_OWNER] })
    // Without the preset, the empty signatures make execTransaction revert (GS020): the simulation changes nothing.
    const { simulatorConfig: _preset, ...request } = safeRequest(data)
    const response = await scanOk(request)
    expect(response.simulationResults.perTransaction[0]?.error?.kind).toBe('TRANSACTION_REVERTED')
    expect(response.warnings).toEqual([expect.objectContaining({ kind: 'SET_OWNER_AUTHORITY', severity: 'CRITICAL' })])
  })

  it('a reverting proposal adding a non-owner with threshold 1 is CRITICAL from its calldata', async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'addOwnerWithThreshold', args: [NEW_OWNER, 1n] })
    const { simulatorConfig: _preset, ...request } = safeRequest(data)
    const response = await scanOk(request)
    expect(response.simulationResults.perTransaction[0]?.error?.kind).toBe('TRANSACTION_REVERTED')
    expect(response.warnings).toEqual([
      expect.objectContaining({ kind: 'USER_ACCOUNT_OWNER_CHANGE', severity: 'CRITICAL' }),
    ])
    expect(response.warnings[0]?.message).toContain('do not sign it unless that account is yours')
  })

  it('a Safe transaction message that adds an owner carries the same warning', async () => {
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'addOwnerWithThreshold', args: [NEW_OWNER, 2n] })
    const typedData = safeTxTypedData(String(fx().chainId), fx().safe.address, {
      ...plainSafeTx(fx().safe.address, 0n, 0n, data),
    })
    const { response } = await scanMessageOk(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: typedData },
        userAccount: owner(1),
        metadata: { origin: 'https://app.safe.global' },
      },
      rpcUrl,
    )
    expect(messageResponseValidator()(response)).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.action).toBe('WARN')
    expect(kinds(response.warnings)).toEqual(['USER_ACCOUNT_OWNER_CHANGE'])
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Owners: adds 0x1111…1111 (3 → 4 owners)',
    ])
  })
})

describe('delegate calls from a Safe', () => {
  it('a delegate call into an unknown contract → SET_OWNER_AUTHORITY CRITICAL, even when the simulation shows nothing', async () => {
    const response = await scanOk(safeRequest('0x', 1, fx().drainer.address))
    expect(response.simulationResults.aggregated.expectedStateChanges).toEqual({})
    expect(response.action).toBe('BLOCK')
    expect(response.warnings).toEqual([expect.objectContaining({ kind: 'SET_OWNER_AUTHORITY', severity: 'CRITICAL' })])
    expect(response.warnings[0]?.message).toContain(
      `lets ${fx().drainer.address.slice(0, 6).toLowerCase()}…${fx().drainer.address.slice(-4).toLowerCase()} run its own code as the Safe`,
    )
  })

  it('a MultiSend batch through the devnet’s MultiSend (canonical) shows every inner effect with no delegate-call warning', async () => {
    const response = await scanOk(safeRequest(batch(), 1, fx().safeContracts.multiSend))
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    const safeChanges = response.simulationResults.aggregated.expectedStateChanges[
      fx().safe.address.toLowerCase() as Address
    ]?.map((change) => change.rawInfo.kind)
    expect(safeChanges).toEqual(['NATIVE_ASSET_TRANSFER', 'ERC721_APPROVAL_FOR_ALL'])
    expect(kinds(response.warnings)).not.toContain('SET_OWNER_AUTHORITY')
    expect(kinds(response.warnings)).toContain('UNLIMITED_ALLOWANCE_TO_NFTS')
  })

  it('the same batch through a MultiSend copy at another address is CRITICAL: the address is what is trusted', async () => {
    const response = await scanOk(safeRequest(batch(), 1, MULTI_SEND_COPY))
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(response.warnings).toContainEqual(
      expect.objectContaining({ kind: 'SET_OWNER_AUTHORITY', severity: 'CRITICAL' }),
    )
    expect(response.action).toBe('BLOCK')
  })

  it('an owner change inside a MultiSend batch is flagged too', async () => {
    const add = encodeFunctionData({ abi: safeAbi, functionName: 'addOwnerWithThreshold', args: [NEW_OWNER, 1n] })
    const packed = encodePacked(
      ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
      [0, fx().safe.address, 0n, BigInt(size(add)), add],
    )
    const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
    const response = await scanOk(safeRequest(data, 1, fx().safeContracts.multiSend))
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(kinds(response.warnings)).toEqual(['USER_ACCOUNT_OWNER_CHANGE'])
  })
})

describe('the MULTISIG_WALLET preset on an address that is not a Safe', () => {
  it('says so in aggregated.error instead of silently simulating a signature failure', async () => {
    const transfer = execTransaction(owner(5), parseEther('1'), '0x')
    const response = await scanOk({
      txObjects: [{ from: owner(0), to: fx().safe.address, data: transfer }],
      userAccount: fx().safe.address,
      metadata: { origin: 'https://app.safe.global' },
      simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: owner(1) }] },
    })
    expect(response.simulationResults.aggregated.error).toMatchObject({
      kind: 'SIMULATION_FAILED',
      humanReadableError: 'The multisig preset does not apply: the wallet is not a Safe.',
      reason: expect.stringContaining(owner(1).toLowerCase()),
    })
  })
})
