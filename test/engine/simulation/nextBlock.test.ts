/**
 * What the environment probe and the scan tell a simulated block about the block after the head: its time, a block time
 * after the head's (1 s on chains with faster blocks, or unknown to this build, anvil among them), and a randomness
 * drawn afresh each time.
 */
import { describe, expect, it } from 'vitest'
import { nextBlockRandomness, nextBlockTime } from '../../../src/engine/simulation/nextBlock.ts'

describe('the block after the head', () => {
  it("comes a block time after it: 12 s on mainnet, 2 s on Base, 1 s on Arbitrum's faster blocks and on anvil", () => {
    expect(nextBlockTime(1_000n, 1)).toBe(1_012n)
    expect(nextBlockTime(1_000n, 8453)).toBe(1_002n)
    expect(nextBlockTime(1_000n, 42161)).toBe(1_001n)
    expect(nextBlockTime(1_000n, 31337)).toBe(1_001n)
  })

  it('has a randomness of its own: 32 bytes, new each time', () => {
    const drawn = new Set(Array.from({ length: 100 }, nextBlockRandomness))
    expect(drawn.size).toBe(100)
    for (const value of drawn) expect(value).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
