/** The options form: settings as editable text, and validation that names the field and the reason. */
import { DEFAULT_SETTINGS, type OnScanFailure, type Settings } from '../../shared/settings.ts'

export type RpcRow = { chainId: string; url: string }

export type SettingsForm = {
  backendKind: 'local' | 'remote'
  apiUrl: string
  apiKey: string
  rpcRows: RpcRow[]
  onScanFailure: OnScanFailure
}

/** Field name (`apiUrl`, `apiKey`, `rpc.<row>.chainId`, `rpc.<row>.url`) → what is wrong with it. */
export type FormErrors = Record<string, string>

/** Settings → form, RPC rows sorted by chain id so the list reads the same on every visit. */
export function toForm(settings: Settings): SettingsForm {
  return {
    backendKind: settings.backend.kind,
    apiUrl: settings.backend.kind === 'remote' ? settings.backend.apiUrl : '',
    apiKey: settings.backend.kind === 'remote' ? settings.backend.apiKey : '',
    rpcRows: Object.entries(settings.rpcUrls)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([chainId, url]) => ({ chainId, url })),
    onScanFailure: settings.onScanFailure,
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Why `value` is not a usable endpoint URL, or null when it is. `secret` endpoints (they receive the API key) must
 * use https, except on this machine.
 */
export function urlProblem(value: string, options: { secret?: boolean } = {}): string | null {
  const text = value.trim()
  if (!text) return 'is required'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return `"${text}" is not a URL (expected e.g. https://rpc.example.org)`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must start with http:// or https://`
  if (url.username || url.password) return 'must not contain a user name or password'
  if (options.secret && url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    return 'must use https:// (the API key would travel unencrypted); http:// is allowed only for localhost'
  }
  return null
}

/** Why `value` is not a chain id, or null when it is a positive decimal integer. */
function chainIdProblem(value: string): string | null {
  const text = value.trim()
  if (!text) return 'is required'
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
    return `"${text}" is not a chain id (a positive whole number, e.g. 1 for Ethereum)`
  }
  return null
}

/** Validates the form; on success returns the settings to store (keeping the fields the form does not edit). */
export function fromForm(
  form: SettingsForm,
  current: Settings,
): { ok: true; settings: Settings } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {}
  const seen = new Map<string, number>()
  form.rpcRows.forEach((row, index) => {
    const chainProblem = chainIdProblem(row.chainId)
    if (chainProblem) errors[`rpc.${index}.chainId`] = `Chain id ${chainProblem}`
    else {
      const id = String(Number(row.chainId.trim()))
      const first = seen.get(id)
      if (first !== undefined) errors[`rpc.${index}.chainId`] = `Chain ${id} is already listed (row ${first + 1})`
      else seen.set(id, index)
    }
    const problem = urlProblem(row.url)
    if (problem) errors[`rpc.${index}.url`] = `RPC URL ${problem}`
  })
  if (form.backendKind === 'remote') {
    const problem = urlProblem(form.apiUrl, { secret: true })
    if (problem) errors.apiUrl = `Scan API URL ${problem}`
    if (!form.apiKey.trim()) errors.apiKey = 'API key is required for a scan API'
    else if (/\s/.test(form.apiKey.trim())) errors.apiKey = 'API key must not contain spaces'
  }
  if (Object.keys(errors).length) return { ok: false, errors }
  return {
    ok: true,
    settings: {
      ...current,
      backend:
        form.backendKind === 'remote'
          ? { kind: 'remote', apiUrl: form.apiUrl.trim().replace(/\/+$/, ''), apiKey: form.apiKey.trim() }
          : { kind: 'local' },
      rpcUrls: Object.fromEntries(form.rpcRows.map((row) => [String(Number(row.chainId.trim())), row.url.trim()])),
      onScanFailure: form.onScanFailure,
    },
  }
}

/** The default RPC URL of a chain Preflight ships a default for; such rows can be reset but not removed. */
export function defaultRpcUrl(chainId: string): string | undefined {
  return DEFAULT_SETTINGS.rpcUrls[chainId.trim()]
}
