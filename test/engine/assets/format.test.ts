/** Amounts and addresses as the engine's wire text writes them, and the one notion of an unlimited allowance. */
import { maxUint256, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { canTakeNow, formatAmount, shortAddress } from '../../../src/engine/assets/format.ts'
import { isUnlimited } from '../../../src/engine/index.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('formatAmount', () => {
  it.each([
    [parseEther('1'), 18, '1'],
    [parseUnits('1000', 6), 6, '1,000'],
    [parseUnits('1234567.891', 6), 6, '1,234,567.891'],
    [1n, 18, '<0.000001'],
    [parseUnits('0.1234567', 18), 18, '0.123456'],
    [-parseUnits('2.5', 6), 6, '-2.5'],
    [0n, 6, '0'],
    [123456789012345678901234567890n, 18, '123,456,789,012.345678'],
  ])('%s with %i decimals → %s', (amount, decimals, text) => {
    expect(formatAmount(amount, decimals)).toBe(text)
  })

  it('keeps precision where floats would not: 0.1 + 0.2 of an 18-decimal token is exactly 0.3', () => {
    expect(formatAmount(parseEther('0.1') + parseEther('0.2'), 18)).toBe('0.3')
  })

  it('shortens addresses to 0x1234…abcd and treats half of max uint as unlimited', () => {
    expect(shortAddress(ALICE)).toBe('0x7099…79c8')
    expect(isUnlimited(maxUint256)).toBe(true)
    expect(isUnlimited(maxUint256 / 2n)).toBe(true)
    expect(isUnlimited(parseUnits('1000000000', 18))).toBe(false)
    expect(isUnlimited(2n ** 160n - 1n)).toBe(true)
    expect(isUnlimited(2n ** 159n - 1n)).toBe(true)
    expect(isUnlimited(2n ** 159n - 2n)).toBe(false)
  })
})

describe('canTakeNow', () => {
  it('is the allowance capped by the balance, in dollars when the price is known', () => {
    expect(canTakeNow(maxUint256, parseEther('5'), 18, 2000)).toEqual({
      amount: parseEther('5').toString(),
      dollarValue: 10000,
    })
    expect(canTakeNow(parseUnits('100', 6), parseUnits('10000', 6), 6, null)).toEqual({
      amount: parseUnits('100', 6).toString(),
      dollarValue: null,
    })
    expect(canTakeNow(maxUint256, undefined, 18, 2000)).toBeNull()
  })
})
