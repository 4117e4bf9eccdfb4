/** Asset objects of state changes: the native currency, ERC-20 tokens, ERC-721 collections and ERC-1155 contracts. */
import type { Address } from 'viem'
import {
  type AssetPrice,
  type Erc20Asset,
  type Erc721Asset,
  type Erc1155Asset,
  NATIVE_ASSET_ADDRESS,
  type NativeAsset,
} from '../api/index.ts'
import { nativeCurrency, type TokenMetadata } from '../simulation/index.ts'
import { listedToken } from './tokenList.ts'

/** The chain's native currency as an asset (seed §2.6: the all-e address), with its price when one was read. */
export function nativeAsset(chainId: number, price: AssetPrice | null = null): NativeAsset {
  const currency = nativeCurrency(chainId)
  return {
    address: NATIVE_ASSET_ADDRESS,
    symbol: currency.symbol,
    name: currency.name,
    decimals: currency.decimals,
    verified: true,
    imageUrl: null,
    price,
  }
}

/** An ERC-20 asset: on-chain name/symbol/decimals, verified only when on the bundled token list; price when read. */
export function erc20Asset(
  chainId: number,
  token: Address,
  metadata: TokenMetadata,
  price: AssetPrice | null = null,
): Erc20Asset {
  const listed = listedToken(chainId, token)
  return {
    address: token.toLowerCase() as Address,
    symbol: metadata.symbol ?? listed?.symbol ?? 'UNKNOWN',
    name: metadata.name ?? listed?.name ?? 'Unknown token',
    decimals: metadata.decimals ?? listed?.decimals ?? 0,
    verified: listed !== null,
    lists: listed ? ['UNISWAP'] : [],
    imageUrl: listed?.logoURI ?? null,
    price,
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
