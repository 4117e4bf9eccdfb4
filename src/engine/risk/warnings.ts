/** Warning values, their order (most severe first) and repeats dropped (seed §2.7). */
import type { Severity, Warning, WarningKind } from '../api/index.ts'

/** Builds a warning value; `message` is shown to people as is. */
export function makeWarning(
  kind: WarningKind,
  severity: Severity,
  message: string,
  data: Warning['data'] = null,
): Warning {
  return { kind, severity, message, data }
}

const SEVERITY_RANK: Record<Severity, number> = { CRITICAL: 0, WARNING: 1 }

/** Most severe first; equal severities keep the order they were raised in. */
export function sortWarnings(warnings: Warning[]): Warning[] {
  return [...warnings].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
}

/** Drops repeated warnings (same kind and message), keeping the first. */
export function uniqueWarnings(warnings: Warning[]): Warning[] {
  const seen = new Set<string>()
  return warnings.filter((warning) => {
    const key = `${warning.kind}\u0000${warning.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * Whether a warning says the request signs something known only by its hash or ID (a Safe's signature, an approved
 * hash, a CoW order pre-signed on chain): nothing moves now, and what is signed can later.
 */
export function signsByHash(warning: Warning): boolean {
  if (warning.kind === 'MULTISIG_BLIND_SIGNATURE') return true
  return typeof warning.data === 'object' && warning.data !== null && 'orderUid' in warning.data
}

/** Whether a warning says control of a contract changes hands (contractControl.ts): nothing moves, and yet. */
export function handsOverControl(warning: Warning): boolean {
  return typeof warning.data === 'object' && warning.data !== null && 'contractControl' in warning.data
}
