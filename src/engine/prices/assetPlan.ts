/** What a scan hands the simulation about a chain's assets: which addresses are tokens, their pools, their prices. */
import type { Address } from 'viem'
import type { AssetPlan } from '../simulation/index.ts'
import { poolsBetween } from './pools.ts'
import { priceReads } from './priceReads.ts'
import { priceSources } from './sources.ts'

const NOTHING: AssetPlan = { isToken: () => false, pools: () => [], priceReads: () => [] }

/** The asset plan of a chain: its listed tokens and quote tokens, the Uniswap pools between tokens, price reads. */
export function assetPlan(chainId: number): AssetPlan {
  const sources = priceSources(chainId)
  if (!sources) return NOTHING
  const quotes = new Set(sources.uniswapV3.flatMap((deployment) => deployment.quotes.map((q) => q.token.toLowerCase())))
  return {
    isToken: (address: Address) => sources.feeds.has(address.toLowerCase()) || quotes.has(address.toLowerCase()),
    pools: (tokens) => poolsBetween(sources, tokens),
    priceReads: (tokens) => priceReads(sources, tokens),
  }
}
