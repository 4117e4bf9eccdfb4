/** Transaction scans against the real devnet: the seed's multisig example, tokens, approvals, the drainer, errors. */
import { createServer } from 'node:http'
import {
  type Address,
  createTestClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  parseAbiParameters,
  parseEther,
  parseUnits,
  publicActions,
  toHex,
  walletActions,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { safeAbi } from '../../../src/engine/abi/abis.ts'
import {
  addMaliciousAddresses,
  type ScanTransactionsResponse,
  type StateChange,
  scanTransactions,
  scanTransactionsWithStats,
} from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { listenOnFreePort } from '../../support/net.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const erc20 = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
])
const erc721 = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function transferFrom(address from, address to, uint256 tokenId)',
])
const erc1155 = parseAbi(['function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)'])
const weth = parseAbi(['function deposit() payable'])
const drainer = parseAbi(['function claim() payable', 'function claimRewards(address token) payable'])

const RECIPIENT: Address = '0x1111111111111111111111111111111111111111'
const ORIGIN = { origin: 'https://app.example.org' }

let devnet: Devnet
let rpcUrl: string

beforeAll(async () => {
  devnet = await startTestDevnet()
  rpcUrl = devnet.fixtures.rpcUrl
})
afterAll(async () => {
  await devnet?.stop()
})

const fx = () => devnet.fixtures
const owner = (index: number) => fx().accounts[index]?.address as Address

async function scanOk(request: unknown): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(request, { rpcUrl })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** The gas a transaction really uses when mined on the devnet (mined, measured, then reverted). */
async function gasUsedWhenMined(tx: { from: Address; to: Address; data: Hex }): Promise<bigint> {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    .extend(publicActions)
    .extend(walletActions)
  const snapshot = await client.snapshot()
  try {
    const hash = await client.sendTransaction({ account: tx.from, to: tx.to, data: tx.data, chain: null })
    return (await waitForReceipt(client, hash)).gasUsed
  } finally {
    await client.revert({ id: snapshot })
  }
}

function execTransaction(to: Address, value: bigint, data: `0x${string}`, signatures: `0x${string}` = '0x') {
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [to, value, data, 0, 0n, 0n, 0n, zeroAddress, zeroAddress, signatures],
  })
}

/** A transfer's before/after amounts (asset state changes carry `amount`; Safe configuration changes do not). */
function amountOf(change: StateChange | undefined): { before: string; after: string } {
  return (
    (change?.rawInfo.data as { amount?: { before: string; after: string } } | undefined)?.amount ?? {
      before: '',
      after: '',
    }
  )
}

