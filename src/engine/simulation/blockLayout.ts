/**
 * How a simulation's calls are laid out in blocks, shared by the scan (runSimulation.ts) and the sell probe
 * (sellProbe.ts), so that the probe replays the user's transactions exactly as the scan ran them.
 */

/**
 * The gas one simulated block's calls may declare in all: the lowest block gas limit of the chains Preflight has
 * defaults for (and anvil's). reth before v2.3.0 refuses a block whose calls declare more (-38015), whatever they use.
 */
export const BLOCK_GAS_BUDGET = 30_000_000n

/** The user's transactions in one block, as a bundle is mined, or a block each when one block cannot hold them. */
export type TxLayout = 'oneBlock' | 'blockEach'

/** `calls` in blocks of at most `size`, in order; none is one empty block, so a layout never loses its place. */
export function inBlocksOf<T>(calls: T[], size: number): T[][] {
  const blocks: T[][] = []
  for (let start = 0; start < calls.length; start += size) blocks.push(calls.slice(start, start + size))
  return blocks.length > 0 ? blocks : [[]]
}

/** `calls` in blocks declaring at most BLOCK_GAS_BUDGET in all (`gasOf` each), in order; none is one empty block. */
export function inBlocksWithin<T>(calls: T[], gasOf: (call: T) => bigint): T[][] {
  const blocks: T[][] = []
  let block: T[] = []
  let declared = 0n
  for (const call of calls) {
    const gas = gasOf(call)
    if (block.length > 0 && declared + gas > BLOCK_GAS_BUDGET) {
      blocks.push(block)
      block = []
      declared = 0n
    }
    block.push(call)
    declared += gas
  }
  return [...blocks, block]
}

/**
 * The before-reads placed for the transactions to run in the first simulated block, the block the chain mines them in
 * (head + 1): `ahead`, the last reads that fit in that block beside the gas `besides` its transactions declare, run
 * there ahead of them; only the rest, `apart`, take blocks of their own before it, which push the transactions a block
 * later each. The reads are static calls, so running in the transactions' block changes nothing they see.
 */
export function readsAhead<T>(reads: T[], gasOf: (read: T) => bigint, besides: bigint): { apart: T[]; ahead: T[] } {
  let left = BLOCK_GAS_BUDGET - besides
  let start = reads.length
  while (start > 0 && gasOf(reads[start - 1] as T) <= left) {
    start -= 1
    left -= gasOf(reads[start] as T)
  }
  return { apart: reads.slice(0, start), ahead: reads.slice(start) }
}

/**
 * The least a view read declares when many share the transactions' block: the view gets three quarters, 60,000, past
 * the heaviest honest view the scan tests measure (40,556).
 */
export const MIN_VIEW_READ_GAS = 80_000n

/** How the before-reads and the transactions share the transactions' block: see firstBlockShare. */
export type FirstBlockShare = {
  /** The gas each view read declares. */
  viewGas: bigint
  /** The most gas each transaction there may declare, or null to run each with the gas it declares. */
  txGas: bigint | null
}

/**
 * How `views` view reads (declaring `view` each), reads of the engine's probes (`probes` in all) and transactions
 * declaring `declared` in all, `count` of them, share the transactions' block (head + 1). A read that takes a block of
 * its own before it runs the transactions a block later than the chain mines them, where a contract comparing
 * block.number can pay the user only in the scan; a page can force that with many reads (a claim touching many tokens)
 * or a transaction declaring near the whole block's gas. So the views get an equal share of what the transactions
 * leave, down to MIN_VIEW_READ_GAS, and past that the transactions declare no more than what leaves the views that
 * (a cap no honest transaction reaches: the block's gas less a few million). When even the reads alone do not fit,
 * they take blocks before it after all.
 */
export function firstBlockShare(
  views: number,
  probes: bigint,
  declared: bigint,
  count: number,
  view: bigint,
): FirstBlockShare {
  const left = BLOCK_GAS_BUDGET - probes - declared
  const share = views > 0 ? left / BigInt(views) : view
  if (share >= view) return { viewGas: view, txGas: null }
  if (share >= MIN_VIEW_READ_GAS) return { viewGas: share, txGas: null }
  const forTransactions = BLOCK_GAS_BUDGET - probes - MIN_VIEW_READ_GAS * BigInt(views)
  if (forTransactions <= 0n || count === 0) return { viewGas: MIN_VIEW_READ_GAS, txGas: null }
  return { viewGas: MIN_VIEW_READ_GAS, txGas: forTransactions / BigInt(count) }
}

/** The user's transactions' calls laid out as `layout` says: one block, or a block each (an empty bundle: one). */
export function transactionBlocks<T>(calls: T[], layout: TxLayout): T[][] {
  return layout === 'blockEach' && calls.length > 0 ? calls.map((call) => [call]) : [calls]
}
