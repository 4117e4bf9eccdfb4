import type { Warning } from '../../../engine/index.ts'

/** Each warning with its severity; CRITICAL first, then in the engine's order. */
export function WarningList({ warnings }: { warnings: Warning[] }) {
  if (!warnings.length) return null
  const sorted = [...warnings].sort((a, b) => Number(b.severity === 'CRITICAL') - Number(a.severity === 'CRITICAL'))
  return (
    <section className="card" aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings ({warnings.length})</h2>
      <ul className="warnings">
        {sorted.map((warning) => (
          <li
            key={`${warning.kind}:${warning.message}`}
            className="warning"
            data-warning-kind={warning.kind}
            data-severity={warning.severity}
          >
            <span className="severity">{warning.severity === 'CRITICAL' ? 'CRITICAL' : 'WARNING'}</span>
            {warning.message}
          </li>
        ))}
      </ul>
    </section>
  )
}