describe('seed §2.8.1: a 2-of-3 Safe sends 1 ETH, signed by one owner holding no ETH', () => {
  const request = () => ({
    txObjects: [
      { from: owner(1), to: fx().safe.address, data: execTransaction(RECIPIENT, parseEther('1'), '0x'), value: '0' },
    ],
    userAccount: fx().safe.address,
    metadata: ORIGIN,
    simulatorConfig: {
      stateOverrides: { nativeBalances: [{ address: owner(1), value: parseEther('1').toString() }], storage: [] },
      presets: [{ kind: 'MULTISIG_WALLET', walletAddress: fx().safe.address }],
    },
  })

  beforeAll(async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    await test.setBalance({ address: owner(1), value: 0n })
  })

  it('with the preset: action NONE, the wallet sends 1 ETH and the recipient receives it', async () => {
    const { outcome, stats } = await scanTransactionsWithStats(request(), { rpcUrl })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    const response = outcome.response
    validateTransactionsResponse(response)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const { aggregated, perTransaction } = response.simulationResults
    expect(aggregated.error).toBeNull()
    const wallet = fx().safe.address.toLowerCase() as Address
    const recipient = RECIPIENT.toLowerCase() as Address
    expect(Object.keys(aggregated.expectedStateChanges).sort()).toEqual([wallet, recipient].sort())
    const [walletChange] = aggregated.expectedStateChanges[wallet] ?? []
    const [recipientChange] = aggregated.expectedStateChanges[recipient] ?? []
    expect(walletChange?.rawInfo.kind).toBe('NATIVE_ASSET_TRANSFER')
    expect(walletChange?.humanReadableDiff).toBe('Send 1 ETH')
    const walletAmount = amountOf(walletChange)
    expect(BigInt(walletAmount.before) - BigInt(walletAmount.after)).toBe(parseEther('1'))
    expect(walletAmount.before).toBe(parseEther('100').toString())
    expect(recipientChange?.humanReadableDiff).toBe('Receive 1 ETH')
    const recipientAmount = amountOf(recipientChange)
    expect(BigInt(recipientAmount.after) - BigInt(recipientAmount.before)).toBe(parseEther('1'))
    expect(perTransaction).toHaveLength(1)
    expect(perTransaction[0]?.error).toBeNull()
    expect(perTransaction[0]?.decodedCalldata?.data.functionName).toBe('execTransaction')
    expect(stats.roundTrips).toBe(1)
  })

  it('without the preset: the transaction reverts and Safe’s reason is explained', async () => {
    const { simulatorConfig: _, ...withoutPreset } = request()
    const response = await scanOk(withoutPreset)
    const [result] = response.simulationResults.perTransaction
    expect(result?.error?.kind).toBe('TRANSACTION_REVERTED')
    expect(result?.error).toMatchObject({ revertReason: 'execution reverted: GS020' })
    expect(result?.error?.humanReadableError).toMatch(/not enough signatures/)
    expect(response.simulationResults.aggregated.expectedStateChanges).toEqual({})
  })

  it('a sender that is not an owner gets a plain-English aggregated error, not a crash', async () => {
    const stranger = owner(5)
    const body = request()
    body.txObjects[0] = { ...body.txObjects[0], from: stranger } as (typeof body.txObjects)[0]
    const response = await scanOk(body)
    const error = response.simulationResults.aggregated.error
    expect(error?.kind).toBe('SIMULATION_FAILED')
    expect(error && 'reason' in error ? error.reason : '').toContain(
      `${stranger.toLowerCase()} is not an owner of the Safe`,
    )
  })
})

