/** Warnings the extension adds to a finished scan, from what only it knows (the user's payees, the page around a frame). */
import { actionFor, sortWarnings, type Warning } from '../../engine/index.ts'
import type { ScanState } from './pending.ts'

/** The scan with `warnings` added and its action decided again from all of them (seed §2.7); unchanged when none. */
export function withWarnings(scan: ScanState, warnings: Warning[]): ScanState {
  if (scan.status !== 'DONE' || warnings.length === 0) return scan
  const all = sortWarnings([...warnings, ...scan.response.warnings])
  // Both kinds of response carry warnings and an action alike; the compiler cannot pair the spread with its kind.
  return { ...scan, response: { ...scan.response, warnings: all, action: actionFor(all) } } as ScanState
}
