/**
 * The scan runner: one eth_simulateV1 call with three parts — reads before, the transactions' block (a block each
 * only for a bundle more than one block holds), reads after — so one request sees one consistent state. The reads
 * before run in the transactions' own block ahead of them, so the transactions run in the first simulated block, the
 * one the chain mines them in; only reads that do not fit beside them take blocks before it (blockLayout.ts). A second
 * call (same base block) happens only when the transactions touched assets or accounts their calldata did not reveal;
 * a sell probe of a token the user buys (sellProbe.ts) travels beside it, or alone when there is none.
 */
import { type Address, getAddress, type Hex, isAddressEqual, numberToHex, pad, zeroAddress } from 'viem'
import type { EngineError } from '../api/index.ts'
import {
  type Call,
  decodeExecTransaction,
  expandCalls,
  isSafeConfig,
  multisigPreset,
  rememberThreshold,
  SAFE_NONCE_SLOT,
  type SafeConfig,
  type SafeConfigChange,
  type SafeContext,
  type SimulationOverrides,
  safeConfigChanges,
  safeContext,
} from '../safe/index.ts'
import { type ApprovalEvent, assetEventsFromLogs, type Movement, type SimulatedLog } from './assetEvents.ts'
import { firstBlockShare, inBlocksWithin, readsAhead, type TxLayout, transactionBlocks } from './blockLayout.ts'
import { fetchChainId, knownChainId } from './chain.ts'
import { type ControlEvent, controlEvents, controlReads } from './controlEvents.ts'
import { type ChainHead, chainHead, type EnvironmentProbe, probeEnvironment } from './environmentProbe.ts'
import { type CreditDelegation, creditDelegations, lendingReads } from './lendingEvents.ts'
import { withFreshRandomness } from './nextBlock.ts'
import { POOL_DEPTH_ADDRESS, POOL_DEPTH_CODE } from './poolDepthRead.ts'
import { type AssetPlan, predictReads, priceReadsForEvents, readsForEvents } from './readPlan.ts'
import { READER_ADDRESS, READER_CODE, type Read, type ReadResults, readOnlyCall, WRITES_STATE } from './reads.ts'
import { type NodeAccess, type RpcClient, RpcFailure, type RpcStats, rpcClientFor } from './rpc.ts'
import {
  SAFE_INSPECTOR_ADDRESS,
  SAFE_INSPECTOR_CODE,
  safeConfigFromReads,
  safeConfigKey,
  safeMembersReads,
} from './safeConfigRead.ts'
import { loggedCandidates, memberCandidates } from './safeMembers.ts'
import { type ProbeBase, probeSells, type SellProbe, sellTargets } from './sellProbe.ts'
import { refusalAdvice } from './simulateRefusal.ts'
import {
  blockTimestamp,
  callOutput,
  checkSimulateResult,
  type RpcBlockResult,
  type RpcCallResult,
} from './simulateResponse.ts'
import { cachedTokenMetadata } from './tokenMetadata.ts'

/** The fee a transaction offers per gas: a legacy gas price, or EIP-1559 caps. */
export type TxFees =
  | { kind: 'legacy'; gasPrice: bigint }
  | { kind: 'eip1559'; maxFeePerGas: bigint | null; maxPriorityFeePerGas: bigint | null }

/** One transaction to simulate, normalised. Its fees are judged, not simulated (the simulation charges none). */
export type SimulationTx = {
  from: Address
  to: Address | null
  data: Hex
  value: bigint
  gas: bigint | null
  fees?: TxFees
}

type StorageOverride = { address: Address; slot: Hex; value: Hex }
type CodeOverride = { address: Address; code: Hex }

/** A storage slot or value as the 32-byte word eth_simulateV1 expects. */
export function toWord(value: bigint): Hex {
  return pad(numberToHex(value), { size: 32 })
}

