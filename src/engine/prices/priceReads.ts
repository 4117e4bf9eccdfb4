/**
 * The reads that price assets, made in the before-block of the scan's one eth_simulateV1 call: a Chainlink feed's
 * latestRoundData for the native currency and for tokens the list covers; for other tokens, each candidate Uniswap V3
 * pool's observe([window, 0]) and what it pays for the token within 5% of its price, plus the quote token's own feed.
 */
import { type Address, parseAbi } from 'viem'
import { poolDepthRead, prepareRead, type Read, staticRead } from '../simulation/index.ts'
import { v3PoolAddress } from './pools.ts'
import type { Feed, PriceSources } from './sources.ts'

const feedAbi = parseAbi([
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
])
const poolAbi = parseAbi([
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
])
const latestRoundData = prepareRead(feedAbi, 'latestRoundData')
const observe = prepareRead(poolAbi, 'observe')

/** Keys of the price reads, lowercase like every read key. */
export const priceKeys = {
  feed: (feed: Address) => `feed:${feed.toLowerCase()}`,
  observe: (pool: Address, seconds: number) => `observe:${pool.toLowerCase()}:${seconds}`,
  depth: (pool: Address, token: Address) => `depth:${pool.toLowerCase()}:${token.toLowerCase()}`,
}

function feedRead(feed: Feed): Read {
  return staticRead(priceKeys.feed(feed.feed), feed.feed, latestRoundData, [])
}

/** Every read that prices the native currency and `tokens` on a chain with these sources. */
export function priceReads(sources: PriceSources, tokens: Address[]): Read[] {
  const reads: Read[] = sources.native ? [feedRead(sources.native)] : []
  for (const token of tokens) {
    const feed = sources.feeds.get(token.toLowerCase())
    if (feed) {
      reads.push(feedRead(feed))
      continue
    }
    for (const deployment of sources.uniswapV3) {
      for (const quote of deployment.quotes) {
        const quoteFeed = sources.feeds.get(quote.token.toLowerCase())
        if (!quoteFeed || quote.token.toLowerCase() === token.toLowerCase()) continue
        reads.push(feedRead(quoteFeed))
        for (const fee of deployment.fees) {
          const pool = v3PoolAddress(deployment, token, quote.token, fee)
          const window = [sources.twapSeconds, 0]
          reads.push(staticRead(priceKeys.observe(pool, sources.twapSeconds), pool, observe, [window]))
          reads.push(poolDepthRead(priceKeys.depth(pool, token), pool, token))
        }
      }
    }
  }
  return reads
}
