/** The bundled Uniswap default token list: which tokens count as verified, with their logos. */

import tokenList from '@uniswap/default-token-list/build/uniswap-default.tokenlist.json'
import type { Address } from 'viem'

type ListedToken = { name: string; symbol: string; decimals: number; logoURI: string | null }

let listed: Map<string, ListedToken> | undefined

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
