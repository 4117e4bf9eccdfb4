/** A Safe's context as the simulation read it (owners, threshold, nonce, version, singleton), and its owners. */
import { type Address, isAddressEqual } from 'viem'
import type { SafeConfig } from './config.ts'

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

/** The context a signer is shown, from the configuration read before the transactions. */
export function safeContext(address: Address, config: SafeConfig): SafeContext {
  return {
    address,
    version: config.version ?? 'unknown',
    owners: config.owners,
    threshold: Number(config.threshold),
    nonce: config.nonce,
    singleton: config.singleton,
  }
}