describe('tokens and approvals', () => {
  it('an ERC-20 transfer: sender and recipient each get an ERC20_TRANSFER with exact before/after, in 1 round trip', async () => {
    const request = {
      txObjects: [
        {
          from: owner(0),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [RECIPIENT, parseUnits('1000', 6)] }),
        },
      ],
      userAccount: owner(0).toLowerCase(),
      metadata: ORIGIN,
    }
    const { outcome, stats } = await scanTransactionsWithStats(request, { rpcUrl })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    expect(stats.roundTrips).toBe(1)
    const changes = outcome.response.simulationResults.aggregated.expectedStateChanges
    const sent = changes[owner(0).toLowerCase() as Address]?.[0]
    const received = changes[RECIPIENT.toLowerCase() as Address]?.[0]
    expect(sent?.humanReadableDiff).toBe('Send 1,000 USDC')
    expect(received?.humanReadableDiff).toBe('Receive 1,000 USDC')
    expect(sent?.rawInfo).toMatchObject({
      kind: 'ERC20_TRANSFER',
      data: {
        amount: { before: parseUnits('10000', 6).toString(), after: parseUnits('9000', 6).toString() },
        counterparty: { address: RECIPIENT.toLowerCase(), kind: 'ACCOUNT' },
        asset: {
          address: fx().erc20.address.toLowerCase(),
          symbol: 'USDC',
          name: 'USD Coin',
          decimals: 6,
          verified: false,
        },
      },
    })
    expect(outcome.response.action).toBe('NONE')
    const [result] = outcome.response.simulationResults.perTransaction
    expect(result?.decodedCalldata).toEqual({
      kind: 'FUNCTION',
      data: {
        contract: fx().erc20.address.toLowerCase(),
        functionName: 'transfer',
        arguments: [
          { name: 'to', paramType: 'address', value: RECIPIENT.toLowerCase() },
          { name: 'value', paramType: 'uint256', value: parseUnits('1000', 6).toString() },
        ],
      },
    })
    expect(result?.decodedLogs[0]).toMatchObject({
      name: 'Transfer',
      params: [{ name: 'from' }, { name: 'to' }, { name: 'value' }],
    })
    // The suggested limit is the gas used plus 20% headroom, rounded up.
    const gasUsed = await gasUsedWhenMined(request.txObjects[0] as { from: Address; to: Address; data: Hex })
    expect(result?.gas.gasLimit).toBe(((gasUsed * 120n + 99n) / 100n).toString())
  })

  it('an ERC-20 transfer executed through the Safe with the preset takes 1 round trip and keys wallet + recipient', async () => {
    const inner = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [RECIPIENT, parseUnits('5', 6)] })
    const { outcome, stats } = await scanTransactionsWithStats(
      {
        txObjects: [{ from: owner(2), to: fx().safe.address, data: execTransaction(fx().erc20.address, 0n, inner) }],
        userAccount: fx().safe.address,
        metadata: ORIGIN,
        simulatorConfig: { presets: [{ kind: 'GNOSIS_SAFE', walletAddress: fx().safe.address }] },
      },
      { rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(stats.roundTrips).toBe(1)
    const changes = outcome.response.simulationResults.aggregated.expectedStateChanges
    expect(Object.keys(changes).sort()).toEqual([fx().safe.address.toLowerCase(), RECIPIENT.toLowerCase()].sort())
    expect(changes[fx().safe.address.toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe('Send 5 USDC')
  })

  it('an unlimited approval to an externally owned account → WARN with APPROVAL_TO_EOA', async () => {
    const spender = owner(6)
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, maxUint256] }),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((warning) => warning.kind)).toContain('APPROVAL_TO_EOA')
    const [approval] =
      response.simulationResults.aggregated.expectedStateChanges[owner(0).toLowerCase() as Address] ?? []
    expect(approval?.rawInfo).toMatchObject({
      kind: 'ERC20_APPROVAL',
      data: {
        owner: { address: owner(0).toLowerCase() },
        spender: { address: spender.toLowerCase() },
        amount: { before: '0', after: maxUint256.toString() },
      },
    })
    expect(approval?.humanReadableDiff).toBe(
      `Approve ${spender.toLowerCase().slice(0, 6)}…${spender.toLowerCase().slice(-4)} to spend unlimited USDC`,
    )
  })

  it('setApprovalForAll on the NFT collection → WARN with UNLIMITED_ALLOWANCE_TO_NFTS', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc721.address,
          data: encodeFunctionData({
            abi: erc721,
            functionName: 'setApprovalForAll',
            args: [fx().drainer.address, true],
          }),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((warning) => warning.kind)).toEqual(['UNLIMITED_ALLOWANCE_TO_NFTS'])
    const [change] = response.simulationResults.aggregated.expectedStateChanges[owner(0).toLowerCase() as Address] ?? []
    expect(change?.rawInfo).toMatchObject({
      kind: 'ERC721_APPROVAL_FOR_ALL',
      data: { amount: { before: '0', after: maxUint256.toString() }, asset: { name: 'Devnet Apes', symbol: 'DAPE' } },
    })
    expect(change?.humanReadableDiff).toMatch(/^Approve 0x[0-9a-f]{4}…[0-9a-f]{4} to transfer all your Devnet Apes$/)
  })

  it('a bundle carries state: approve, then the spender pulls the tokens with transferFrom', async () => {
    const spender = owner(7)
    const amount = parseUnits('250', 6)
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, amount] }),
        },
        {
          from: spender,
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'transferFrom', args: [owner(0), spender, amount] }),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    const { perTransaction, aggregated } = response.simulationResults
    expect(perTransaction.map((result) => result.error)).toEqual([null, null])
    const mine = aggregated.expectedStateChanges[owner(0).toLowerCase() as Address] ?? []
    expect(mine.map((change) => change.humanReadableDiff)).toEqual([
      'Send 250 USDC',
      `Approve ${spender.toLowerCase().slice(0, 6)}…${spender.toLowerCase().slice(-4)} to spend 250 USDC`,
    ])
    // The allowance was used up by the second transaction: it is read after the whole bundle.
    expect(amountOf(mine[1])).toEqual({ before: '0', after: '0' })
    expect(aggregated.expectedStateChanges[spender.toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe(
      'Receive 250 USDC',
    )
  })
})

