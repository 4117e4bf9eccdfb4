/** A Safe's context as the simulation read it (owners, threshold, nonce, version, singleton), and its owners. */
import { type Address, isAddressEqual } from 'viem'

/** What a signer should know about a Safe, read in the same simulation as the transactions. */
export type SafeContext = {
  address: Address
  version: string
  owners: Address[]
  threshold: number
  nonce: bigint
  singleton: Address | null
}

/** True when the account is one of the Safe's owners. */
export function isSafeOwner(context: SafeContext, account: Address): boolean {
  return context.owners.some((owner) => isAddressEqual(owner, account))
}