/** Everything one simulation needs, already validated. */
export type SimulationInput = {
  txs: SimulationTx[]
  userAccount: Address
  /** Block to simulate on top of; null for the latest. */
  blockNumber: bigint | null
  /** Native balance overrides, in force from the before-reads on (simulatorConfig.stateOverrides.nativeBalances). */
  balances: { address: Address; value: bigint }[]
  /** Storage overrides, in force from the before-reads on (simulatorConfig.stateOverrides.storage). */
  storage: StorageOverride[]
  /** Wallets under the MULTISIG_WALLET preset: their execTransactions carry confirmations enough (safe/preset.ts). */
  multisigWallets: Address[]
  /** Storage overrides that start with the transactions, e.g. a Safe's nonce slot for a typed-data message. */
  transactionStorage?: StorageOverride[]
  /** Code placed from the transactions on, e.g. the multisig preset's signers. */
  transactionCode?: CodeOverride[]
  /**
   * More addresses whose Safe configuration to read before and after the transactions; preset wallets, the user
   * account and the Safe of every execTransaction in the calldata are always read.
   */
  safes?: Address[]
  /** More reads to make before (and for state reads, after) the transactions, e.g. a permit's token metadata. */
  extraReads?: Read[]
  /** The scan's asset knowledge for a chain (known tokens, pools, price reads), once the chain is known. */
  assets?: (chainId: number) => AssetPlan
  /** Tokens to price beyond those the transactions name, e.g. a permit's or an order's tokens. */
  priceTokens?: Address[]
  /** Which tokens the user buys are worth a sell probe on a chain (sellProbe.ts); without it, none are probed. */
  sellProbe?: (chainId: number) => (token: Address) => boolean
}

/** The input as simulated: whether the caller's overrides that start with the transactions could be seen by a read. */
type PreparedInput = SimulationInput & { transactionsOverrideReads: boolean }

/** How one transaction went in the simulation. */
export type TxOutcome = {
  /** The transaction as simulated (signatures replaced under the preset). */
  tx: SimulationTx
  status: 'success' | 'failed'
  returnData: Hex
  logs: SimulatedLog[]
  gasUsed: bigint
  /** The node's error for a failed transaction, e.g. "execution reverted" or "out of gas". */
  error: { code: number | null; message: string } | null
}

/** The engine's internal model of a simulation, before rendering to any API version. */
export type SimulationResult = {
  chainId: number
  outcomes: TxOutcome[]
  /** Why the node refused to simulate the list as a whole (then outcomes are empty), or null. */
  failure: string | null
  reads: ReadResults
  /**
   * Unix time of the first block the before-reads ran in, the transactions' own unless reads spilled into blocks before
   * it (what prices are judged fresh against), null if the node omits it.
   */
  blockTime: bigint | null
  /** Safe context per wallet address read (lowercase key), null when the address is not a Safe. */
  safes: Map<string, SafeContext | null>
  /** What the transactions changed in the configuration of each Safe read (singleton, owners, modules, …). */
  safeChanges: SafeConfigChange[]
  movements: Movement[]
  approvals: ApprovalEvent[]
  /** Changes of who controls a contract the logs report (ownership, roles, a proxy's code or admin). */
  controls: ControlEvent[]
  /** Aave credit delegations the logs report, in log order. */
  delegations: CreditDelegation[]
  /** The base fee of the block the transactions would follow, when a transaction sets fees and the node has one. */
  baseFeePerGas: bigint | null
  /** How selling back each token the user buys went, when the scan probed it; empty when the probe failed. */
  sellProbes: SellProbe[]
  /** The transactions run as a block runs them, when the scan was asked to (RunOptions.probeEnvironment) and could. */
  environmentProbe: EnvironmentProbe | null
  /** Contracts whose read failed as a static call and succeeded when allowed to write: they write state when read. */
  stateWritingReads: Address[]
  stats: RpcStats
}

type RunOptions = NodeAccess & {
  chainId?: number
  /** Also run the transactions as a block runs them (environmentProbe.ts): one more call, at most one round trip. */
  probeEnvironment?: boolean
}

export type RunOutcome = { ok: true; result: SimulationResult } | { ok: false; error: EngineError }

/** The gas of a transfer that runs no code. */
const PLAIN_TRANSFER_GAS = 21_000n

/**
 * Gas a read through the reader may use (a view of another contract, a balance, a code size): the view gets three
 * quarters of it, more than the 100,000 PoolDepth.sol allows any honest view; the heaviest the scan tests make uses
 * 40,556. Bounded so a hostile token cannot eat the block, and small so a scan's reads fit in its transactions' block.
 */
const VIEW_READ_GAS = 250_000n

/** Gas a read of the engine's own probes may use (SafeInspector.sol, PoolDepth.sol): they bound what they call. */
const PROBE_READ_GAS = 1_000_000n

