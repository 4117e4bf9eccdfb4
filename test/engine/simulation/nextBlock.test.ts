/**
 * The environment probe's block comes when the chain's next block does: one slot after the head, or the first slot not
 * before the clock when the head is older; a second after the head, or the clock, on a chain with no known block time.
 */
import { describe, expect, it } from 'vitest'
import { blockSeconds } from '../../../src/engine/simulation/chain.ts'
import { nextBlockTime } from '../../../src/engine/simulation/nextBlock.ts'

describe('the time of the next block', () => {
  it('on mainnet: the next 12-second slot not before the clock', () => {
    expect(blockSeconds(1)).toBe(12n)
    expect(nextBlockTime(1_000n, 12n, 1_005n)).toBe(1_012n)
    expect(nextBlockTime(1_000n, 12n, 1_012n)).toBe(1_012n)
    // The head's slot was missed, or the head is late: the slot after the next.
    expect(nextBlockTime(1_000n, 12n, 1_013n)).toBe(1_024n)
    // A clock behind the chain's: a slot after the head all the same.
    expect(nextBlockTime(1_000n, 12n, 900n)).toBe(1_012n)
  })

  it('on a chain of sub-second blocks, or one this build does not know (anvil): a second after the head, or now', () => {
    expect(blockSeconds(42161)).toBe(1n)
    expect(blockSeconds(31337)).toBe(1n)
    expect(nextBlockTime(1_000n, 1n, 1_000n)).toBe(1_001n)
    // anvil mines on its clock: an idle devnet's head is hours old.
    expect(nextBlockTime(1_000n, 1n, 8_200n)).toBe(8_200n)
  })
})
