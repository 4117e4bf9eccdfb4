/** Which chain a node serves (asked once per RPC URL), what the chain is called and what its native currency is. */
import { isHex } from 'viem'
import { arbitrum, avalanche, base, bsc, foundry, gnosis, mainnet, optimism, polygon, sepolia } from 'viem/chains'
import { type RpcClient, RpcFailure } from './rpc.ts'

const chainIdByRpcUrl = new Map<string, number>()

const KNOWN_CHAINS = [mainnet, optimism, bsc, gnosis, polygon, base, arbitrum, avalanche, sepolia, foundry]

/** The chain id given by the caller or cached for this RPC URL; null when the node must be asked. */
export function knownChainId(rpcUrl: string, given: number | undefined): number | null {
  return given ?? chainIdByRpcUrl.get(rpcUrl) ?? null
}

/** Asks the node for its chain id (meant to share a JSON-RPC batch with the simulation) and caches it. */
export async function fetchChainId(client: RpcClient, rpcUrl: string): Promise<number> {
  const answer = await client.request('eth_chainId', [])
  if (typeof answer !== 'string' || !isHex(answer, { strict: true }) || answer === '0x') {
    // Only the start of the answer: a hostile endpoint could send megabytes.
    const shown = String(JSON.stringify(answer)).slice(0, 40)
    throw new RpcFailure('BAD_ANSWER', `The node answered eth_chainId with ${shown}, not a chain id.`, null)
  }
  const chainId = Number(BigInt(answer))
  chainIdByRpcUrl.set(rpcUrl, chainId)
  return chainId
}

/** Name, symbol and decimals of the chain's native currency; Ether for chains this build does not know. */
export function nativeCurrency(chainId: number): { name: string; symbol: string; decimals: number } {
  return KNOWN_CHAINS.find((chain) => chain.id === chainId)?.nativeCurrency ?? mainnet.nativeCurrency
}

/**
 * Seconds between the chain's blocks (viem's figure, rounded up: a block's time is in whole seconds); 1 for chains
 * this build does not know (and anvil), the least a next block's time can be past its parent's on a chain that
 * requires it to be later.
 */
export function blockSeconds(chainId: number): bigint {
  const milliseconds = KNOWN_CHAINS.find((chain) => chain.id === chainId)?.blockTime ?? 1000
  return BigInt(Math.max(1, Math.ceil(milliseconds / 1000)))
}

/** A chain in a sentence: "Optimism (chain 10)", or "chain 1337" for chains this build does not know by name. */
export function chainInWords(chainId: number): string {
  const name = KNOWN_CHAINS.find((chain) => chain.id === chainId)?.name
  return name ? `${name} (chain ${chainId})` : `chain ${chainId}`
}
