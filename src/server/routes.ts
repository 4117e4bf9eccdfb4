/** The endpoints of the scan API (seed §4) and how a request path maps to one. */

export type Route =
  | { kind: 'transactions'; chain: string; network: string }
  | { kind: 'message'; chain: string; network: string }
  | { kind: 'domains' }

const SCAN_PATH = /^\/([a-z0-9-]{1,40})\/v0\/([a-z0-9-]{1,40})\/scan\/(transactions|transaction|message)\/?$/

/** Matches a request path (without its query) to an endpoint; the singular `/scan/transaction` is the 2022 path. */
export function matchRoute(pathname: string): Route | null {
  if (pathname === '/v0/domains' || pathname === '/v0/domains/') return { kind: 'domains' }
  const scan = SCAN_PATH.exec(pathname)
  if (!scan) return null
  const [, chain = '', network = '', endpoint] = scan
  return endpoint === 'message' ? { kind: 'message', chain, network } : { kind: 'transactions', chain, network }
}

/** The endpoints, for the error that answers an unknown path. */
export const ENDPOINTS = [
  'POST /{chain}/v0/{network}/scan/transactions',
  'POST /{chain}/v0/{network}/scan/transaction',
  'POST /{chain}/v0/{network}/scan/message',
  'POST /v0/domains',
]

/**
 * Parses `--rpc CHAIN/NETWORK=URL` values into a map from "chain/network" to the node URL, naming the bad value if any.
 */
export function parseNetworks(values: readonly string[]): Map<string, string> {
  const networks = new Map<string, string>()
  for (const value of values) {
    const match = /^([a-z0-9-]{1,40})\/([a-z0-9-]{1,40})=(.+)$/i.exec(value.trim())
    if (!match) throw new Error(`--rpc "${value}": expected CHAIN/NETWORK=URL, e.g. ethereum/mainnet=https://…`)
    const [, chain = '', network = '', url = ''] = match
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new Error(`--rpc "${value}": "${url}" is not a URL`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`--rpc "${value}": the node URL must be http:// or https://`)
    }
    networks.set(`${chain.toLowerCase()}/${network.toLowerCase()}`, url)
  }
  return networks
}
