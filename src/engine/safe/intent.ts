/**
 * What the decoded calls of a transaction say they do to a Safe's configuration: the owners, modules, guards,
 * handler, threshold and singleton named in the Safe's own settings functions, and the migrations of Safe's own
 * migration libraries. A simulated change these do not explain was made by code nobody showed the signer.
 */
import { type Address, isAddressEqual } from 'viem'
import { decodeKnownFunction } from '../abi/index.ts'
import type { Call } from './calls.ts'
import { isUnset, type SafeConfigChange } from './config.ts'
import { safeDeployment } from './deployments.ts'

/** What the calls announce for one Safe. */
export type SafeIntent = {
  addedOwners: Address[]
  removedOwners: Address[]
  thresholds: bigint[]
  enabledModules: Address[]
  disabledModules: Address[]
  guards: Address[]
  moduleGuards: Address[]
  handlers: Address[]
  singletons: Address[]
  /** A delegate call into one of Safe's migration libraries, which may move the Safe to any released singleton. */
  migrates: boolean
}

/** Everything the calls (execTransaction and MultiSend unwrapped) announce for `safe`. */
export function safeIntent(calls: Call[], safe: Address): SafeIntent {
  const intent: SafeIntent = {
    addedOwners: [],
    removedOwners: [],
    thresholds: [],
    enabledModules: [],
    disabledModules: [],
    guards: [],
    moduleGuards: [],
    handlers: [],
    singletons: [],
    migrates: false,
  }
  for (const call of calls) {
    if (call.depth === 0 || !call.to || !isAddressEqual(call.from, safe)) continue
    if (call.delegate) {
      if (safeDeployment(call.to)?.name.includes('Migration')) intent.migrates = true
      continue
    }
    // The settings functions only act when the Safe calls itself.
    if (!isAddressEqual(call.to, safe)) continue
    const decoded = decodeKnownFunction(call.data)
    if (!decoded) continue
    const args = decoded.args
    const address = (index: number) => args[index] as Address
    switch (decoded.functionName) {
      case 'addOwnerWithThreshold':
        intent.addedOwners.push(address(0))
        intent.thresholds.push(args[1] as bigint)
        break
      case 'removeOwner':
        intent.removedOwners.push(address(1))
        intent.thresholds.push(args[2] as bigint)
        break
      case 'swapOwner':
        intent.removedOwners.push(address(1))
        intent.addedOwners.push(address(2))
        break
      case 'changeThreshold':
        intent.thresholds.push(args[0] as bigint)
        break
      case 'enableModule':
        intent.enabledModules.push(address(0))
        break
      case 'disableModule':
        intent.disabledModules.push(address(1))
        break
      case 'setGuard':
        intent.guards.push(address(0))
        break
      case 'setModuleGuard':
        intent.moduleGuards.push(address(0))
        break
      case 'setFallbackHandler':
        intent.handlers.push(address(0))
        break
      case 'changeMasterCopy':
        intent.singletons.push(address(0))
        break
    }
  }
  return intent
}

/** True when the announced calls account for the change, value for value. */
export function isExplained(change: SafeConfigChange, intent: SafeIntent): boolean {
  const named = (list: Address[], address: Address) => list.some((entry) => isAddressEqual(entry, address))
  switch (change.field) {
    case 'owners':
      return (
        change.added.every((owner) => named(intent.addedOwners, owner)) &&
        change.removed.every((owner) => named(intent.removedOwners, owner))
      )
    case 'modules':
      return (
        change.added.every((module) => named(intent.enabledModules, module)) &&
        change.removed.every((module) => named(intent.disabledModules, module))
      )
    case 'threshold':
      return intent.thresholds.includes(change.after)
    case 'guard':
      return named(intent.guards, change.after)
    case 'moduleGuard':
      return named(intent.moduleGuards, change.after)
    case 'fallbackHandler':
      return (
        named(intent.handlers, change.after) ||
        (intent.migrates && (isUnset(change.after) || safeDeployment(change.after)?.role === 'fallbackHandler'))
      )
    case 'singleton':
      return (
        named(intent.singletons, change.after) ||
        (intent.migrates && safeDeployment(change.after)?.role === 'singleton')
      )
    case 'nonce':
      return false
  }
}
