/** The token metadata cache stays bounded however many tokens scans name, forgetting the least recently used. */
import { type Address, numberToHex, pad } from 'viem'
import { describe, expect, it } from 'vitest'
import { readKeys } from '../../../src/engine/simulation/reads.ts'
import {
  cachedTokenCount,
  cachedTokenMetadata,
  TOKEN_METADATA_CACHE_SIZE,
  tokenMetadata,
} from '../../../src/engine/simulation/tokenMetadata.ts'

const CHAIN = 999_001
const token = (index: number) => pad(numberToHex(index + 1), { size: 20 }) as Address

/** Before-block reads as a simulation returns them for a token named `T<index>`. */
function readsFor(address: Address, index: number) {
  const before = new Map<string, unknown>([
    [readKeys.tokenField(address, 'name'), `Token ${index}`],
    [readKeys.tokenField(address, 'symbol'), `T${index}`],
    [readKeys.tokenField(address, 'decimals'), 18],
  ])
  return { before, after: new Map<string, unknown>() }
}

describe('token metadata cache', () => {
  it(`holds at most ${TOKEN_METADATA_CACHE_SIZE} tokens and forgets the least recently used first`, () => {
    for (let index = 0; index < TOKEN_METADATA_CACHE_SIZE; index += 1) {
      tokenMetadata(CHAIN, token(index), readsFor(token(index), index))
    }
    expect(cachedTokenCount()).toBe(TOKEN_METADATA_CACHE_SIZE)
    // Token 0 is used again, so token 1 is now the least recently used.
    expect(cachedTokenMetadata(CHAIN, token(0))?.symbol).toBe('T0')
    for (let index = TOKEN_METADATA_CACHE_SIZE; index < TOKEN_METADATA_CACHE_SIZE + 5_000; index += 1) {
      tokenMetadata(CHAIN, token(index), readsFor(token(index), index))
    }
    expect(cachedTokenCount()).toBe(TOKEN_METADATA_CACHE_SIZE)
    expect(cachedTokenMetadata(CHAIN, token(0))?.symbol).toBe('T0')
    expect(cachedTokenMetadata(CHAIN, token(1))).toBeUndefined()
    expect(cachedTokenMetadata(CHAIN, token(TOKEN_METADATA_CACHE_SIZE + 4_999))?.name).toBe('Token 14999')
  })
})
