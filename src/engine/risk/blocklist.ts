/** Known malicious addresses per chain: the bundled list plus entries a host adds (e.g. from its own feed). */
import type { Address } from 'viem'
import type { Warning } from '../api/index.ts'
import bundled from './data/maliciousAddresses.json'
import { makeWarning } from './warnings.ts'

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

/**
 * KNOWN_MALICIOUS for each of `addresses` on the chain's list; `subject` says what involves it ("This transaction").
 * The warning's data names the address, so a client can point at it.
 */
export function maliciousAddressWarnings(chainId: number, addresses: Iterable<Address>, subject: string): Warning[] {
  return [...addresses].flatMap((address) => {
    const label = knownMalicious(chainId, address)
    if (!label) return []
    const lower = address.toLowerCase()
    return [
      makeWarning(
        'KNOWN_MALICIOUS',
        'CRITICAL',
        `${subject} involves ${lower}, a known malicious address (${label}). Do not sign it.`,
        { address: lower },
      ),
    ]
  })
}
