/** The chain/network pairs a server answers for (seed §4 `{chain}/v0/{network}`), as given on the command line. */

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
