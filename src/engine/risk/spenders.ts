/**
 * Contracts that take approvals for a living (marketplace exchanges, conduits and transfer delegates, swap routers,
 * Permit2), per chain. The list is generated from maintained deployment packages on npm by
 * test/tools/knownSpenders.ts into data/knownSpenders.json; nothing here is typed in by hand. An approval to one of
 * them is what using the protocol takes; an unlimited one to any other contract deserves a warning.
 */
import type { Address } from 'viem'
import generated from './data/knownSpenders.json'

/** A known spender: the name it goes by, and its protocol id in data/protocols.json where one is listed. */
export type KnownSpender = { name: string; protocol?: string }

const ALL_CHAINS = 'all'

/** The list by chain, built on first use: in the extension the data is a file fetched after the worker starts. */
let spendersByChain: Map<string, Map<string, KnownSpender>> | undefined

function byChain(): Map<string, Map<string, KnownSpender>> {
  spendersByChain ??= new Map(
    Object.entries(generated.spenders as Record<string, Record<string, KnownSpender>>).map(([chain, entries]) => [
      chain,
      new Map(Object.entries(entries).map(([address, spender]) => [address.toLowerCase(), spender])),
    ]),
  )
  return spendersByChain
}

/** The known spender at `address` on the chain (or on every chain), or null. */
export function knownSpender(chainId: number, address: Address): KnownSpender | null {
  const key = address.toLowerCase()
  const chains = byChain()
  return chains.get(String(chainId))?.get(key) ?? chains.get(ALL_CHAINS)?.get(key) ?? null
}
