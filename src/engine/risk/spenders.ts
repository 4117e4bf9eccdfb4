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

const spendersByChain = new Map<string, Map<string, KnownSpender>>(
  Object.entries(generated.spenders as Record<string, Record<string, KnownSpender>>).map(([chain, entries]) => [
    chain,
    new Map(Object.entries(entries).map(([address, spender]) => [address.toLowerCase(), spender])),
  ]),
)

/** The known spender at `address` on the chain (or on every chain), or null. */
export function knownSpender(chainId: number, address: Address): KnownSpender | null {
  const key = address.toLowerCase()
  return spendersByChain.get(String(chainId))?.get(key) ?? spendersByChain.get(ALL_CHAINS)?.get(key) ?? null
}
