import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../../src/engine/index.ts'
import { lookalikeOf, poisonedAddressWarnings, recipientsOf } from '../../../src/engine/risk/poisoning.ts'

const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address
/** FRIEND's first four and last four hex digits around another middle: what a poisoner's generator makes. */
const LOOKALIKE = '0x7099deadbeefdeadbeefdeadbeefdeadbeef79c8' as Address
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' as Address

const usdc = { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', name: 'USD Coin', decimals: 6 }

function transfer(counterparty: Address | undefined, before: string, after: string): StateChange {
  return {
    humanReadableDiff: 'Send 1 USDC',
    rawInfo: {
      kind: 'ERC20_TRANSFER',
      data: {
        amount: { before, after },
        ...(counterparty ? { counterparty: { address: counterparty, kind: 'ACCOUNT' as const } } : {}),
        asset: { ...usdc, verified: true, lists: [], imageUrl: null, price: null },
      },
    },
  } as StateChange
}

describe('address poisoning', () => {
  it('takes the recipients of outgoing transfers only, once each', () => {
    const changes = [
      transfer(LOOKALIKE, '2000000', '1000000'),
      transfer(LOOKALIKE, '1000000', '0'),
      transfer(OTHER, '0', '5'),
      transfer(undefined, '5', '0'),
    ]
    expect(recipientsOf(changes)).toEqual([LOOKALIKE])
  })

  it('finds a different address that shares at least 3 digits at each end and 7 in all', () => {
    // FRIEND's first `start` and last `end` hex digits around f's (FRIEND has none, so no more digits match).
    const digits = FRIEND.slice(2)
    const mimic = (start: number, end: number) =>
      `0x${digits.slice(0, start)}${'f'.repeat(40 - start - end)}${digits.slice(40 - end)}` as Address
    expect(lookalikeOf(LOOKALIKE, [OTHER, FRIEND])).toBe(FRIEND)
    expect([mimic(4, 4), mimic(3, 4), mimic(4, 3), mimic(10, 10)].map((a) => lookalikeOf(a, [FRIEND]))).toEqual([
      FRIEND,
      FRIEND,
      FRIEND,
      FRIEND,
    ])
    expect([mimic(3, 3), mimic(8, 2), mimic(2, 8)].map((a) => lookalikeOf(a, [FRIEND]))).toEqual([
      undefined,
      undefined,
      undefined,
    ])
    expect(lookalikeOf(`0x${digits.toUpperCase()}` as Address, [FRIEND])).toBeUndefined()
    // A shared vanity prefix counts for nothing: Uniswap v4's PoolManager against another 0x0000… address.
    const poolManager = '0x000000000004444c5dc75cb358380d2e3de08a90' as Address
    expect(lookalikeOf('0x0000abcdabcdabcdabcdabcdabcdabcdabcdda90' as Address, [poolManager])).toBeUndefined()
    expect(lookalikeOf('0x0000000000044440000000000000000000008a90' as Address, [poolManager])).toBe(poolManager)
    expect(lookalikeOf(OTHER, [FRIEND])).toBeUndefined()
  })

  it('warns, critically and naming both addresses, of a new recipient that mimics a known one', () => {
    const [warning, ...rest] = poisonedAddressWarnings([transfer(LOOKALIKE, '1', '0')], new Set([FRIEND]))
    expect(rest).toEqual([])
    expect(warning).toMatchObject({
      kind: 'POISONED_ADDRESS',
      severity: 'CRITICAL',
      data: { address: LOOKALIKE, lookalikeOf: FRIEND },
    })
    expect(warning?.message).toContain('sends to 0x7099…79c8, a new address that starts and ends like 0x7099…79c8')
  })

  it('stays quiet for a known recipient, a new one that mimics nobody, and what the user receives', () => {
    const known = new Set([FRIEND, LOOKALIKE])
    expect(poisonedAddressWarnings([transfer(LOOKALIKE, '1', '0')], known)).toEqual([])
    expect(poisonedAddressWarnings([transfer(OTHER, '1', '0')], new Set([FRIEND]))).toEqual([])
    expect(poisonedAddressWarnings([transfer(LOOKALIKE, '0', '1')], new Set([FRIEND]))).toEqual([])
  })
})
