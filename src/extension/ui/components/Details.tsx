import type { SerializedValue } from '../../../engine/index.ts'
import type { ConfirmView, DecodedField } from '../lib/confirmView.ts'
import { AddressText } from './AddressText.tsx'

const show = (value: SerializedValue): string => (typeof value === 'string' ? value : JSON.stringify(value))

function Fields({ fields }: { fields: DecodedField[] }) {
  return (
    <ul className="args">
      {fields.map((field) => (
        <li key={field.name}>
          <span className="muted">
            {field.name} ({field.type}):
          </span>{' '}
          <span className="mono">{show(field.value)}</span>
        </li>
      ))}
    </ul>
  )
}

/** Typed-data strings are shown parsed, so the raw view reads as JSON rather than an escaped string. */
function pretty(params: unknown[]): string {
  const expanded = params.map((param) => {
    if (typeof param !== 'string' || !param.trimStart().startsWith('{')) return param
    try {
      return JSON.parse(param)
    } catch {
      return param
    }
  })
  return JSON.stringify(expanded, null, 2)
}

/** Decoded calldata / typed-data fields and the raw request, folded away until asked for. */
export function Details({ view, params }: { view: ConfirmView; params: unknown[] }) {
  return (
    <section className="card">
      {view.calls.map((call, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one entry per transaction, in order
        <details key={index}>
          <summary>
            Call: <span className="mono">{call.functionName}</span>
          </summary>
          <div className="change-sub">
            on <AddressText address={call.contract} what="contract address" />
          </div>
          <Fields fields={call.arguments.map((arg) => ({ name: arg.name, type: arg.paramType, value: arg.value }))} />
        </details>
      ))}
      {view.message && (
        <details>
          <summary>
            Message: <span className="mono">{view.message.primaryType}</span>
          </summary>
          <Fields fields={view.message.fields} />
        </details>
      )}
      <details open={view.action === 'ERROR'}>
        <summary>Raw request</summary>
        <pre>{pretty(params)}</pre>
      </details>
    </section>
  )
}
