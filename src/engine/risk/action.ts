/** The action a response recommends, decided by its warnings alone (seed §2.7). */
import type { Action, Warning } from '../api/index.ts'

/** BLOCK when anything is critical, WARN when anything is a warning, otherwise NONE. */
export function actionFor(warnings: Warning[]): Action {
  if (warnings.some((warning) => warning.severity === 'CRITICAL')) return 'BLOCK'
  return warnings.length > 0 ? 'WARN' : 'NONE'
}