describe('storage overrides', () => {
  it('a thousand entries all apply: a balance slot set first survives 999 more slots of the same token', async () => {
    // DevUSD is OpenZeppelin's ERC20: balances are the mapping at slot 0, so an account's balance is at keccak(a, 0).
    const holder = owner(6)
    const balanceSlot = keccak256(encodeAbiParameters(parseAbiParameters('address, uint256'), [holder, 0n]))
    const junk = Array.from({ length: 999 }, (_, index) => ({
      address: fx().erc20.address,
      slot: toHex(10_000 + index),
      value: '0x1',
    }))
    const response = await scanOk({
      txObjects: [
        {
          from: holder,
          to: fx().erc20.address,
          data: encodeFunctionData({
            abi: erc20,
            functionName: 'transfer',
            args: [RECIPIENT, parseUnits('5000000', 6)],
          }),
        },
      ],
      userAccount: holder,
      metadata: ORIGIN,
      simulatorConfig: {
        stateOverrides: {
          storage: [
            { address: fx().erc20.address, slot: balanceSlot, value: parseUnits('5000000', 6).toString() },
            ...junk,
          ],
        },
      },
    })
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    const [change] = response.simulationResults.aggregated.expectedStateChanges[holder.toLowerCase() as Address] ?? []
    expect(change?.humanReadableDiff).toBe('Send 5,000,000 USDC')
  })
})

describe('malicious and failing transactions', () => {
  it('the drainer: the ETH sent to "claim" shows as lost to the attacker, with a SUSPECTED_MALICIOUS warning', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().drainer.address,
          data: encodeFunctionData({ abi: drainer, functionName: 'claim' }),
          value: parseEther('2').toString(),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    const changes = response.simulationResults.aggregated.expectedStateChanges
    expect(changes[owner(0).toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe('Send 2 ETH')
    expect(changes[fx().drainer.attacker.toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe('Receive 2 ETH')
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((entry) => entry.kind === 'SUSPECTED_MALICIOUS')
    const attacker = fx().drainer.attacker.toLowerCase()
    expect(warning?.message).toContain(`${attacker.slice(0, 6)}…${attacker.slice(-4)}`)
  })

  it('the drainer sweeping approved tokens in a bundle: the USDC loss shows and is flagged', async () => {
    const { outcome, stats } = await scanTransactionsWithStats(
      {
        txObjects: [
          {
            from: owner(0),
            to: fx().erc20.address,
            data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [fx().drainer.address, maxUint256] }),
          },
          {
            from: owner(0),
            to: fx().drainer.address,
            data: encodeFunctionData({ abi: drainer, functionName: 'claimRewards', args: [fx().erc20.address] }),
          },
        ],
        userAccount: owner(0),
        metadata: ORIGIN,
      },
      { rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(stats.roundTrips).toBeLessThanOrEqual(2)
    const changes = outcome.response.simulationResults.aggregated.expectedStateChanges
    const loss = changes[owner(0).toLowerCase() as Address]?.find((change) => change.rawInfo.kind === 'ERC20_TRANSFER')
    expect(amountOf(loss)).toEqual({
      before: parseUnits('10000', 6).toString(),
      after: '0',
    })
    expect(changes[fx().drainer.attacker.toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe('Receive 10,000 USDC')
    expect(outcome.response.warnings.map((warning) => warning.kind)).toContain('SUSPECTED_MALICIOUS')
  })

  it('a reverted call reports TRANSACTION_REVERTED with the decoded reason', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(4),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [RECIPIENT, 5n] }),
        },
      ],
      userAccount: owner(4),
      metadata: ORIGIN,
    })
    const [result] = response.simulationResults.perTransaction
    expect(result?.error).toEqual({
      kind: 'TRANSACTION_REVERTED',
      humanReadableError: `The transaction would fail: the sender ${owner(4)} holds 0 base units of the token but 5 are needed.`,
      revertReason: `execution reverted: ERC20InsufficientBalance(${owner(4)}, 0, 5)`,
    })
    expect(response.simulationResults.aggregated.error).toBeNull()
    expect(response.simulationResults.aggregated.expectedStateChanges).toEqual({})
  })

  it('a gas limit that runs out during execution → TRANSACTION_ERROR OutOfGas', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [RECIPIENT, 5n] }),
          gas: '24000',
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    expect(response.simulationResults.perTransaction[0]?.error).toMatchObject({
      kind: 'TRANSACTION_ERROR',
      errorType: 'OutOfGas',
    })
    expect(response.simulationResults.perTransaction[0]?.gas.gasLimit).toBe('24000')
  })

  it('a gas limit below the intrinsic cost makes the whole simulation fail: aggregated SIMULATION_FAILED', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc20.address,
          data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [RECIPIENT, 5n] }),
          gas: '21000',
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    expect(response.simulationResults.aggregated.error?.kind).toBe('SIMULATION_FAILED')
    expect(response.simulationResults.perTransaction[0]?.error?.kind).toBe('TRANSACTION_ERROR')
  })

  it('a blocklisted origin → BLOCK with a CRITICAL TRUSTED_BLOCKLIST_DOMAIN first', async () => {
    const response = await scanOk({
      txObjects: [{ from: owner(0), to: RECIPIENT, value: '1' }],
      userAccount: owner(0),
      metadata: { origin: 'https://moonbirds.tv' },
    })
    expect(response.action).toBe('BLOCK')
    expect(response.warnings[0]).toMatchObject({ kind: 'TRUSTED_BLOCKLIST_DOMAIN', severity: 'CRITICAL' })
  })
})

