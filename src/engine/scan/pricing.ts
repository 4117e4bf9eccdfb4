/** The dollar prices of one simulation's assets, from the reads its asset plan added (prices/). */
import type { Address } from 'viem'
import { assetPrices, type PriceLookup, priceSources } from '../prices/index.ts'
import { type SimulationResult, tokenMetadata } from '../simulation/index.ts'

/** Prices for a simulation's assets: the native currency (null) and tokens, null where none could be read. */
export function simulationPrices(result: SimulationResult): PriceLookup {
  const decimalsOf = (token: Address) => tokenMetadata(result.chainId, token, result.reads).decimals
  return assetPrices(priceSources(result.chainId), result.reads, result.blockTime, decimalsOf)
}
