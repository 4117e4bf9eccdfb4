/**
 * Safe takeovers against the devnet's 2-of-3 Safe, judged from the simulation: a proposal signed as typed data, the
 * same proposal executed with the owners' real signatures, and then — reality as the oracle — executed on the devnet,
 * whose state must be what the engine said it would be.
 */
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  http,
  pad,
  parseAbi,
  parseEther,
  size,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx, safeTxTypedData } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { HONEST_BATCH, SAFE_SCENARIOS, type SafeScenario, safeAttacker } from '../../../src/devnet/safeProposals.ts'
import {
  type SafeTx,
  type ScanTransactionsResponse,
  type StateChange,
  scanTransactionsWithStats,
  type Warning,
} from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk as scanMessageOk } from '../messageSupport.ts'
import { ownerSignatures } from '../safeSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const safeAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
  'function nonce() view returns (uint256)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function getModulesPaginated(address start, uint256 pageSize) view returns (address[] array, address next)',
])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])
/** The head of a Safe's owner list: the previous owner of the first one. */
const SENTINEL: Address = '0x0000000000000000000000000000000000000001'
const swapOwner = (previous: Address, old: Address, replacement: Address) =>
  encodeFunctionData({
    abi: parseAbi(['function swapOwner(address prevOwner, address oldOwner, address newOwner)']),
    functionName: 'swapOwner',
    args: [previous, old, replacement],
  })
const attackAbi = parseAbi(['function sweep(address to, uint256 value, bytes data)', 'function sweep(address safe)'])
const GUARD_SLOT = '0x4a204f620c8c5ccdca3fd54d003badd85ba500436a431f0cbda4f558c93c34c8'

// Each test executes transactions for real; the devnet goes back to its fixtures afterwards.
const fx = devnetRolledBackPerTest()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const validateMessage = messageResponseValidator()

const owner = (index: number) => fx().accounts[index]?.address as Address
const kinds = (warnings: Warning[]) => warnings.map((warning) => `${warning.severity} ${warning.kind}`)
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()
const diffs = (changes: StateChange[] | undefined) => (changes ?? []).map((change) => change.humanReadableDiff)

const signatures = (tx: SafeTx) => ownerSignatures(fx(), tx)

async function proposal(scenario: SafeScenario): Promise<SafeTx> {
  const nonce = await chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName: 'nonce' })
  return SAFE_SCENARIOS[scenario].build(fx(), nonce)
}

/** Owner 1 is asked to sign the proposal as typed data. */
async function scanProposal(tx: SafeTx) {
  const { response, roundTrips } = await scanMessageOk(
    {
      message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fx().chainId, fx().safe.address, tx) },
      userAccount: owner(1),
      metadata: { origin: 'https://app.safe.global' },
    },
    fx().rpcUrl,
  )
  expect(validateMessage(response)).toEqual([])
  return { response, roundTrips }
}