/**
 * How long a scan waits for its probes (of a sale, of the environment) beyond the rest of its calls: a probe only
 * adds a warning, so a node slow to answer it costs the warning, never the scan (a scan API answers 504 after 20 s).
 */
export const PROBE_TIMEOUT_MS = 5_000

/** Runs the transactions with the reads they need and returns the internal model (1 round trip, at most 2). */
export async function runSimulation(given: SimulationInput, options: RunOptions): Promise<RunOutcome> {
  const client = rpcClientFor(options)
  const { input, txs, signers } = withMultisigPreset(given, options.rpcUrl)
  const calls: Call[] = txs.map((tx) => ({ ...tx, depth: 0 }))
  const expanded = calls.flatMap(expandCalls)
  // The Safes whose own transactions run here (a proposal, a message's Safe, an execTransaction's): only they can run a
  // delegate call that writes their mappings, so only they are asked about the addresses the transactions mention.
  const proposing = unique([
    ...input.multisigWallets,
    ...(input.safes ?? []),
    ...expanded.flatMap((call) => (call.to && decodeExecTransaction(call.data) ? [call.to] : [])),
  ])
  const safes = unique([...proposing, input.userAccount])
  const candidates = memberCandidates(safes, expanded, signers)
  let chainId = knownChainId(options.rpcUrl, options.chainId)
  const metadataNeeded = (token: Address) => cachedTokenMetadata(chainId, token) === undefined
  const mayBeNft = (token: Address) => (cachedTokenMetadata(chainId, token)?.decimals ?? null) === null
  const assetPlan = (id: number | null) => (id === null || !input.assets ? null : priceable(input.assets(id), id))
  const plan = predictReads(calls, [input.userAccount], safes, metadataNeeded, mayBeNft, assetPlan(chainId))
  for (const read of proposing.flatMap((wallet) => safeMembersReads(wallet, candidates))) plan.set(read.key, read)
  for (const read of assetPlan(chainId)?.priceReads(input.priceTokens ?? []) ?? []) plan.set(read.key, read)
  for (const read of input.extraReads ?? []) plan.set(read.key, read)
  try {
    // Asked in the same JSON-RPC batch as the simulation, so an unknown chain costs no extra round trip.
    const chainIdRequest =
      chainId === null
        ? fetchChainId(client, options.rpcUrl).then(
            (id) => ({ id }),
            (error: unknown) => ({ error }),
          )
        : null
    // Fees are judged against the base fee of the block the transactions build on: asked in the same batch.
    const baseFeeRequest = txs.some((tx) => tx.fees)
      ? baseFeeOf(client, input.blockNumber).catch(() => null)
      : Promise.resolve(null)
    // What the environment probe runs with, asked in the same batch too.
    const headRequest: Promise<ChainHead | null> = options.probeEnvironment
      ? chainHead(client, blockTag(input.blockNumber)).catch(() => null)
      : Promise.resolve(null)
    let phase = await simulate(client, input, txs, plan, input.blockNumber)
    const baseFeePerGas = await baseFeeRequest
    const head = await headRequest
    if (chainIdRequest) {
      const answer = await chainIdRequest
      if ('error' in answer) throw answer.error
      chainId = answer.id
    }
    if (chainId === null) throw new RpcFailure('BAD_ANSWER', 'The node did not say which chain it serves.', null)
    let probing: Promise<SellProbe[]> | null = null
    let probingEnvironment: Promise<EnvironmentProbe | null> | null = null
    // Only code can read the block: transfers that ran none (21,000 gas each, all a plain send costs) need no probe.
    if (phase.ok && head && phase.outcomes.some((outcome) => outcome.gasUsed > PLAIN_TRANSFER_GAS)) {
      // Started before the second call, in the same tick, as the sell probe is.
      const outcomes = phase.outcomes
      const probed = txs.map((tx, index) => ({ ...tx, gasUsed: outcomes[index]?.gasUsed ?? 0n }))
      const { stateOverrides } = probeBase(input, txs)
      probingEnvironment = probeEnvironment(client, stateOverrides, probed, head, blockTag(input.blockNumber), chainId)
    }
    if (phase.ok) {
      const logs = phase.outcomes.flatMap((outcome) => outcome.logs)
      const events = assetEventsFromLogs(logs)
      const targets = input.sellProbe ? sellTargets(events.movements, input.userAccount, input.sellProbe(chainId)) : []
      // Asked before the second call, in the same tick: when there is one, both travel in one batch.
      if (targets.length > 0) {
        const tag = blockTag(input.blockNumber)
        // Its failure is handled at once: the second call may throw first, and then nothing awaits the probe.
        probing = probeSells(client, probeBase(input, txs), targets, input.userAccount, tag, phase.layout).catch(
          noProbeOnNodeFailure,
        )
      }
      const needed = readsForEvents(events.movements, events.approvals, metadataNeeded)
      for (const read of controlReads(controlEvents(logs), input.userAccount)) needed.set(read.key, read)
      for (const read of lendingReads(creditDelegations(logs), events.approvals, metadataNeeded)) {
        needed.set(read.key, read)
      }
      const missing = [...needed].filter(([key]) => !plan.has(key))
      if (missing.length > 0) {
        for (const [key, read] of missing) plan.set(key, read)
        // A payload chooses what it logs: the logs' addresses are asked about only when this call is made anyway.
        const logged = loggedCandidates(logs, candidates, signers)
        const { before } = phase.reads
        for (const wallet of safes.filter((safe) => isSafeConfig(before.get(safeConfigKey(safe)) as SafeConfig))) {
          for (const read of safeMembersReads(wallet, logged)) plan.set(read.key, read)
        }
        const assets = assetPlan(chainId)
        if (assets)
          for (const read of priceReadsForEvents(events.movements, events.approvals, assets)) plan.set(read.key, read)
        // Same block tag: the second call is self-consistent (its reads and transactions share one state) even
        // if a block arrived in between; node block numbering of simulated blocks differs (anvil vs geth).
        phase = await simulate(client, input, txs, plan, input.blockNumber, phase.layout)
      }
    }
    // Most scans probe nothing: no timer, no race.
    const sellProbes = probing ? await withinProbeTime(probing, []) : []
    const environmentProbe = probingEnvironment ? await withinProbeTime(probingEnvironment, null) : null
    const result = phase.ok ? phase : { ...phase, outcomes: [], reads: emptyReads() }
    const logs = result.outcomes.flatMap((outcome) => outcome.logs)
    const events = assetEventsFromLogs(logs)
    const configs = safes.map((wallet) => ({
      wallet,
      before: safeConfigFromReads(wallet, result.reads, 'before'),
      after: safeConfigFromReads(wallet, result.reads, 'after'),
    }))
    for (const { wallet, before, after } of configs) {
      if (!before?.threshold || !input.multisigWallets.some((preset) => isAddressEqual(preset, wallet))) continue
      // A proposal that raises the threshold leaves the next one needing the higher count.
      const threshold = after && after.threshold > before.threshold ? after.threshold : before.threshold
      rememberThreshold(options.rpcUrl, wallet, threshold)
    }
    return {
      ok: true,
      result: {
        chainId,
        outcomes: result.outcomes,
        failure: phase.ok ? null : phase.failure,
        reads: result.reads,
        blockTime: result.ok ? result.blockTime : null,
        safes: new Map(
          configs.map(({ wallet, before }) => [
            wallet.toLowerCase(),
            isSafeConfig(before) ? safeContext(wallet, before) : null,
          ]),
        ),
        safeChanges: configs.flatMap(({ wallet, before, after }) =>
          isSafeConfig(before) && after
            ? safeConfigChanges(wallet, before, after, overridesOf(input, wallet), logs)
            : [],
        ),
        movements: events.movements,
        approvals: events.approvals,
        controls: controlEvents(logs),
        delegations: creditDelegations(logs),
        baseFeePerGas,
        // A probe of a simulation the node then refused would judge transactions the scan cannot show.
        sellProbes: phase.ok ? sellProbes : [],
        environmentProbe: phase.ok ? environmentProbe : null,
        stateWritingReads: phase.ok ? phase.stateWritingReads : [],
        stats: client.stats,
      },
    }
  } catch (error) {
    // Only the node's failures are RPC errors; anything else is a bug and reaches the scan's INTERNAL handler.
    if (!(error instanceof RpcFailure)) throw error
    return { ok: false, error: { kind: 'RPC_ERROR', reason: error.kind, message: error.message } }
  }
}

