import { describe, expect, it } from 'vitest'
import { chainInWords, chainName, formatAmount, formatUsd, shortAddress } from '../../src/extension/ui/lib/format.ts'

describe('formatAmount', () => {
  it('signs amounts with a true minus and groups thousands', () => {
    expect(formatAmount(-(10n ** 18n), 18, { signed: true })).toBe('−1')
    expect(formatAmount(1_000_000_000n, 6, { signed: true })).toBe('+1,000')
    expect(formatAmount(1_234_567_500_000n, 6)).toBe('1,234,567.5')
  })

  it('cuts long fractions to 6 places and marks them approximate, never rounding up', () => {
    expect(formatAmount(1_999_999_999n, 9)).toBe('~1.999999')
    expect(formatAmount(123_456_789n, 6)).toBe('123.456789')
  })

  it('keeps 3 significant digits of tiny amounts instead of showing 0', () => {
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001')
    expect(formatAmount(12_345n, 18)).toBe('~0.0000000000000123')
  })
})

describe('formatUsd', () => {
  it('prices the absolute amount, and says when the price is unknown', () => {
    expect(formatUsd(-(10n ** 18n), 18, 3012.5)).toBe('$3,012.50')
    expect(formatUsd(1n, 6, 1)).toBe('< $0.01')
    expect(formatUsd(10n ** 18n, 18, null)).toBeNull()
  })
})

describe('labels', () => {
  it('shortens checksummed addresses and names chains', () => {
    expect(shortAddress('0x000000000022d473030f116ddee9f6b43ac78ba3')).toBe('0x0000…8BA3')
    expect(chainName(1)).toBe('Ethereum')
    expect(chainName(31337)).toBe('Local devnet')
    expect(chainName(999_999)).toBe('Chain 999999')
    expect(chainInWords(10)).toBe('OP Mainnet (10)')
    expect(chainInWords(1337)).toBe('chain 1337')
  })
})
