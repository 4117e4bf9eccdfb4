/**
 * What the block a transaction sent now lands in has that a simulated block must be told: its time and its randomness.
 * Left to the node, a simulated block takes the head's time (anvil; geth a fixed step after it) and the head's
 * randomness (anvil; geth leaves it zero), and a contract comparing either with what it keeps, or with zero, tells the
 * simulation from the mined block.
 */
import { bytesToHex, type Hex } from 'viem'

/**
 * The time of the block a transaction sent at `now` lands in, in seconds: the first a block time (`blockSeconds`) after
 * the head's `head` that is not before `now`. A chain's blocks come one slot apart, and no sooner than the clock; on an
 * idle chain (anvil mines when it is sent) the head can be hours old.
 */
export function nextBlockTime(head: bigint, blockSeconds: bigint, now: bigint): bigint {
  const slots = now > head ? (now - head + blockSeconds - 1n) / blockSeconds : 1n
  return head + blockSeconds * (slots > 1n ? slots : 1n)
}

/** A `prevRandao` for a simulated block, drawn afresh: nobody knows the next block's, so no contract can match it. */
export function nextBlockRandomness(): Hex {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)))
}