type Phase =
  | {
      ok: true
      outcomes: TxOutcome[]
      reads: ReadResults
      blockTime: bigint | null
      stateWritingReads: Address[]
      overflow: boolean
      layout: TxLayout
    }
  | { ok: false; failure: string; overflow: boolean; layout: TxLayout }

/** A geth or reth refusal of a call whose declared gas is more than its block has left. */
const BLOCK_GAS_EXCEEDED = -38015

/**
 * The transactions simulated in one block, as a bundle is mined (a wallet's wallet_sendCalls, an atomic batch: one
 * block, one block.number and timestamp); only a bundle more than one block holds (the node refuses it, or runs a
 * later transaction out of the block's gas), which cannot be mined in one block either, again a block each; `layout`
 * is the one an earlier call of the scan settled on. A block each for every bundle let a second transaction that pays
 * the attacker only in the first one's block show harmless.
 */
async function simulate(
  client: RpcClient,
  input: PreparedInput,
  txs: SimulationTx[],
  plan: Map<string, Read>,
  blockNumber: bigint | null,
  layout: TxLayout = 'oneBlock',
): Promise<Phase> {
  const phase = await simulateIn(layout, client, input, txs, plan, blockNumber)
  if (layout === 'oneBlock' && txs.length > 1 && phase.overflow) {
    return simulateIn('blockEach', client, input, txs, plan, blockNumber)
  }
  return phase
}

