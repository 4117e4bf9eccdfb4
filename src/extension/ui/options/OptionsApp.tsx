import { useEffect, useState } from 'react'
import type { OnScanFailure, Settings } from '../../shared/settings.ts'
import { chainName } from '../lib/format.ts'
import {
  defaultRpcUrl,
  type FormErrors,
  fromForm,
  type RpcRow,
  type SettingsForm,
  toForm,
} from '../lib/settingsForm.ts'
import { settingsStore } from '../stores/settingsStore.ts'

const FAILURE_CHOICES: { value: OnScanFailure; title: string; detail: string }[] = [
  {
    value: 'ask',
    title: 'Ask me',
    detail: 'Show what failed; Reject has focus, Continue is one click away.',
  },
  {
    value: 'ask-default-reject',
    title: 'Ask me, and make continuing deliberate',
    detail: 'Show what failed; Continue needs ticking "I understand the risk" first.',
  },
]

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span id={id} className="error-text">
      {text}
    </span>
  ) : null
}

function RpcRows({
  rows,
  errors,
  onChange,
}: {
  rows: RpcRow[]
  errors: FormErrors
  onChange: (rows: RpcRow[]) => void
}) {
  const update = (index: number, patch: Partial<RpcRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)))
  return (
    <div>
      {rows.map((row, index) => {
        const fallback = defaultRpcUrl(row.chainId)
        const chainError = errors[`rpc.${index}.chainId`]
        const urlError = errors[`rpc.${index}.url`]
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the chain id itself is editable
          <div className="rpc-row" key={index}>
            <input
              type="text"
              inputMode="numeric"
              aria-label={`Chain id, row ${index + 1}`}
              value={row.chainId}
              aria-invalid={!!chainError}
              aria-describedby={chainError ? `rpc-${index}-chain-error` : undefined}
              onChange={(event) => update(index, { chainId: event.target.value })}
            />
            <input
              type="url"
              aria-label={`RPC URL for chain ${row.chainId || `row ${index + 1}`}`}
              title={Number(row.chainId) ? chainName(Number(row.chainId)) : undefined}
              value={row.url}
              aria-invalid={!!urlError}
              aria-describedby={urlError ? `rpc-${index}-url-error` : undefined}
              onChange={(event) => update(index, { url: event.target.value })}
            />
            {fallback ? (
              <button
                type="button"
                className="small-button"
                disabled={row.url === fallback}
                onClick={() => update(index, { url: fallback })}
              >
                Reset
              </button>
            ) : (
              <button
                type="button"
                className="small-button"
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            )}
            <FieldError id={`rpc-${index}-chain-error`} text={chainError} />
            <FieldError id={`rpc-${index}-url-error`} text={urlError} />
          </div>
        )
      })}
      <button type="button" className="small-button" onClick={() => onChange([...rows, { chainId: '', url: '' }])}>
        Add a chain
      </button>
    </div>
  )
}

function Editor({ settings }: { settings: Settings }) {
  const [form, setForm] = useState<SettingsForm>(() => toForm(settings))
  const [errors, setErrors] = useState<FormErrors>({})
  const [status, setStatus] = useState<string | null>(null)
  const patch = (change: Partial<SettingsForm>) => {
    setForm((current) => ({ ...current, ...change }))
    setStatus(null)
  }
  const save = async (event: React.FormEvent) => {
    event.preventDefault()
    const result = fromForm(form, settings)
    if (!result.ok) {
      setErrors(result.errors)
      setStatus(`Not saved: ${Object.keys(result.errors).length} field(s) need attention.`)
      return
    }
    setErrors({})
    try {
      await settingsStore.write(result.settings)
      setForm(toForm(result.settings))
      setStatus('Saved.')
    } catch {
      setStatus('Not saved: the browser refused to store the settings.')
    }
  }
  return (
    <form className="page" onSubmit={save} noValidate>
      <h1 className="brand">
        <img src="/icons/icon-32.png" alt="" /> Preflight settings
      </h1>

      <fieldset className="card">
        <legend>
          <h2>Scan backend</h2>
        </legend>
        <label className="choice">
          <input
            type="radio"
            name="backend"
            checked={form.backendKind === 'local'}
            onChange={() => patch({ backendKind: 'local' })}
          />
          <span>
            <strong>Simulate locally</strong>
            <br />
            <span className="muted">The extension simulates on the RPC node set for the chain below.</span>
          </span>
        </label>
        <label className="choice">
          <input
            type="radio"
            name="backend"
            checked={form.backendKind === 'remote'}
            onChange={() => patch({ backendKind: 'remote' })}
          />
          <span>
            <strong>Use a scan API</strong>
            <br />
            <span className="muted">Requests are sent to a Preflight scan server (or a compatible API).</span>
          </span>
        </label>
        {form.backendKind === 'remote' && (
          <>
            <div className="field">
              <label htmlFor="api-url">Scan API URL</label>
              <input
                id="api-url"
                type="url"
                placeholder="https://scan.example.org"
                value={form.apiUrl}
                aria-invalid={!!errors.apiUrl}
                aria-describedby={errors.apiUrl ? 'api-url-error' : undefined}
                onChange={(event) => patch({ apiUrl: event.target.value })}
              />
              <FieldError id="api-url-error" text={errors.apiUrl} />
            </div>
            <div className="field">
              <label htmlFor="api-key">API key</label>
              <input
                id="api-key"
                type="password"
                autoComplete="off"
                value={form.apiKey}
                aria-invalid={!!errors.apiKey}
                aria-describedby={errors.apiKey ? 'api-key-error' : undefined}
                onChange={(event) => patch({ apiKey: event.target.value })}
              />
              <FieldError id="api-key-error" text={errors.apiKey} />
            </div>
          </>
        )}
      </fieldset>

      <fieldset className="card">
        <legend>
          <h2>RPC per chain</h2>
        </legend>
        <p className="muted" style={{ marginTop: 0 }}>
          The node must support eth_simulateV1. Chains Preflight ships a default for can be reset, not removed.
        </p>
        <RpcRows rows={form.rpcRows} errors={errors} onChange={(rpcRows) => patch({ rpcRows })} />
      </fieldset>

      <fieldset className="card">
        <legend>
          <h2>When a scan fails</h2>
        </legend>
        <p className="muted" style={{ marginTop: 0 }}>
          A failed scan never approves anything by itself: you always decide.
        </p>
        {FAILURE_CHOICES.map((choice) => (
          <label className="choice" key={choice.value}>
            <input
              type="radio"
              name="onScanFailure"
              checked={form.onScanFailure === choice.value}
              onChange={() => patch({ onScanFailure: choice.value })}
            />
            <span>
              <strong>{choice.title}</strong>
              <br />
              <span className="muted">{choice.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>

      <div className="buttons" style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <button type="submit" className="small-button primary">
          Save
        </button>
        <span role="status" className={status?.startsWith('Not') ? 'error-text' : 'muted'}>
          {status}
        </span>
      </div>
    </form>
  )
}

/** The options page: scan backend, RPC per chain, and what happens when a scan fails. */
export function OptionsApp() {
  const settings = settingsStore.use((state) => state.value)
  const error = settingsStore.use((state) => state.error)
  useEffect(() => {
    document.title = 'Preflight settings'
  }, [])
  if (!settings) return <p className="page muted">{error ?? 'Loading…'}</p>
  return <Editor settings={settings} />
}
