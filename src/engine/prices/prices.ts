/**
 * Dollar prices from the reads (seed §2.6 `price`): a feed's answer when it is fresh, else a Uniswap V3 TWAP against a
 * quote token times the quote's feed, from the deepest pool that pays at least the chain's minimum for the token before
 * its price falls 5%, and whose price now is within 10% of its TWAP. Anything stale, missing, thin, moved or malformed
 * is null: a price is read, never guessed.
 */
import { type Address, formatUnits } from 'viem'
import type { AssetPrice } from '../api/index.ts'
import type { PoolDepth, ReadResults } from '../simulation/index.ts'
import { sortTokens, v3PoolAddress } from './pools.ts'
import { priceKeys } from './priceReads.ts'
import type { Feed, PriceSources } from './sources.ts'

/** The price of the native currency (null) or of a token, or null when it cannot be known. */
export type PriceLookup = (token: Address | null) => AssetPrice | null

/** A feed's answer counts as current for this many heartbeats: feeds update on schedule, give or take minutes. */
const HEARTBEAT_GRACE = 1.5
/** An answer from further in the future than this (seconds) is not a feed's honest answer. */
const CLOCK_SKEW = 60
/**
 * Ticks for a 10% move of a pool's price (1.0001^953 ≈ 1.1): a price now further than this from the TWAP is not what
 * the TWAP says, and the depth measured from it does not back the TWAP either.
 */
const TWAP_DRIFT_TICKS = 953

type RoundData = readonly [bigint, bigint, bigint, bigint, bigint]

/**
 * Prices for one scan, computed on first use and kept: `decimalsOf` gives a token's decimals (from the simulation's
 * metadata) and `blockTime` the time the reads ran at, which freshness is judged against.
 */
export function assetPrices(
  sources: PriceSources | null,
  reads: ReadResults,
  blockTime: bigint | null,
  decimalsOf: (token: Address) => number | null,
): PriceLookup {
  const known = new Map<string, AssetPrice | null>()
  const feedPrice = (feed: Feed | null | undefined): AssetPrice | null => {
    if (!feed || blockTime === null) return null
    const round = reads.before.get(priceKeys.feed(feed.feed)) as RoundData | undefined
    if (!round) return null
    const [, answer, , updatedAt] = round
    const age = Number(blockTime - updatedAt)
    if (answer <= 0n || updatedAt === 0n || age > feed.heartbeat * HEARTBEAT_GRACE || age < -CLOCK_SKEW) return null
    return { source: 'Chainlink', updatedAt: Number(updatedAt), dollarValuePerToken: toNumber(answer, feed.decimals) }
  }
  const twapPrice = (token: Address): AssetPrice | null => {
    const decimals = decimalsOf(token)
    if (!sources || decimals === null || blockTime === null) return null
    let best: { depthUsd: number; dollars: number } | null = null
    for (const deployment of sources.uniswapV3) {
      for (const quote of deployment.quotes) {
        const quotePrice = feedPrice(sources.feeds.get(quote.token.toLowerCase()))
        if (!quotePrice || quote.token.toLowerCase() === token.toLowerCase()) continue
        for (const fee of deployment.fees) {
          const pool = v3PoolAddress(deployment, token, quote.token, fee)
          const depth = reads.before.get(priceKeys.depth(pool, token)) as PoolDepth | undefined
          const observed = reads.before.get(priceKeys.observe(pool, sources.twapSeconds)) as
            | readonly [readonly bigint[], readonly bigint[]]
            | undefined
          const [cumulativeThen, cumulativeNow] = observed?.[0] ?? []
          if (!depth?.live || cumulativeThen === undefined || cumulativeNow === undefined) continue
          const depthUsd = toNumber(depth.paid, quote.decimals) * quotePrice.dollarValuePerToken
          if (depthUsd < sources.minDepthUsd || (best && best.depthUsd >= depthUsd)) continue
          const tick = floorDiv(cumulativeNow - cumulativeThen, BigInt(sources.twapSeconds))
          if (Math.abs(depth.tick - tick) > TWAP_DRIFT_TICKS) continue
          const tokenIsToken0 = sortTokens(token, quote.token)[0] === token
          // 1.0001^tick is token1 per token0 in base units; scale to whole tokens, then to dollars.
          const quotePerToken = (tokenIsToken0 ? 1.0001 ** tick : 1.0001 ** -tick) * 10 ** (decimals - quote.decimals)
          const dollars = quotePerToken * quotePrice.dollarValuePerToken
          if (Number.isFinite(dollars) && dollars > 0) best = { depthUsd, dollars }
        }
      }
    }
    return best && { source: 'UniswapV3', updatedAt: Number(blockTime), dollarValuePerToken: best.dollars }
  }
  return (token) => {
    const key = token === null ? 'native' : token.toLowerCase()
    if (!known.has(key)) {
      const feed = token === null ? sources?.native : sources?.feeds.get(key)
      known.set(key, feed ? feedPrice(feed) : token === null ? null : twapPrice(token))
    }
    return known.get(key) ?? null
  }
}

function toNumber(value: bigint, decimals: number): number {
  return Number(formatUnits(value, decimals))
}

/** Integer division rounding toward negative infinity, as Uniswap's OracleLibrary rounds a mean tick. */
function floorDiv(numerator: bigint, denominator: bigint): number {
  const quotient = numerator / denominator
  return Number(numerator < 0n && numerator % denominator !== 0n ? quotient - 1n : quotient)
}