/** An asset plan that prices no token known to be an NFT (cached metadata without decimals): NFTs have no feed or pool. */
function priceable(plan: AssetPlan, chainId: number): AssetPlan {
  const fungible = (token: Address) => cachedTokenMetadata(chainId, token)?.decimals !== null
  return { ...plan, priceReads: (tokens) => plan.priceReads(tokens.filter(fungible)) }
}

/** The base fee of block `blockNumber` (the latest when null); null on a chain without EIP-1559. */
async function baseFeeOf(client: RpcClient, blockNumber: bigint | null): Promise<bigint | null> {
  const tag = blockTag(blockNumber)
  const block = (await client.request('eth_getBlockByNumber', [tag, false])) as { baseFeePerGas?: unknown } | null
  const fee = block?.baseFeePerGas
  return typeof fee === 'string' && /^0x[0-9a-f]+$/i.test(fee) ? BigInt(fee) : null
}

async function simulateIn(
  layout: TxLayout,
  client: RpcClient,
  input: PreparedInput,
  txs: SimulationTx[],
  plan: Map<string, Read>,
  blockNumber: bigint | null,
): Promise<Phase> {
  const reads = [...plan.values()]
  const stateReads = reads.filter((read) => read.timing === 'state')
  // geth and reth give a block's calls its gas limit in all: a bundle more than one block holds gets a block each.
  const [declaredFirst = [], ...moreTxs] = transactionBlocks(txs.map(txCall), layout)
  // Overrides the caller starts with the transactions (a message's nonce) must not reach the before-reads: those keep
  // blocks of their own. The preset's (owner slots and code of random signers no read asks about) reach nothing.
  const probes = reads.filter(isProbeRead)
  const share = input.transactionsOverrideReads
    ? { viewGas: VIEW_READ_GAS, txGas: null }
    : firstBlockShare(
        reads.length - probes.length,
        PROBE_READ_GAS * BigInt(probes.length),
        declaredGas(declaredFirst),
        declaredFirst.length,
        VIEW_READ_GAS,
      )
  const firstTx = declaredFirst.map((call) => withGasAtMost(call, share.txGas))
  const gasAhead = (read: Read) => (isProbeRead(read) ? PROBE_READ_GAS : share.viewGas)
  const { apart, ahead } = input.transactionsOverrideReads
    ? { apart: reads, ahead: [] }
    : readsAhead(reads, gasAhead, declaredGas(firstTx))
  const before = apart.length > 0 ? inBlocksWithin(apart, readGas) : []
  const after = inBlocksWithin(stateReads, readGas)
  const code = injectedCode(reads)
  const txBlock = {
    stateOverrides: before.length > 0 ? transactionOverrides(input) : allOverrides(input, code),
    calls: [...ahead.map((read) => readCall(read, gasAhead(read))), ...firstTx],
  }
  const simulatedBlocks = [
    ...before.map((block, index) => ({
      ...(index === 0 ? { stateOverrides: inputOverrides(input, code) } : {}),
      calls: block.map((read) => readCall(read, readGas(read))),
    })),
    txBlock,
    ...moreTxs.map((calls) => ({ calls })),
    ...after.map((block) => ({ calls: block.map((read) => readCall(read, readGas(read))) })),
  ]
  // The spec's number for the first block, said outright on a known base: anvil numbers it as the base itself. Every
  // block's randomness is drawn afresh, as the chain's next blocks' is nobody's yet (nextBlock.ts).
  const firstNumber: Record<string, Hex> = blockNumber === null ? {} : { number: numberToHex(blockNumber + 1n) }
  const payload = {
    traceTransfers: true,
    validation: false,
    blockStateCalls: withFreshRandomness(simulatedBlocks, firstNumber),
  }
  let answer: unknown
  try {
    answer = await client.request('eth_simulateV1', [payload, blockTag(blockNumber)])
  } catch (error) {
    // The node answered but refused the whole simulation (e.g. a gas limit below the intrinsic cost): report it.
    if (error instanceof RpcFailure && error.code !== null && error.code !== -32601) {
      const advice = refusalAdvice(error.code)
      return {
        ok: false,
        failure: advice ? `${advice} (The node said: ${error.nodeMessage})` : error.message,
        overflow: error.code === BLOCK_GAS_EXCEEDED,
        layout,
      }
    }
    throw error
  }
  const checked = checkSimulateResult(answer, [
    ...before.map((block) => block.length),
    ahead.length + firstTx.length,
    ...moreTxs.map((block) => block.length),
    ...after.map((block) => block.length),
  ])
  if (!checked.ok) {
    throw new RpcFailure(
      'BAD_ANSWER',
      `The node returned a malformed eth_simulateV1 result: ${checked.problem}. Use a node that implements ` +
        'eth_simulateV1 (anvil, geth ≥ 1.14.9, reth, Nethermind).',
      null,
    )
  }
  const blocks = checked.blocks
  const calls = (part: typeof blocks) => part.flatMap((block) => block.calls)
  const afterStart = before.length + 1 + moreTxs.length
  const txBlockResult = blocks[before.length] as RpcBlockResult
  const moreTxResults = blocks.slice(before.length + 1, afterStart)
  const firstCalls = txBlockResult.calls
  const beforeCalls = [...calls(blocks.slice(0, before.length)), ...firstCalls.slice(0, ahead.length)]
  const txCalls = [...firstCalls.slice(ahead.length), ...calls(moreTxResults)]
  const afterCalls = calls(blocks.slice(afterStart))
  return {
    ok: true,
    overflow: layout === 'oneBlock' && ranOutOfBlockGas(txBlockResult, ahead.length),
    layout,
    outcomes: txCalls.map((call, index) => toOutcome(call, txs[index] as SimulationTx)),
    reads: { before: decodeReads(reads, beforeCalls), after: decodeReads(stateReads, afterCalls) },
    blockTime: blockTimestamp(blocks[0] as (typeof blocks)[number]),
    stateWritingReads: stateWritingTargets([...reads, ...stateReads], [...beforeCalls, ...afterCalls]),
  }
}

