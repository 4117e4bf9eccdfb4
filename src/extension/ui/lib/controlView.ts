/**
 * A Safe's configuration changes (SAFE_CONFIGURATION_CHANGE) as the Safe panel shows them: which Safe, which field,
 * and before → after in words. The engine's humanReadableDiff already says it ("Threshold: 2 → 1 (…)"); the panel
 * shows the field and the change apart, so "what changes in control" reads as a list.
 */
import type { SafeConfigurationChange, Severity, StateChange, Warning } from '../../../engine/index.ts'

export type ControlChange = {
  safe: string
  field: SafeConfigurationChange['data']['field']
  /** "Threshold", "Singleton", … */
  label: string
  /** The change in words: "2 → 1 (any single owner then controls the Safe)". */
  text: string
  /** How the engine judged it: the most severe warning about this Safe's field, or null. */
  severity: Severity | null
}

/** True for a Safe configuration change, as opposed to an asset change. */
export function isControlChange(change: StateChange): change is StateChange & { rawInfo: SafeConfigurationChange } {
  return change.rawInfo.kind === 'SAFE_CONFIGURATION_CHANGE'
}

/** Every Safe configuration change in `changes`, in the engine's order, with the severity its warnings gave it. */
export function controlChanges(changes: StateChange[], warnings: Warning[]): ControlChange[] {
  return changes.filter(isControlChange).map((change) => {
    const { contract, field } = change.rawInfo.data
    const diff = change.humanReadableDiff
    const colon = diff.indexOf(': ')
    return {
      safe: contract.address,
      field,
      label: colon === -1 ? field : diff.slice(0, colon),
      text: colon === -1 ? diff : diff.slice(colon + 2),
      severity: severityOf(contract.address, field, warnings),
    }
  })
}

/** Warnings about a Safe's field name it in `data` (`safe`, `field`); the owners warning covers owners and threshold. */
function severityOf(safe: string, field: string, warnings: Warning[]): Severity | null {
  const about = warnings.filter((warning) => {
    const data = warning.data
    if (typeof data !== 'object' || data === null || data.safe !== safe) return false
    return data.field === field || (data.field === undefined && (field === 'owners' || field === 'threshold'))
  })
  if (about.some((warning) => warning.severity === 'CRITICAL')) return 'CRITICAL'
  return about.length ? 'WARNING' : null
}

/** A BLOCK's reason when code the signers did not choose would run the Safe (singleton, module, guard, delegatecall). */
const CODE_TAKEOVER =
  'It would change who controls the Safe in a way Safe’s own contracts do not: see what changes in control below.'

/** A BLOCK's reason when the engine judged only the owners or threshold critical: Safe's own calls made the change. */
const OWNERS_TAKEOVER =
  'It would change who controls the Safe: accounts that are not owners today could run it on their own. See below.'

/**
 * Why a BLOCK hands over the Safe, in the banner's words, or null when no change in control is critical. Saying that
 * Safe's own contracts would not make the change is true of new code, not of an owner added by addOwnerWithThreshold.
 */
export function safeTakeoverWords(control: ControlChange[]): string | null {
  const critical = control.filter((change) => change.severity === 'CRITICAL')
  if (critical.length === 0) return null
  return critical.every((change) => change.field === 'owners' || change.field === 'threshold')
    ? OWNERS_TAKEOVER
    : CODE_TAKEOVER
}
