/**
 * Token metadata (name, symbol, decimals, ERC-1155 or not) as read in a simulation's before-block, cached per chain so
 * later scans neither read it again nor plan reads for it.
 */
import type { Address } from 'viem'
import { type ReadResults, readKeys } from './reads.ts'

/** What the chain says about a token contract; decimals null when it has none (NFTs). */
export type TokenMetadata = { name: string | null; symbol: string | null; decimals: number | null; is1155: boolean }

const metadataCache = new Map<string, TokenMetadata>()
const cacheKey = (chainId: number, token: Address) => `${chainId}:${token.toLowerCase()}`

/** Cached metadata of a token on a chain, or undefined when it must be read. */
export function cachedTokenMetadata(chainId: number | null, token: Address): TokenMetadata | undefined {
  return chainId === null ? undefined : metadataCache.get(cacheKey(chainId, token))
}

/** Takes a token's metadata from simulation reads (when they were made) and caches it for later scans. */
export function tokenMetadata(chainId: number, token: Address, reads: ReadResults): TokenMetadata {
  const cached = cachedTokenMetadata(chainId, token)
  if (cached) return cached
  const nameKey = readKeys.tokenField(token, 'name')
  if (!reads.before.has(nameKey)) return { name: null, symbol: null, decimals: null, is1155: false }
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value.slice(0, 100) : null)
  const decimals = reads.before.get(readKeys.tokenField(token, 'decimals'))
  const metadata: TokenMetadata = {
    name: text(reads.before.get(nameKey)),
    symbol: text(reads.before.get(readKeys.tokenField(token, 'symbol'))),
    decimals: typeof decimals === 'number' && decimals <= 77 ? decimals : null,
    is1155: reads.before.get(readKeys.tokenField(token, 'is1155')) === true,
  }
  metadataCache.set(cacheKey(chainId, token), metadata)
  return metadata
}
