/** How warnings name what they speak of: each item while there are a handful, counted per collection past that. */
import { describe, expect, it } from 'vitest'
import { briefNames, type NamedItem } from '../../../src/engine/risk/assetNames.ts'

const nft = (symbol: string, id: number, key = symbol): NamedItem => ({
  name: `${symbol} #${id}`,
  collection: { key, name: symbol },
})
const token = (name: string): NamedItem => ({ name, collection: null })

describe('briefNames', () => {
  it('names up to five items one by one', () => {
    expect(briefNames([nft('PASS', 1), nft('PASS', 2), token('1,000 RWD')])).toBe('PASS #1, PASS #2, 1,000 RWD')
  })

  it('past five, counts the NFTs of each collection: 300 ids make one short phrase', () => {
    const passes = Array.from({ length: 300 }, (_, i) => nft('PASS', 1000 + i))
    expect(briefNames([...passes, token('1,000 RWD')])).toBe('300 PASS items, 1,000 RWD')
    const many = Array.from({ length: 10_000 }, (_, i) => nft('PASS', i))
    expect(briefNames(many)).toBe('10,000 PASS items')
  })

  it('keeps two collections that share a symbol apart, and says how many more past five groups', () => {
    const twins = [...[1, 2, 3].map((id) => nft('PASS', id, 'a')), ...[4, 5, 6].map((id) => nft('PASS', id, 'b'))]
    expect(briefNames(twins)).toBe('3 PASS items, 3 PASS items')
    const tokens = Array.from({ length: 8 }, (_, i) => token(`1 T${i}`))
    expect(briefNames(tokens)).toBe('1 T0, 1 T1, 1 T2, 1 T3, 1 T4 and 3 more')
  })
})
