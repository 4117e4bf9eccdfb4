/**
 * What the block a transaction sent now lands in has that a simulated block must be told: its time and its randomness.
 * Left to the node, a simulated block takes the head's time (anvil; geth a fixed step after it) and the head's
 * randomness (anvil; geth leaves it zero), and a contract comparing either with what it keeps, or with zero, tells the
 * simulation from the mined block.
 */
import { bytesToHex, type Hex } from 'viem'
import { blockSeconds } from './chain.ts'

/**
 * The time of the block after one of time `head` on `chainId`: a block time later (chain.ts's blockSeconds). Not the
 * clock's: a scan of a past block asks about the block after it, and a clock can be wrong; a live chain's head is at
 * most a slot or two old.
 */
export function nextBlockTime(head: bigint, chainId: number): bigint {
  return head + blockSeconds(chainId)
}

/** A `prevRandao` for a simulated block, drawn afresh: nobody knows the next block's, so no contract can match it. */
export function nextBlockRandomness(): Hex {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)))
}

/**
 * `blocks` as eth_simulateV1 block state calls, each with a randomness of its own (and `first`'s overrides on the first
 * block): every block a scan simulates stands for one the chain has not made yet.
 */
export function withFreshRandomness<T extends object>(
  blocks: readonly T[],
  first: Record<string, Hex> = {},
): (T & { blockOverrides: Record<string, Hex> })[] {
  return blocks.map((block, index) => ({
    ...block,
    blockOverrides: { ...(index === 0 ? first : {}), prevRandao: nextBlockRandomness() },
  }))
}