/** Owner 0 executes it with both signatures: an ordinary eth_sendTransaction, no preset. */
async function scanExecution(tx: SafeTx): Promise<{ response: ScanTransactionsResponse; roundTrips: number }> {
  const { outcome, stats } = await scanTransactionsWithStats(
    {
      txObjects: [{ from: owner(0), to: fx().safe.address, data: execTransactionData(tx, await signatures(tx)) }],
      userAccount: owner(0),
      metadata: { origin: 'https://app.safe.global' },
    },
    { rpcUrl: fx().rpcUrl },
  )
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

/** Executes it on the devnet from dev account 7 with the owners' signatures. */
async function execute(tx: SafeTx): Promise<void> {
  const executor = createWalletClient({
    chain: foundry,
    transport: http(fx().rpcUrl),
    account: privateKeyToAccount(fx().accounts[7]?.privateKey as Hex),
  })
  const hash = await executor.sendTransaction({
    to: fx().safe.address,
    data: execTransactionData(tx, await signatures(tx)),
  })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
}

const slot0 = async () =>
  `0x${((await chain().getStorageAt({ address: fx().safe.address, slot: '0x0' })) ?? '').slice(-40)}`

const safeKey = () => fx().safe.address.toLowerCase() as Address

describe('a Safe takeover ends at BLOCK, proven by the simulation', () => {
  it('a delegatecall into code that swaps the singleton → CRITICAL, BLOCK, in the proposal and its execution', async () => {
    const tx = await proposal('safe-takeover')
    const { response, roundTrips } = await scanProposal(tx)
    expect(roundTrips).toBe(1)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toEqual(['CRITICAL SET_OWNER_AUTHORITY', 'CRITICAL SET_OWNER_AUTHORITY'])
    expect(response.warnings.map((warning) => warning.message).join(' ')).toContain(
      'move every asset the Safe holds, refuse every later transaction and answer signature checks in the Safe’s name',
    )
    const [change] = response.simulationResults.expectedStateChanges
    expect(change?.rawInfo).toEqual({
      kind: 'SAFE_CONFIGURATION_CHANGE',
      data: {
        contract: { address: safeKey(), kind: 'ACCOUNT' },
        field: 'singleton',
        before: fx().safeContracts.singleton.toLowerCase(),
        after: fx().safeAttacks.singleton.toLowerCase(),
      },
    })
    expect(change?.humanReadableDiff).toMatch(/^Singleton: Safe 1\.4\.1 \(0x4167…461a\) → 0x[0-9a-f]{4}…[0-9a-f]{4}$/)

    const executed = await scanExecution(tx)
    expect(executed.roundTrips).toBe(1)
    expect(executed.response.action).toBe('BLOCK')
    expect(diffs(executed.response.simulationResults.aggregated.expectedStateChanges[safeKey()])).toEqual([
      change?.humanReadableDiff,
    ])

    // Reality: executed, the Safe runs the attacker's code, and the attacker alone empties it.
    await execute(tx)
    expect(await slot0()).toBe(fx().safeAttacks.singleton.toLowerCase())
    const attacker = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[8]?.privateKey as Hex),
    })
    const held = await chain().getBalance({ address: fx().safe.address })
    const hash = await attacker.writeContract({
      address: fx().safe.address,
      abi: attackAbi,
      functionName: 'sweep',
      args: [safeAttacker(fx()), held, '0x'],
    })
    await waitForReceipt(chain(), hash)
    expect(await chain().getBalance({ address: fx().safe.address })).toBe(0n)
  })

  it('a MultiSend batch hiding a delegatecall → CRITICAL, BLOCK, with the batch’s transfer still shown', async () => {
    const tx = await proposal('safe-hidden-delegatecall')
    const { response } = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toContain('CRITICAL SET_OWNER_AUTHORITY')
    expect(response.warnings[0]?.message).toContain(fx().safeAttacks.swapper.slice(0, 6).toLowerCase())
    expect(diffs(response.simulationResults.expectedStateChanges)).toEqual([
      expect.stringMatching(/^Singleton: Safe 1\.4\.1/),
      'Send 1 ETH',
    ])
    expect((await scanExecution(tx)).response.action).toBe('BLOCK')
    await execute(tx)
    expect(await slot0()).toBe(fx().safeAttacks.singleton.toLowerCase())
  })

  it('enabling an unknown module → CRITICAL, BLOCK; executed, the module empties the Safe without any owner', async () => {
    const tx = await proposal('safe-enable-module')
    const { response } = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toEqual(['CRITICAL SET_OWNER_AUTHORITY'])
    expect(response.warnings[0]?.message).toContain('a module can move every asset without any owner’s confirmation')
    expect(diffs(response.simulationResults.expectedStateChanges)).toEqual([
      `Modules: enables ${short(fx().safeAttacks.module)}`,
    ])
    expect((await scanExecution(tx)).response.action).toBe('BLOCK')

    await execute(tx)
    const [modules] = await chain().readContract({
      address: fx().safe.address,
      abi: safeAbi,
      functionName: 'getModulesPaginated',
      args: ['0x0000000000000000000000000000000000000001', 10n],
    })
    expect(modules).toEqual([fx().safeAttacks.module])
    const stranger = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[6]?.privateKey as Hex),
    })
    const before = await chain().getBalance({ address: safeAttacker(fx()) })
    const hash = await stranger.writeContract({
      address: fx().safeAttacks.module,
      abi: attackAbi,
      functionName: 'sweep',
      args: [fx().safe.address],
    })
    await waitForReceipt(chain(), hash)
    expect(await chain().getBalance({ address: safeAttacker(fx()) })).toBe(before + parseEther('100'))
  })

  it('setting an unknown guard → CRITICAL, BLOCK; executed, the Safe can never execute again', async () => {
    const tx = await proposal('safe-set-guard')
    const { response } = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toEqual(['CRITICAL SET_OWNER_AUTHORITY'])
    expect(response.warnings[0]?.message).toContain('refuse every later transaction')
    expect(diffs(response.simulationResults.expectedStateChanges)).toEqual([
      expect.stringMatching(/^Transaction guard: none → 0x[0-9a-f]{4}…[0-9a-f]{4}$/),
    ])
    expect((await scanExecution(tx)).response.action).toBe('BLOCK')

    await execute(tx)
    const guard = await chain().getStorageAt({ address: fx().safe.address, slot: GUARD_SLOT })
    expect(guard).toBe(pad(fx().safeAttacks.guard.toLowerCase() as Hex))
    await expect(execute(await proposal('safe-honest-batch'))).rejects.toThrow(/locked|revert/i)
  })

  it('adding an owner and lowering the threshold to 1 → CRITICAL, BLOCK, with the new owners and threshold spelled out', async () => {
    const tx = await proposal('safe-add-owner')
    const { response } = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toEqual(['CRITICAL USER_ACCOUNT_OWNER_CHANGE'])
    const message = response.warnings[0]?.message ?? ''
    expect(message).toContain('threshold 2 → 1')
    expect(message).toContain('any single one of them alone would control the Safe')
    for (const address of [safeAttacker(fx()), owner(0), owner(1), owner(2)]) {
      expect(message).toContain(address.slice(0, 6).toLowerCase())
    }
    expect(response.warnings[0]?.data).toMatchObject({ threshold: '1' })
    expect(diffs(response.simulationResults.expectedStateChanges)).toEqual([
      `Owners: adds ${short(safeAttacker(fx()))} (3 → 4 owners)`,
      'Threshold: 2 → 1 (any single owner then controls the Safe)',
    ])
    const executed = await scanExecution(tx)
    expect(executed.response.action).toBe('BLOCK')
    expect(diffs(executed.response.simulationResults.aggregated.expectedStateChanges[safeKey()])).toEqual(
      diffs(response.simulationResults.expectedStateChanges),
    )

    await execute(tx)
    const read = (functionName: 'getOwners' | 'getThreshold') =>
      chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName })
    expect(await read('getOwners')).toEqual([safeAttacker(fx()), owner(0), owner(1), owner(2)])
    expect(await read('getThreshold')).toBe(1n)
  })

  it('every owner, the signer included, swapped for outsiders in one batch → CRITICAL, BLOCK; executed, none remains', async () => {
    const before = await chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName: 'getOwners' })
    const fresh = [safeAttacker(fx()), owner(5), owner(6)]
    const swaps = before.map((old, index) => {
      const swap = swapOwner(index === 0 ? SENTINEL : (fresh[index - 1] as Address), old, fresh[index] as Address)
      return encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [0, fx().safe.address, 0n, BigInt(size(swap)), swap],
      )
    })
    const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [concat(swaps)] })
    const nonce = await chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName: 'nonce' })
    const tx = { ...plainSafeTx(fx().safeContracts.multiSendCallOnly, 0n, nonce, data), operation: 1 }
    const { response } = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(kinds(response.warnings)).toEqual(['CRITICAL USER_ACCOUNT_OWNER_CHANGE'])
    expect(response.warnings[0]?.message).toContain('None of its current owners would remain')

    await execute(tx)
    const after = await chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName: 'getOwners' })
    expect(after.some((address) => before.includes(address))).toBe(false)
  })

  it('an honest MultiSendCallOnly batch → NONE, with its transfers, exactly as the devnet then moves them', async () => {
    const tx = await proposal('safe-honest-batch')
    const { response } = await scanProposal(tx)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    expect(diffs(response.simulationResults.expectedStateChanges)).toEqual(['Send 1 ETH', 'Send 100 USDC'])
    const executed = await scanExecution(tx)
    expect(executed.response.action).toBe('NONE')
    const payee = fx().accounts[3]?.address as Address
    expect(
      diffs(executed.response.simulationResults.aggregated.expectedStateChanges[payee.toLowerCase() as Address]),
    ).toEqual(['Receive 1 ETH', 'Receive 100 USDC'])

    const usdc = () =>
      chain().readContract({ address: fx().erc20.address, abi: erc20Abi, functionName: 'balanceOf', args: [payee] })
    const [eth, tokens] = [await chain().getBalance({ address: payee }), await usdc()]
    await execute(tx)
    expect(await chain().getBalance({ address: payee })).toBe(eth + HONEST_BATCH.eth)
    expect(await usdc()).toBe(tokens + HONEST_BATCH.usdc)
  })

  it('a change no shown call explains (a module’s inner call) → CRITICAL', async () => {
    // The module is already enabled; the transaction asks it to sweep, and a delegate call elsewhere is not needed:
    // here the "hidden inner call" is the module adding an owner through execTransactionFromModule.
    await execute(await proposal('safe-enable-module'))
    const addOwner = encodeFunctionData({
      abi: parseAbi(['function addOwnerWithThreshold(address owner, uint256 _threshold)']),
      functionName: 'addOwnerWithThreshold',
      args: [safeAttacker(fx()), 1n],
    })
    // The attacker impersonates the module (anvil), as a module's own logic would call the Safe.
    const moduleCall = encodeFunctionData({
      abi: parseAbi(['function execTransactionFromModule(address to, uint256 value, bytes data, uint8 operation)']),
      functionName: 'execTransactionFromModule',
      args: [fx().safe.address, 0n, addOwner, 0],
    })
    const { outcome } = await scanTransactionsWithStats(
      {
        txObjects: [{ from: fx().safeAttacks.module, to: fx().safe.address, data: moduleCall }],
        userAccount: fx().safe.address,
        metadata: { origin: 'https://example.org' },
      },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(outcome.response.action).toBe('BLOCK')
    expect(kinds(outcome.response.warnings)).toEqual([
      'CRITICAL USER_ACCOUNT_OWNER_CHANGE',
      'CRITICAL USER_ACCOUNT_OWNER_CHANGE',
    ])
    expect(outcome.response.warnings[0]?.message).toContain('yet no call in this transaction asks for that')
  })
})

describe('the devnet’s Safe is the canonical one', () => {
  it('sits at the addresses @safe-global/safe-deployments lists, so no devnet special case exists', () => {
    expect(fx().safeContracts).toMatchObject({
      singleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
      multiSend: '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526',
      multiSendCallOnly: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
      fallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
      proxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
    })
    expect(zeroAddress).toBe('0x0000000000000000000000000000000000000000')
  })
})
