/** Known malicious addresses per chain: the bundled list plus entries a host adds (e.g. from its own feed). */
import type { Address } from 'viem'
import bundled from './data/maliciousAddresses.json'

const byChain = new Map<number, Map<string, string>>(
  Object.entries(bundled.chains).map(([chainId, entries]) => [
    Number(chainId),
    new Map(Object.entries(entries).map(([address, label]) => [address.toLowerCase(), label])),
  ]),
)

/** Adds addresses (with a label saying why) to a chain's blocklist for the rest of this process. */
export function addMaliciousAddresses(chainId: number, entries: Record<string, string>): void {
  const list = byChain.get(chainId) ?? new Map<string, string>()
  for (const [address, label] of Object.entries(entries)) list.set(address.toLowerCase(), label)
  byChain.set(chainId, list)
}

/** Why the address is known to be malicious on this chain, or null when it is not on the list. */
export function knownMalicious(chainId: number, address: Address): string | null {
  return byChain.get(chainId)?.get(address.toLowerCase()) ?? null
}