/**
 * Whether a transaction after the first ran out of gas once the block's calls had used its gas limit (geth and reth
 * give a call without a gas limit what the calls before it left): a bundle more than one block holds. The block's
 * first `reads` calls are reads: their gas counts toward the block's, they are not transactions.
 */
function ranOutOfBlockGas(block: RpcBlockResult, reads: number): boolean {
  const limit =
    typeof block.gasLimit === 'string' && /^0x[0-9a-f]+$/i.test(block.gasLimit) ? BigInt(block.gasLimit) : null
  let used = 0n
  for (const [index, call] of block.calls.entries()) {
    used += BigInt(call.gasUsed)
    const outOfGas = call.status !== '0x1' && /out of gas/i.test(call.error?.message ?? '')
    if (index > reads && outOfGas && (limit === null || used >= limit)) return true
  }
  return false
}

/** The gas `calls` declare in all (none for a call without a limit, as reth before v2.3.0 counts it). */
function declaredGas(calls: { gas?: Hex }[]): bigint {
  return calls.reduce((sum, call) => sum + (call.gas ? BigInt(call.gas) : 0n), 0n)
}

/** The gas a read declares: a probe's for the engine's SafeInspector and PoolDepth, a view's for any other. */
function readGas(read: Read): bigint {
  return isProbeRead(read) ? PROBE_READ_GAS : VIEW_READ_GAS
}

