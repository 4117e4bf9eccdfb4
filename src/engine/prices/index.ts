/**
 * # prices — dollar values read on-chain, in the scan's own call
 *
 * Every price is read in the before-block of the one eth_simulateV1 call (no extra round trip, no third party):
 * Chainlink feeds for the native currency and the tokens a bundled per-chain list covers, and for other tokens a
 * Uniswap V3 TWAP against WETH or a USD stablecoin, times that quote's feed, from a pool deep enough to trust.
 * Stale, missing or thin → null.
 *
 * - `data/priceSources.json`: the per-chain list: feeds, Uniswap deployments, quote tokens, TWAP window, minimum depth.
 * - `sources.ts`: that list, loaded per chain (a chain may include another's, as the devnet includes mainnet's).
 * - `priceReads.ts`: the reads that price a set of assets.
 * - `prices.ts`: prices from those reads, judged fresh against the simulated block's time.
 * - `pools.ts`: Uniswap pool addresses by CREATE2, for TWAPs and for the pools a swap will move.
 * - `assetPlan.ts`: what a scan hands the simulation: known tokens, pools between them, price reads.
 */
export { assetPlan } from './assetPlan.ts'
export { assetPrices, type PriceLookup } from './prices.ts'
export { priceSources } from './sources.ts'
