/**
 * Token metadata (name, symbol, decimals, ERC-1155 or not) as read in a simulation's before-block, cached per chain so
 * later scans neither read it again nor plan reads for it.
 */
import type { Address } from 'viem'
import { type ReadResults, readKeys } from './reads.ts'
import { type CleanText, cleanName, cleanSymbol, type TokenDisguise } from './tokenText.ts'

/**
 * What the chain says about a token contract; decimals null when it has none (NFTs). Name and symbol are cleaned for
 * display (tokenText.ts); `disguise` says what they held that an honest token has no use for, absent when nothing.
 */
export type TokenMetadata = {
  name: string | null
  symbol: string | null
  decimals: number | null
  is1155: boolean
  disguise?: TokenDisguise
}

/**
 * How many tokens' metadata one process remembers. Every scan can name new tokens (a hostile client, thousands), so
 * the cache forgets the least recently used beyond this; a forgotten token is simply read again in its next scan.
 */
export const TOKEN_METADATA_CACHE_SIZE = 10_000

/** A Map that drops its least recently used entry when it grows past `capacity` (a Map iterates in insertion order). */
class LruMap<K, V> {
  readonly #entries = new Map<K, V>()
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  set(key: K, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K)
  }
}

const metadataCache = new LruMap<string, TokenMetadata>(TOKEN_METADATA_CACHE_SIZE)
const cacheKey = (chainId: number, token: Address) => `${chainId}:${token.toLowerCase()}`

/** How many tokens the cache holds now (for tests and memory checks). */
export function cachedTokenCount(): number {
  return metadataCache.size
}

/** Cached metadata of a token on a chain, or undefined when it must be read. */
export function cachedTokenMetadata(chainId: number | null, token: Address): TokenMetadata | undefined {
  return chainId === null ? undefined : metadataCache.get(cacheKey(chainId, token))
}

/** The fields read of every token (tokenMetadataReads): none answering means the reads were not made. */
const FIELDS = ['name', 'symbol', 'decimals', 'is1155'] as const

/**
 * Takes a token's metadata from simulation reads (when they were made) and caches it for later scans. Each field
 * stands on its own: a contract without name() still has its symbol, decimals and ERC-1155 flag.
 */
export function tokenMetadata(chainId: number, token: Address, reads: ReadResults): TokenMetadata {
  const cached = cachedTokenMetadata(chainId, token)
  if (cached) return cached
  if (!FIELDS.some((field) => reads.before.has(readKeys.tokenField(token, field)))) {
    return { name: null, symbol: null, decimals: null, is1155: false }
  }
  const field = (name: (typeof FIELDS)[number]) => reads.before.get(readKeys.tokenField(token, name))
  const clean = (value: unknown, how: (raw: string) => CleanText): CleanText =>
    typeof value === 'string' ? how(value) : { text: null, disguise: null }
  const name = clean(field('name'), cleanName)
  const symbol = clean(field('symbol'), cleanSymbol)
  const decimals = field('decimals')
  const disguise = worse(symbol.disguise, name.disguise)
  const metadata: TokenMetadata = {
    name: name.text,
    symbol: symbol.text,
    decimals: typeof decimals === 'number' && decimals <= 77 ? decimals : null,
    is1155: field('is1155') === true,
    ...(disguise ? { disguise } : {}),
  }
  metadataCache.set(cacheKey(chainId, token), metadata)
  return metadata
}

/** The order TokenDisguise values are reported in, worst first: hidden text can hide anything else. */
const DISGUISE_RANK: TokenDisguise[] = ['hidden', 'lookalike', 'figures']

function worse(a: TokenDisguise | null, b: TokenDisguise | null): TokenDisguise | null {
  if (a === null || b === null) return a ?? b
  return DISGUISE_RANK.indexOf(a) <= DISGUISE_RANK.indexOf(b) ? a : b
}