function isProbeRead(read: Read): boolean {
  return read.to === SAFE_INSPECTOR_ADDRESS || read.to === POOL_DEPTH_ADDRESS
}

/** A transaction's call declaring at most `cap` gas (null: as it declares); one declaring none is left to the node. */
function withGasAtMost<T extends { gas?: Hex }>(call: T, cap: bigint | null): T {
  return cap !== null && call.gas && BigInt(call.gas) > cap ? { ...call, gas: numberToHex(cap) } : call
}

/** No sell probe results when the node fails the probe: it only adds a warning, so the scan goes on without it. */
function noProbeOnNodeFailure(error: unknown): SellProbe[] {
  if (error instanceof RpcFailure) return []
  throw error
}

/** A probe's results, or `none` when the node has not answered them PROBE_TIMEOUT_MS after the rest of the scan. */
async function withinProbeTime<T>(probing: Promise<T>, none: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(none), PROBE_TIMEOUT_MS)
  })
  try {
    return await Promise.race([probing, late])
  } finally {
    clearTimeout(timer)
  }
}

/** The block tag of `blockNumber`, the latest when null. */
function blockTag(blockNumber: bigint | null): string {
  return blockNumber === null ? 'latest' : numberToHex(blockNumber)
}

/**
 * The first block of the sell and environment probes: the transactions on the scan's state, every override in force at
 * once (there are no before-reads to keep from the transactions' own overrides), without the engine's read code.
 */
function probeBase(input: SimulationInput, txs: SimulationTx[]): ProbeBase {
  return { stateOverrides: allOverrides(input, {}), calls: txs.map(txCall) }
}

/** Every override of the input at once, added to `overrides`: for a block that starts with the transactions. */
function allOverrides(
  input: SimulationInput,
  overrides: Record<string, AccountOverride>,
): Record<string, AccountOverride> {
  inputOverrides(input, overrides)
  addStorage(overrides, input.transactionStorage ?? [])
  addCode(overrides, input.transactionCode ?? [])
  return overrides
}

function txCall(tx: SimulationTx) {
  return {
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    data: tx.data,
    value: numberToHex(tx.value),
    ...(tx.gas !== null ? { gas: numberToHex(tx.gas) } : {}),
  }
}

type AccountOverride = { balance?: Hex; code?: Hex; stateDiff?: Record<Hex, Hex> }

/** The engine's read code by the (per-process random) address it is placed at: see injectedAddress.ts. */
const INJECTED_CODE: ReadonlyMap<Address, Hex> = new Map([
  [READER_ADDRESS, READER_CODE],
  [SAFE_INSPECTOR_ADDRESS, SAFE_INSPECTOR_CODE],
  [POOL_DEPTH_ADDRESS, POOL_DEPTH_CODE],
])

/**
 * The code `reads` call, placed in the first simulated block only (the before-reads' own, or the transactions' when
 * the reads run ahead of them): overrides last into the blocks after it, so the after-reads find it, and only the
 * code a scan uses travels (the pool depth probe's only with a price read). A read of any other contract goes through
 * the reader, as a static call (readCall).
 */
function injectedCode(reads: Read[]): Record<string, AccountOverride> {
  const overrides: Record<string, AccountOverride> = {}
  for (const read of reads) {
    const own = INJECTED_CODE.get(read.to)
    const [to, code] = own ? [read.to, own] : [READER_ADDRESS, READER_CODE]
    if (!overrides[to]) overrides[to] = { code }
  }
  return overrides
}

/**
 * A read as a call of the simulation. A read of a contract other than the engine's own goes through the reader as a
 * static call: a plain call would let a token's balanceOf or name() write a flag ahead of the transactions that its
 * transfer or claim then reads, to behave only in the simulation. The engine's own code makes static calls itself, or
 * undoes what it calls (PoolDepth.sol's swap, whose callback reverts).
 */
function readCall(read: Read, gas: bigint) {
  return INJECTED_CODE.has(read.to)
    ? { from: zeroAddress, to: read.to, data: read.data, gas: numberToHex(gas) }
    : { from: zeroAddress, to: READER_ADDRESS, data: readOnlyCall(read.to, read.data), gas: numberToHex(gas) }
}

