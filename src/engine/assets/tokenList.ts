/** The bundled Uniswap default token list: which tokens count as verified, with their logos. */

import tokenList from '@uniswap/default-token-list/build/uniswap-default.tokenlist.json'
import type { Address } from 'viem'

type ListedToken = { name: string; symbol: string; decimals: number; logoURI: string | null }

let listed: Map<string, ListedToken> | undefined
let bySymbol: Map<string, ListedToken & { address: Address }> | undefined

const symbolKey = (chainId: number, symbol: string) => `${chainId}:${symbol.trim().toUpperCase()}`

/** The token's entry on the bundled list for that chain, or null when it is not listed. */
export function listedToken(chainId: number, token: Address): ListedToken | null {
  // Built on first use: nothing is read while the service worker starts.
  listed ??= new Map(
    tokenList.tokens.map((token) => [
      `${token.chainId}:${token.address.toLowerCase()}`,
      { name: token.name, symbol: token.symbol, decimals: token.decimals, logoURI: token.logoURI ?? null },
    ]),
  )
  return listed.get(`${chainId}:${token.toLowerCase()}`) ?? null
}

/**
 * A token on the bundled list for that chain whose symbol is `symbol` (any case), or null: the token a counterfeit
 * with that symbol passes itself off as.
 */
export function listedTokenWithSymbol(chainId: number, symbol: string): (ListedToken & { address: Address }) | null {
  if (!bySymbol) {
    bySymbol = new Map()
    for (const token of tokenList.tokens) {
      const key = symbolKey(token.chainId, token.symbol)
      if (bySymbol.has(key)) continue
      const entry = { name: token.name, symbol: token.symbol, decimals: token.decimals, logoURI: token.logoURI ?? null }
      bySymbol.set(key, { ...entry, address: token.address as Address })
    }
  }
  return bySymbol.get(symbolKey(chainId, symbol)) ?? null
}
