/** The bundled, per-chain list of where prices are read on-chain (data/priceSources.json), with `includes` merged. */
import type { Address, Hex } from 'viem'
import bundled from './data/priceSources.json'

/** A Chainlink USD feed (AggregatorV3Interface) and how often it is due to update. */
export type Feed = { feed: Address; decimals: number; heartbeat: number }

/** A quote token of TWAP pools: WETH or a USD stablecoin, each priced by its own feed. */
export type Quote = { token: Address; decimals: number }

/** A Uniswap V3 deployment: pools are CREATE2 addresses of its factory. */
export type V3Deployment = { factory: Address; initCodeHash: Hex; fees: number[]; quotes: Quote[] }

/** A Uniswap V2 deployment: pairs are CREATE2 addresses of its factory. */
export type V2Deployment = { factory: Address; initCodeHash: Hex }

/** Every on-chain price source of one chain. */
export type PriceSources = {
  native: Feed | null
  /** Feeds by lowercase token address. */
  feeds: Map<string, Feed>
  uniswapV3: V3Deployment[]
  uniswapV2: V2Deployment[]
  twapSeconds: number
  /** The least a pool must pay, in dollars of its quote token, for the token before its price falls 5%. */
  minDepthUsd: number
}

type ChainEntry = {
  includes?: string[]
  native?: Feed
  feeds?: Record<string, Feed & { symbol?: string }>
  uniswapV3?: V3Deployment[]
  uniswapV2?: V2Deployment[]
  twapSeconds?: number
  minDepthUsd?: number
}

const chains = (bundled as { chains: Record<string, ChainEntry> }).chains
const resolved = new Map<number, PriceSources | null>()

/** The price sources of a chain, or null when the bundled list has none (then every price is null). */
export function priceSources(chainId: number): PriceSources | null {
  if (!resolved.has(chainId)) resolved.set(chainId, resolve(String(chainId)))
  return resolved.get(chainId) ?? null
}

// The file's addresses are checksummed already (test/engine/prices checks it): checksumming them here took ~30
// keccak hashes, in an engine that had hashed nothing yet, on a cold service worker's first scan.
function resolve(id: string): PriceSources | null {
  const entry = chains[id]
  if (!entry) return null
  const included = (entry.includes ?? []).flatMap((other) => resolve(other) ?? [])
  const feed = ({ feed, decimals, heartbeat }: Feed): Feed => ({ feed, decimals, heartbeat })
  const feeds = new Map<string, Feed>()
  for (const other of included) for (const [token, value] of other.feeds) feeds.set(token, value)
  for (const [token, value] of Object.entries(entry.feeds ?? {})) feeds.set(token.toLowerCase(), feed(value))
  const v3 = entry.uniswapV3 ?? []
  const v2 = entry.uniswapV2 ?? []
  return {
    native: entry.native ? feed(entry.native) : (included[0]?.native ?? null),
    feeds,
    uniswapV3: [...v3, ...included.flatMap((other) => other.uniswapV3)],
    uniswapV2: [...v2, ...included.flatMap((other) => other.uniswapV2)],
    twapSeconds: entry.twapSeconds ?? included[0]?.twapSeconds ?? 1800,
    minDepthUsd: entry.minDepthUsd ?? included[0]?.minDepthUsd ?? Number.POSITIVE_INFINITY,
  }
}