/** The input's balance and storage overrides, added to `overrides`. */
function inputOverrides(
  input: SimulationInput,
  overrides: Record<string, AccountOverride>,
): Record<string, AccountOverride> {
  for (const { address, value } of input.balances) {
    overrides[address] ??= {}
    overrides[address].balance = numberToHex(value)
  }
  addStorage(overrides, input.storage)
  return overrides
}

function transactionOverrides(input: SimulationInput): Record<string, AccountOverride> {
  const overrides: Record<string, AccountOverride> = {}
  addStorage(overrides, input.transactionStorage ?? [])
  addCode(overrides, input.transactionCode ?? [])
  return overrides
}

/** The input under the multisig preset: its transactions as simulated, the preset's overrides starting with them. */
function withMultisigPreset(
  given: SimulationInput,
  node: string,
): {
  input: PreparedInput
  txs: SimulationTx[]
  signers: Address[]
} {
  // Only the caller's own overrides can be seen by a read: the preset's are at random signers no read asks about.
  const input = {
    ...given,
    transactionsOverrideReads: (given.transactionStorage ?? []).length + (given.transactionCode ?? []).length > 0,
  }
  const preset = multisigPreset(input.txs, input.multisigWallets, node)
  if (preset.signers.length === 0) return { input, txs: input.txs, signers: [] }
  const transactionStorage = [...preset.storage, ...(input.transactionStorage ?? [])]
  const transactionCode = [...preset.code, ...(input.transactionCode ?? [])]
  return { input: { ...input, transactionStorage, transactionCode }, txs: preset.txs, signers: preset.signers }
}

/** What the simulation's own overrides did to a Safe: a message's nonce. */
function overridesOf(input: SimulationInput, wallet: Address): SimulationOverrides {
  const nonce = (input.transactionStorage ?? []).find(
    (entry) => isAddressEqual(entry.address, wallet) && entry.slot === SAFE_NONCE_SLOT,
  )
  return { nonce: nonce ? BigInt(nonce.value) : null }
}

/** Adds storage overrides in place, in time linear in their number (a later entry for the same slot wins). */
function addStorage(overrides: Record<string, AccountOverride>, storage: StorageOverride[]): void {
  for (const { address, slot, value } of storage) {
    overrides[address] ??= {}
    const account = overrides[address]
    account.stateDiff ??= {}
    account.stateDiff[slot] = value
  }
}

/** Adds code overrides in place. */
function addCode(overrides: Record<string, AccountOverride>, code: CodeOverride[]): void {
  for (const { address, code: bytes } of code) {
    overrides[address] ??= {}
    overrides[address].code = bytes
  }
}

function toOutcome(call: RpcCallResult, tx: SimulationTx): TxOutcome {
  const success = call.status === '0x1'
  return {
    tx,
    status: success ? 'success' : 'failed',
    returnData: callOutput(call),
    logs: (call.logs ?? []).map((log) => ({ address: getAddress(log.address), topics: log.topics, data: log.data })),
    gasUsed: BigInt(call.gasUsed),
    error: success ? null : { code: call.error?.code ?? null, message: call.error?.message ?? 'execution failed' },
  }
}

function decodeReads(reads: Read[], calls: RpcCallResult[]): Map<string, unknown> {
  const values = new Map<string, unknown>()
  reads.forEach((read, index) => {
    const call = calls[index]
    if (call?.status !== '0x1' || call.returnData === '0x') return
    try {
      values.set(read.key, read.decode(call.returnData))
    } catch {
      // Not the expected return shape (e.g. a contract without that function): treat as not readable.
    }
  })
  return values
}

/** The contracts of `reads` whose call the reader refused with WritesState (readOnly in NativeBalanceReader.sol). */
function stateWritingTargets(reads: Read[], calls: RpcCallResult[]): Address[] {
  const targets = new Map<string, Address>()
  reads.forEach((read, index) => {
    const call = calls[index]
    if (call && call.status !== '0x1' && callOutput(call) === WRITES_STATE) {
      targets.set(read.to.toLowerCase(), getAddress(read.to))
    }
  })
  return [...targets.values()]
}

function emptyReads(): ReadResults {
  return { before: new Map(), after: new Map() }
}

function unique(addresses: Address[]): Address[] {
  const seen = new Map(addresses.map((address) => [address.toLowerCase(), getAddress(address)]))
  return [...seen.values()]
}
