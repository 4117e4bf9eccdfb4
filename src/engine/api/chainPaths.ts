/**
 * Chain ids and the `<chain>/v0/<network>` path segments of the scan API (seed spec), in one place for the extension
 * and any other client of a remote scan API.
 */

export type ChainPath = { chain: string; network: string }

/** Chain id → API path segments. 31337 (the local devnet) is `ethereum/devnet`, a Preflight addition. */
export const CHAIN_PATHS: Readonly<Record<number, ChainPath>> = {
  1: { chain: 'ethereum', network: 'mainnet' },
  11155111: { chain: 'ethereum', network: 'sepolia' },
  137: { chain: 'polygon', network: 'mainnet' },
  10: { chain: 'optimism', network: 'mainnet' },
  8453: { chain: 'base', network: 'mainnet' },
  42161: { chain: 'arbitrum', network: 'one' },
  31337: { chain: 'ethereum', network: 'devnet' },
}

/** The scan endpoint for a chain on a remote scan API, or undefined when the API has no path for that chain. */
export function scanEndpoint(apiUrl: string, chainId: number, kind: 'transactions' | 'message'): string | undefined {
  const path = CHAIN_PATHS[chainId]
  if (!path) return undefined
  return `${apiUrl.replace(/\/+$/, '')}/${path.chain}/v0/${path.network}/scan/${kind}`
}

/** "chain/network" → chain id, built once: the scan API asks on every scan. */
const CHAIN_IDS = new Map(
  Object.entries(CHAIN_PATHS).map(([id, path]) => [`${path.chain}/${path.network}`, Number(id)]),
)

/** The chain id a `chain/network` pair names (e.g. "ethereum/mainnet" → 1), or undefined when it is not known. */
export function chainIdOf(pair: string): number | undefined {
  const [chain, network] = pair.toLowerCase().split('/')
  return CHAIN_IDS.get(`${chain}/${network}`)
}
