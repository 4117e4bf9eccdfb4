/**
 * The Safe takeover fixtures: a malicious singleton and the "migration helper" that swaps a Safe onto it by
 * delegatecall, a module that sweeps the Safe, and a guard that locks it. Each belongs to the attacker (dev account 8).
 */
import type { Address } from 'viem'

export type SafeAttacks = {
  /** A singleton that lets the attacker move everything and checks no owner's signature. */
  singleton: Address
  /** Delegate-called, `migrate(address)` overwrites the Safe's slot 0 (its singleton). */
  swapper: Address
  /** Once enabled, `sweep(safe)` sends the Safe's ETH to the attacker. */
  module: Address
  /** Once set, refuses every Safe transaction. */
  guard: Address
}

/** Deploys the takeover contracts with `deploy` (a fixture artifact name and its constructor arguments). */
export async function deploySafeAttacks(
  deploy: (name: string, args: unknown[]) => Promise<Address>,
  attacker: Address,
): Promise<SafeAttacks> {
  return {
    singleton: await deploy('TakeoverSingleton', [attacker]),
    swapper: await deploy('SingletonSwapper', []),
    module: await deploy('SweepModule', [attacker]),
    guard: await deploy('LockGuard', []),
  }
}
