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

/** The user's transactions' calls laid out as `layout` says: one block, or a block each (an empty bundle: one). */
export function transactionBlocks<T>(calls: T[], layout: TxLayout): T[][] {
  return layout === 'blockEach' && calls.length > 0 ? calls.map((call) => [call]) : [calls]
}
