/** Asset objects of state changes: native currency, ERC-20, ERC-721 and ERC-1155 metadata, cached per chain. */
import type { Address } from 'viem'
import { nativeCurrency } from './chain.ts'
import { type ReadResults, readKeys } from './reads.ts'
import { listedToken } from './tokenList.ts'
import {
  type Erc20Asset,
  type Erc721Asset,
  type Erc1155Asset,
  NATIVE_ASSET_ADDRESS,
  type NativeAsset,
} from './types.ts'

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

/** The chain's native currency as an asset (seed §2.6: the all-e address). */
export function nativeAsset(chainId: number): NativeAsset {
  const currency = nativeCurrency(chainId)
  return {
    address: NATIVE_ASSET_ADDRESS,
    symbol: currency.symbol,
    name: currency.name,
    decimals: currency.decimals,
    verified: true,
    imageUrl: null,
    price: null,
  }
}

/** An ERC-20 asset: on-chain name/symbol/decimals, verified only when on the bundled token list. */
export function erc20Asset(chainId: number, token: Address, metadata: TokenMetadata): Erc20Asset {
  const listed = listedToken(chainId, token)
  return {
    address: token.toLowerCase() as Address,
    symbol: metadata.symbol ?? listed?.symbol ?? 'UNKNOWN',
    name: metadata.name ?? listed?.name ?? 'Unknown token',
    decimals: metadata.decimals ?? listed?.decimals ?? 0,
    verified: listed !== null,
    lists: listed ? ['UNISWAP'] : [],
    imageUrl: listed?.logoURI ?? null,
    price: null,
  }
}

/** An ERC-721 collection as an asset. */
export function erc721Asset(token: Address, metadata: TokenMetadata): Erc721Asset {
  const name = metadata.name ?? 'Unknown collection'
  return {
    address: token.toLowerCase() as Address,
    symbol: metadata.symbol ?? 'UNKNOWN',
    name,
    collection: name,
    price: null,
  }
}

/** An ERC-1155 contract as an asset. */
export function erc1155Asset(token: Address, metadata: TokenMetadata): Erc1155Asset {
  return { address: token.toLowerCase() as Address, name: metadata.name ?? 'ERC-1155 token', price: null }
}
