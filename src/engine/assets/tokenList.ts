/** The bundled Uniswap default token list: which tokens count as verified, with their logos. */

import tokenList from '@uniswap/default-token-list/build/uniswap-default.tokenlist.json'
import type { Address } from 'viem'
import { textSkeleton } from '../simulation/index.ts'

type ListedToken = { address: Address; name: string; symbol: string; decimals: number; logoURI: string | null }

/** The list by chain and address, and by chain and symbol (the first listed token of each symbol). */
type Index = { byAddress: Map<string, ListedToken>; bySymbol: Map<string, ListedToken> }

let index: Index | undefined

const addressKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`
/** Symbols compare by how they look, so "USDС" (Cyrillic Es) or "USDC" with a zero-width space finds USDC. */
const symbolKey = (chainId: number, symbol: string) => `${chainId}:${textSkeleton(symbol)}`

/** Built on first use, in one pass: nothing is read while the service worker starts. */
function listIndex(): Index {
  if (index) return index
  const built: Index = { byAddress: new Map(), bySymbol: new Map() }
  for (const token of tokenList.tokens) {
    const { chainId, address, name, symbol, decimals } = token
    const entry = { address: address as Address, name, symbol, decimals, logoURI: token.logoURI ?? null }
    built.byAddress.set(addressKey(chainId, address), entry)
    if (!built.bySymbol.has(symbolKey(chainId, symbol))) built.bySymbol.set(symbolKey(chainId, symbol), entry)
  }
  index = built
  return built
}

/** The token's entry on the bundled list for that chain, or null when it is not listed. */
export function listedToken(chainId: number, token: Address): ListedToken | null {
  return listIndex().byAddress.get(addressKey(chainId, token)) ?? null
}

/**
 * A token on the bundled list for that chain whose symbol looks like `symbol` (any case, look-alike letters and
 * invisible characters aside), or null: the token a counterfeit with that symbol passes itself off as.
 */
export function listedTokenWithSymbol(chainId: number, symbol: string): ListedToken | null {
  return listIndex().bySymbol.get(symbolKey(chainId, symbol)) ?? null
}
