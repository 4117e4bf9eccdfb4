/**
 * A Safe's configuration changes as state changes (SAFE_CONFIGURATION_CHANGE) in the Safe's own entry, each with a
 * plain-English diff that says who or what controls the Safe before and after ("Threshold: 2 → 1").
 */
import type { Address } from 'viem'
import type { SafeConfigurationField, StateChange } from '../api/index.ts'
import { deploymentLabel, isUnset, type SafeConfigChange, safeDeployment } from '../safe/index.ts'
import { shortAddress } from './format.ts'
import { addressInfo } from './stateChanges.ts'

/** How each field is named to people. */
export const SAFE_FIELD_NAMES: Record<SafeConfigurationField, string> = {
  singleton: 'Singleton',
  owners: 'Owners',
  threshold: 'Threshold',
  nonce: 'Nonce',
  modules: 'Modules',
  guard: 'Transaction guard',
  moduleGuard: 'Module guard',
  fallbackHandler: 'Fallback handler',
}

/** "Safe 1.4.1 (0x4167…461a)" for Safe's own contracts, "none" for the zero address, else the short address. */
export function controllerLabel(address: Address): string {
  if (isUnset(address)) return 'none'
  const known = safeDeployment(address)
  return known ? `${deploymentLabel(known)} (${shortAddress(address)})` : shortAddress(address)
}

/** The configuration changes keyed by the Safe's lowercase address, in the order they were found. */
export function renderSafeChanges(changes: SafeConfigChange[]): Record<Address, StateChange[]> {
  const bySafe: Record<Address, StateChange[]> = {}
  for (const change of changes) {
    const safe = change.safe.toLowerCase() as Address
    bySafe[safe] = [...(bySafe[safe] ?? []), renderSafeChange(change)]
  }
  return bySafe
}

/** One change as a state change. */
export function renderSafeChange(change: SafeConfigChange): StateChange {
  return {
    humanReadableDiff: `${SAFE_FIELD_NAMES[change.field]}: ${describeSafeChange(change)}`,
    rawInfo: {
      kind: 'SAFE_CONFIGURATION_CHANGE',
      data: { contract: addressInfo(change.safe), field: change.field, ...wireValues(change) },
    },
  }
}

/** Before and after as the wire carries them: lowercase addresses, lists of them, or decimal strings. */
function wireValues(change: SafeConfigChange): { before: string | string[]; after: string | string[] } {
  const lower = (address: Address) => address.toLowerCase()
  switch (change.field) {
    case 'owners':
    case 'modules':
      return { before: change.before.map(lower), after: change.after.map(lower) }
    case 'threshold':
    case 'nonce':
      return { before: change.before.toString(), after: change.after.toString() }
    default:
      return { before: lower(change.before), after: lower(change.after) }
  }
}

/** The change in words, without the field's name: "adds 0x1111…1111 (3 → 4 owners)", "2 → 1". */
export function describeSafeChange(change: SafeConfigChange): string {
  switch (change.field) {
    case 'owners': {
      const parts = [
        ...(change.added.length ? [`adds ${change.added.map(shortAddress).join(', ')}`] : []),
        ...(change.removed.length ? [`removes ${change.removed.map(shortAddress).join(', ')}`] : []),
      ]
      return `${parts.join('; ')} (${change.before.length} → ${change.after.length} owners)`
    }
    case 'modules':
      return [
        ...(change.added.length ? [`enables ${change.added.map(controllerLabel).join(', ')}`] : []),
        ...(change.removed.length ? [`disables ${change.removed.map(controllerLabel).join(', ')}`] : []),
      ].join('; ')
    case 'threshold':
      return change.after === 1n
        ? `${change.before} → 1 (any single owner then controls the Safe)`
        : `${change.before} → ${change.after} confirmations`
    case 'nonce':
      return `${change.before} → ${change.after} (Safe transactions signed for the nonces skipped can never execute)`
    case 'singleton':
    case 'guard':
    case 'moduleGuard':
    case 'fallbackHandler':
      return `${controllerLabel(change.before)} → ${controllerLabel(change.after)}`
  }
}