describe('NFTs, wrapping, known malicious addresses and round trips', () => {
  it('an ERC-721 transfer: the sender loses and the recipient gains the token', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc721.address,
          data: encodeFunctionData({ abi: erc721, functionName: 'transferFrom', args: [owner(0), RECIPIENT, 2n] }),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    const changes = response.simulationResults.aggregated.expectedStateChanges
    expect(changes[owner(0).toLowerCase() as Address]?.[0]).toMatchObject({
      humanReadableDiff: 'Send Devnet Apes #2',
      rawInfo: { kind: 'ERC721_TRANSFER', data: { amount: { before: '1', after: '0' }, tokenId: '2' } },
    })
    expect(changes[RECIPIENT.toLowerCase() as Address]?.[0]?.humanReadableDiff).toBe('Receive Devnet Apes #2')
  })

  it('an ERC-1155 transfer shows both balances of the token id', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().erc1155.address,
          data: encodeFunctionData({
            abi: erc1155,
            functionName: 'safeTransferFrom',
            args: [owner(0), RECIPIENT, 1n, 3n, '0x'],
          }),
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    const [sent] = response.simulationResults.aggregated.expectedStateChanges[owner(0).toLowerCase() as Address] ?? []
    expect(sent?.rawInfo).toMatchObject({
      kind: 'ERC1155_TRANSFER',
      data: { amount: { before: '10', after: '7' }, tokenId: '1' },
    })
    expect(sent?.humanReadableDiff).toMatch(/^Send 3 .+ #1$/)
  })

  it('wrapping ETH: the user sends ETH to WETH and receives WETH (Deposit counts as a mint)', async () => {
    const response = await scanOk({
      txObjects: [
        {
          from: owner(0),
          to: fx().weth.address,
          data: encodeFunctionData({ abi: weth, functionName: 'deposit' }),
          value: '0xde0b6b3a7640000',
        },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    const mine = response.simulationResults.aggregated.expectedStateChanges[owner(0).toLowerCase() as Address] ?? []
    expect(mine.map((change) => change.humanReadableDiff)).toEqual(['Send 1 ETH', 'Receive 1 WETH'])
    expect(response.action).toBe('NONE')
    // Raw event logs only: WETH9's one Deposit, not the node's pseudo-log for the ETH it received.
    const [result] = response.simulationResults.perTransaction
    expect(result?.logs.map((log) => log.address)).toEqual([fx().weth.address.toLowerCase()])
    expect(result?.decodedLogs.map((log) => log?.name)).toEqual(['Deposit'])
  })

  it('a contract on the blocklist → BLOCK with KNOWN_MALICIOUS', async () => {
    addMaliciousAddresses(fx().chainId, { [fx().drainer.address]: 'devnet drainer registered by this test' })
    const response = await scanOk({
      txObjects: [
        { from: owner(0), to: fx().drainer.address, data: encodeFunctionData({ abi: drainer, functionName: 'claim' }) },
      ],
      userAccount: owner(0),
      metadata: ORIGIN,
    })
    expect(response.action).toBe('BLOCK')
    expect(response.warnings[0]).toMatchObject({ kind: 'KNOWN_MALICIOUS', severity: 'CRITICAL' })
  })

  it('a node whose chain id is unknown is asked in the same JSON-RPC batch, then cached', async () => {
    // localhost names the same node under a different URL, so its chain id is not cached yet.
    const url = rpcUrl.replace('127.0.0.1', 'localhost')
    const request = {
      txObjects: [{ from: owner(0), to: RECIPIENT, value: '1' }],
      userAccount: owner(0),
      metadata: ORIGIN,
    }
    const first = await scanTransactionsWithStats(request, { rpcUrl: url })
    expect(first.stats).toMatchObject({ roundTrips: 1, requests: 2 })
    const second = await scanTransactionsWithStats(request, { rpcUrl: url })
    expect(second.stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })
})

describe('bad input and unreachable nodes', () => {
  const valid = () => ({
    txObjects: [{ from: owner(0), to: RECIPIENT, value: '0x1', data: '0x' }],
    userAccount: owner(0),
    metadata: ORIGIN,
  })
  const cases: [string, (request: ReturnType<typeof valid>) => unknown, string, RegExp][] = [
    ['not an object', () => 'hello', 'request', /must be a JSON object/],
    ['no transactions', (request) => ({ ...request, txObjects: [] }), 'txObjects', /non-empty array/],
    [
      'bad to',
      (request) => ({ ...request, txObjects: [{ ...request.txObjects[0], to: '0x1234' }] }),
      'txObjects[0].to',
      /"0x1234" is not a 20-byte hex address/,
    ],
    [
      'bad from',
      (request) => ({ ...request, txObjects: [{ ...request.txObjects[0], from: 42 }] }),
      'txObjects[0].from',
      /20-byte hex address/,
    ],
    [
      'odd data',
      (request) => ({ ...request, txObjects: [{ ...request.txObjects[0], data: '0xabc' }] }),
      'txObjects[0].data',
      /even number of hex digits/,
    ],
    [
      'float value',
      (request) => ({ ...request, txObjects: [{ ...request.txObjects[0], value: '1.5' }] }),
      'txObjects[0].value',
      /non-negative integer/,
    ],
    ['no userAccount', (request) => ({ ...request, userAccount: undefined }), 'userAccount', /20-byte hex address/],
    ['no origin', (request) => ({ ...request, metadata: {} }), 'metadata.origin', /URL of the requesting application/],
    [
      'unknown preset',
      (request) => ({ ...request, simulatorConfig: { presets: [{ kind: 'OTHER', walletAddress: owner(0) }] } }),
      'simulatorConfig.presets[0].kind',
      /MULTISIG_WALLET/,
    ],
    [
      'bad override value',
      (request) => ({
        ...request,
        simulatorConfig: { stateOverrides: { nativeBalances: [{ address: owner(0), value: '-1' }] } },
      }),
      'simulatorConfig.stateOverrides.nativeBalances[0].value',
      /non-negative integer/,
    ],
    [
      'more storage overrides than the cap',
      (request) => ({
        ...request,
        simulatorConfig: {
          stateOverrides: {
            storage: Array.from({ length: 1001 }, (_, index) => ({ address: RECIPIENT, slot: index, value: '0x1' })),
          },
        },
      }),
      'simulatorConfig.stateOverrides.storage',
      /has 1001 entries; at most 1000/,
    ],
  ]
  it.each(cases)('%s → INVALID_REQUEST naming %s and why', async (_, mutate, field, reason) => {
    const outcome = await scanTransactions(mutate(valid()), { rpcUrl })
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error).toMatchObject({ kind: 'INVALID_REQUEST', field })
    expect(outcome.error.message).toMatch(reason)
  })

  it('a node without eth_simulateV1 → RPC_ERROR naming the method', async () => {
    // A stand-in JSON-RPC endpoint that, like an old node, does not know the method: the boundary under test.
    const server = createServer((_, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          error: { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' },
        }),
      )
    })
    const port = await listenOnFreePort(server)
    try {
      const outcome = await scanTransactions(valid(), { rpcUrl: `http://127.0.0.1:${port}`, chainId: 31337 })
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'RPC_ERROR' } })
      if (!outcome.ok) expect(outcome.error.message).toMatch(/does not support eth_simulateV1/)
    } finally {
      server.close()
    }
  })

  it('an unreachable node → RPC_ERROR that says what to check', async () => {
    const outcome = await scanTransactions(valid(), { rpcUrl: 'http://127.0.0.1:1' })
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'RPC_ERROR' } })
    expect(outcome).toMatchObject({
      error: { reason: 'UNREACHABLE', message: expect.stringMatching(/Could not reach the node/) },
    })
    // The URL may carry a hosted node's key: it never appears in what a scan returns.
    expect(JSON.stringify(outcome)).not.toContain('127.0.0.1')
  })
})
