/**
 * How the before-reads share the transactions' block: however many there are (a claim touching many tokens) and however
 * much gas the transactions declare (a page can set near the block's), every read runs ahead of the transactions in
 * their block, so they run at the number the chain mines them at, until the reads alone outgrow the block.
 */
import { describe, expect, it } from 'vitest'
import {
  BLOCK_GAS_BUDGET,
  firstBlockShare,
  MIN_VIEW_READ_GAS,
  readsAhead,
} from '../../../src/engine/simulation/blockLayout.ts'

const VIEW = 250_000n

/** Whether `views` view reads all fit ahead of `count` transactions declaring `declared`, as firstBlockShare shares. */
function allAhead(views: number, declared: bigint, count: number): boolean {
  const share = firstBlockShare(views, 0n, declared, count, VIEW)
  const besides = share.txGas === null ? declared : share.txGas * BigInt(count)
  const reads = Array.from({ length: views }, (_, index) => index)
  return readsAhead(reads, () => share.viewGas, besides).apart.length === 0
}

describe('firstBlockShare', () => {
  it('a view declares its full 250,000 while all fit beside the transactions', () => {
    expect(firstBlockShare(100, 0n, 300_000n, 1, VIEW)).toEqual({ viewGas: VIEW, txGas: null })
  })

  it('200 reads beside a 300,000 swap share what it leaves (148,500 each), rather than take a block before it', () => {
    expect(firstBlockShare(200, 0n, 300_000n, 1, VIEW)).toEqual({ viewGas: 148_500n, txGas: null })
    expect(allAhead(200, 300_000n, 1)).toBe(true)
  })

  it('a transaction declaring 29,900,000 beside 35 reads declares 27,200,000, leaving each read 80,000', () => {
    expect(firstBlockShare(35, 0n, 29_900_000n, 1, VIEW)).toEqual({
      viewGas: MIN_VIEW_READ_GAS,
      txGas: BLOCK_GAS_BUDGET - 35n * MIN_VIEW_READ_GAS,
    })
    expect(allAhead(35, 29_900_000n, 1)).toBe(true)
    // Two transactions declaring it between them each declare at most half of what is left.
    expect(firstBlockShare(35, 0n, 29_900_000n, 2, VIEW).txGas).toBe(13_600_000n)
  })

  it('the engine’s probes keep their gas, and reads that outgrow the block alone take blocks before it', () => {
    expect(firstBlockShare(100, 2_000_000n, 10_000_000n, 1, VIEW)).toEqual({ viewGas: 180_000n, txGas: null })
    expect(firstBlockShare(400, 0n, 300_000n, 1, VIEW)).toEqual({ viewGas: MIN_VIEW_READ_GAS, txGas: null })
  })
})
