/**
 * The judgement of a sell probe: a failed transfer or swap always warns; a tax warns only above 10% (MAX_USUAL_TAX),
 * either way; a token with a price read never warns. Given probes, no node.
 */
import { type Address, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  isUnsellable,
  MAX_USUAL_TAX,
  sellVerdict,
  unsellableTokenWarnings,
} from '../../../src/engine/risk/unsellableTokens.ts'
import type { SellProbe, TokenMetadata } from '../../../src/engine/simulation/index.ts'

const TOKEN: Address = '0x1200000000000000000000000000000000000aBc'
const PAIR: Address = '0x000000000000000000000000000000000000a1E5'
const SCAM: TokenMetadata = { name: 'Scam Coin', symbol: 'SCAM', decimals: 18, is1155: false }

/** A buy of 1,000 tokens the pool sent in full, sold back to a V2 pair that paid `paid` of an untaxed 1 ETH. */
function probe(overrides: Partial<SellProbe> = {}, paid = parseEther('1')): SellProbe {
  const amount = parseEther('1000')
  return {
    token: TOKEN,
    pool: PAIR,
    poolSent: amount,
    amount,
    transfer: 'ok',
    swap: { status: 'SOLD', received: amount, untaxed: parseEther('1'), paid },
    ...overrides,
  }
}
const eth = (basisPoints: bigint) => (parseEther('1') * basisPoints) / 10_000n
const warn = (p: SellProbe, priced = false) =>
  unsellableTokenWarnings(
    [p],
    () => SCAM,
    () => (priced ? { source: 'UniswapV3', updatedAt: 0, dollarValuePerToken: 1 } : null),
  )

describe('sellVerdict and isUnsellable', () => {
  it('the threshold is 10%: a sale that loses exactly 10% passes, one that loses 10.01% does not', () => {
    expect(MAX_USUAL_TAX).toBe(1_000n)
    const atLimit = sellVerdict(probe({}, eth(9_000n)))
    expect(atLimit).toEqual({ failure: null, sellTax: 1_000n, buyTax: 0n })
    expect(isUnsellable(atLimit)).toBe(false)
    expect(isUnsellable(sellVerdict(probe({}, eth(8_999n))))).toBe(true)
  })

  it('a buy tax is judged the same way: 10% passes, 10.01% does not', () => {
    const received = (basisPoints: bigint) => ({ amount: (parseEther('1000') * (10_000n - basisPoints)) / 10_000n })
    expect(sellVerdict(probe(received(1_000n))).buyTax).toBe(1_000n)
    expect(isUnsellable(sellVerdict(probe(received(1_000n))))).toBe(false)
    expect(isUnsellable(sellVerdict(probe(received(1_001n))))).toBe(true)
  })

  it('an honest token, and a 2% fee each way, pass', () => {
    expect(isUnsellable(sellVerdict(probe()))).toBe(false)
    expect(isUnsellable(sellVerdict(probe({ amount: parseEther('980') }, eth(9_800n))))).toBe(false)
  })

  it('a transfer back to the pool that reverts, or a swap that reverts, fails whatever the figures', () => {
    expect(sellVerdict(probe({ transfer: 'reverted' }))).toEqual({ failure: 'TRANSFER', sellTax: null, buyTax: 0n })
    const swapReverted = probe({ swap: { status: 'SWAP_REVERTED', received: 1n, untaxed: 1n } })
    expect(sellVerdict(swapReverted)).toEqual({ failure: 'SWAP', sellTax: null, buyTax: 0n })
    expect(isUnsellable(sellVerdict(swapReverted))).toBe(true)
  })

  it('a pool that is no V2 pair, or a probe that could not run: only the transfer and the buy are judged', () => {
    expect(isUnsellable(sellVerdict(probe({ swap: { status: 'NOT_A_PAIR' } })))).toBe(false)
    expect(isUnsellable(sellVerdict(probe({ swap: null })))).toBe(false)
    expect(isUnsellable(sellVerdict(probe({ swap: null, transfer: 'reverted' })))).toBe(true)
  })
})

describe('unsellableTokenWarnings', () => {
  it('names the token, the pool and what failed', () => {
    const [warning, ...others] = warn(probe({ transfer: 'reverted' }))
    expect(others).toEqual([])
    expect(warning).toMatchObject({ kind: 'TOKEN_CANNOT_BE_SOLD', severity: 'WARNING' })
    expect(warning?.message).toBe(
      'You may not be able to sell SCAM (0x1200…0abc): selling it back to the pool it came from (0x0000…a1e5) ' +
        'fails in the simulation.',
    )
  })

  it('says both taxes, with the amounts of the buy', () => {
    const [warning] = warn(probe({ amount: parseEther('700') }, eth(6_500n)))
    expect(warning?.message).toBe(
      'You may not be able to sell SCAM (0x1200…0abc) for what it is worth: selling it back to the pool it came ' +
        "from (0x0000…a1e5) loses 35% to the token's own tax in the simulation. SCAM (0x1200…0abc) keeps 30% of " +
        'this buy as its own tax: the pool sends 1,000 SCAM and you receive 700 SCAM.',
    )
    expect(warning?.data).toEqual({
      token: TOKEN.toLowerCase(),
      pool: PAIR.toLowerCase(),
      failure: null,
      sellTaxPercent: 35,
      buyTaxPercent: 30,
      sold: parseEther('700').toString(),
      untaxed: parseEther('1').toString(),
      returned: eth(6_500n).toString(),
    })
  })

  it('nothing for a token the scan priced, nor for a small tax', () => {
    expect(warn(probe({ transfer: 'reverted' }), true)).toEqual([])
    expect(warn(probe({ amount: parseEther('950') }, eth(9_500n)))).toEqual([])
  })
})
