/**
 * Safe's own contracts, known by address: every released version on every chain, as @safe-global/safe-deployments
 * lists them (`data/deployments.json` is generated from that package by `npm run generate:safe-deployments`). The
 * devnet deploys Safe at these same addresses, so a devnet contract is recognised exactly as a mainnet one is.
 */
import type { Address } from 'viem'
import data from './data/deployments.json'

/** How Safe means a contract to be used: as a Safe's code, delegate-called, as fallback handler, or otherwise. */
export type DeploymentRole = 'singleton' | 'library' | 'fallbackHandler' | 'other'

/** A Safe contract found at an address: its name, version and role. */
export type SafeDeployment = { name: string; version: string; role: DeploymentRole }

const byAddress = new Map<string, SafeDeployment>()
for (const { name, version, role, addresses } of data.deployments) {
  for (const address of addresses) {
    byAddress.set(address.toLowerCase(), { name, version, role: role as DeploymentRole })
  }
}

/** The Safe contract at `address`, or null when it is not one Safe released. */
export function safeDeployment(address: Address): SafeDeployment | null {
  return byAddress.get(address.toLowerCase()) ?? null
}

/** True when `address` is a released Safe contract meant for `role`. */
export function isSafeDeployment(address: Address, role: DeploymentRole): boolean {
  return safeDeployment(address)?.role === role
}

/** "MultiSend 1.4.1": how a known deployment is named to people. */
export function deploymentLabel(deployment: SafeDeployment): string {
  return `${deployment.name} ${deployment.version}`
}
