import { useEffect, useState } from 'react'
import type { OnScanFailure, Settings } from '../../shared/settings.ts'
import { LateWallets } from '../components/LateWallets.tsx'
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

type ChoiceText = { title: string; detail: string }

const BACKEND_CHOICES: (ChoiceText & { value: SettingsForm['backendKind'] })[] = [
  {
    value: 'local',
    title: 'Simulate locally',
    detail: 'The extension simulates on the RPC node set for the chain below.',
  },
  {
    value: 'remote',
    title: 'Use a scan API',
    detail: 'Requests are sent to a Preflight scan server (or a compatible API).',
  },
]

const FAILURE_CHOICES: (ChoiceText & { value: OnScanFailure })[] = [
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

/** One radio option with its title and a line saying what it means. */
function Choice({
  name,
  choice,
  checked,
  onSelect,
}: {
  name: string
  choice: ChoiceText
  checked: boolean
  onSelect: () => void
}) {
  return (
    <label className="choice">
      <input type="radio" name={name} checked={checked} onChange={onSelect} />
      <span>
        <strong>{choice.title}</strong>
        <br />
        <span className="muted">{choice.detail}</span>
      </span>
    </label>
  )
}

/** A labelled input whose validation error is announced with it. */
function TextField({
  id,
  label,
  error,
  onChange,
  ...input
}: {
  id: string
  label: string
  type: 'url' | 'password'
  value: string
  error: string | undefined
  onChange: (value: string) => void
  placeholder?: string
  autoComplete?: string
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  )
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

      <LateWallets />

      <fieldset className="card">
        <legend>
          <h2>Scan backend</h2>
        </legend>
        {BACKEND_CHOICES.map((choice) => (
          <Choice
            key={choice.value}
            name="backend"
            choice={choice}
            checked={form.backendKind === choice.value}
            onSelect={() => patch({ backendKind: choice.value })}
          />
        ))}
        {form.backendKind === 'remote' && (
          <>
            <TextField
              id="api-url"
              label="Scan API URL"
              type="url"
              placeholder="https://scan.example.org"
              value={form.apiUrl}
              error={errors.apiUrl}
              onChange={(apiUrl) => patch({ apiUrl })}
            />
            <TextField
              id="api-key"
              label="API key"
              type="password"
              autoComplete="off"
              value={form.apiKey}
              error={errors.apiKey}
              onChange={(apiKey) => patch({ apiKey })}
            />
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
          <Choice
            key={choice.value}
            name="onScanFailure"
            choice={choice}
            checked={form.onScanFailure === choice.value}
            onSelect={() => patch({ onScanFailure: choice.value })}
          />
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
