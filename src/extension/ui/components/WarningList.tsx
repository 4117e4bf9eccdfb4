import type { Warning } from '../../../engine/index.ts'
import { LookalikeAddresses } from './LookalikeAddresses.tsx'

/** The two addresses of a POISONED_ADDRESS warning, when its data holds them. */
function lookalikePair(warning: Warning): { address: string; lookalikeOf: string } | undefined {
  const data = warning.data
  if (warning.kind !== 'POISONED_ADDRESS' || data === null || typeof data !== 'object') return undefined
  const { address, lookalikeOf } = data as Record<string, unknown>
  return typeof address === 'string' && typeof lookalikeOf === 'string' ? { address, lookalikeOf } : undefined
}

/** Each warning with its severity; CRITICAL first, then in the engine's order. */
export function WarningList({ warnings }: { warnings: Warning[] }) {
  if (!warnings.length) return null
  const sorted = [...warnings].sort((a, b) => Number(b.severity === 'CRITICAL') - Number(a.severity === 'CRITICAL'))
  return (
    <section className="card" aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings ({warnings.length})</h2>
      <ul className="warnings">
        {sorted.map((warning) => {
          const pair = lookalikePair(warning)
          return (
            <li
              key={`${warning.kind}:${warning.message}:${pair?.address ?? ''}`}
              className="warning"
              data-warning-kind={warning.kind}
              data-severity={warning.severity}
            >
              <span className="severity">{warning.severity === 'CRITICAL' ? 'CRITICAL' : 'WARNING'}</span>{' '}
              {warning.message}
              {pair && <LookalikeAddresses {...pair} />}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
