/** The bundled Uniswap default token list: which tokens count as verified, with their logos. */

import tokenList from '@uniswap/default-token-list/build/uniswap-default.tokenlist.json'
import type { Address } from 'viem'

type ListedToken = { name: string; symbol: string; decimals: number; logoURI: string | null }

const listed = new Map<string, ListedToken>(
  tokenList.tokens.map((token) => [
    `${token.chainId}:${token.address.toLowerCase()}`,
    { name: token.name, symbol: token.symbol, decimals: token.decimals, logoURI: token.logoURI ?? null },
  ]),
)

/** The token's entry on the bundled list for that chain, or null when it is not listed. */
export function listedToken(chainId: number, token: Address): ListedToken | null {
  return listed.get(`${chainId}:${token.toLowerCase()}`) ?? null
}
