/** Extension settings, stored in chrome.storage.local under `settings` (DESIGN.md). */
import { scanEndpoint } from '../../engine/index.ts'

type ScanBackend =
  | { kind: 'local' } // simulate in the extension (its scanner page) through the RPC configured for the chain
  | { kind: 'remote'; apiUrl: string; apiKey: string } // a Preflight (or compatible) scan API

/** What to do when a scan fails: the user always decides; this only sets which button is focused by default. */
export type OnScanFailure = 'ask' | 'ask-default-reject'

export type Settings = {
  enabled: boolean
  backend: ScanBackend
  /** RPC URL per chain id (decimal string key). Chain 31337 defaults to the local devnet. */
  rpcUrls: Record<string, string>
  /** Origins (scheme://host[:port]) where Preflight is paused by the user. */
  pausedOrigins: string[]
  onScanFailure: OnScanFailure
}

export const SETTINGS_KEY = 'settings'

export const DEFAULT_SETTINGS: Settings = {
  enabled: true,
  backend: { kind: 'local' },
  rpcUrls: {
    '1': 'https://ethereum-rpc.publicnode.com',
    '10': 'https://optimism-rpc.publicnode.com',
    '137': 'https://polygon-bor-rpc.publicnode.com',
    '8453': 'https://base-rpc.publicnode.com',
    '42161': 'https://arbitrum-one-rpc.publicnode.com',
    '11155111': 'https://ethereum-sepolia-rpc.publicnode.com',
    '31337': 'http://127.0.0.1:8545',
  },
  pausedOrigins: [],
  onScanFailure: 'ask',
}

/** Merges stored (possibly partial or outdated) settings over the defaults, so a missing field never breaks a scan. */
export function withDefaults(stored: unknown): Settings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<Settings>
  return {
    ...DEFAULT_SETTINGS,
    ...s,
    backend: validBackend(s.backend) ?? DEFAULT_SETTINGS.backend,
    rpcUrls: { ...DEFAULT_SETTINGS.rpcUrls, ...(s.rpcUrls ?? {}) },
    pausedOrigins: Array.isArray(s.pausedOrigins) ? s.pausedOrigins : [],
  }
}

/** The stored backend when it is complete; a malformed one (e.g. remote without apiUrl) falls back to the default. */
function validBackend(value: unknown): ScanBackend | null {
  if (!value || typeof value !== 'object') return null
  const backend = value as Record<string, unknown>
  if (backend.kind === 'local') return { kind: 'local' }
  if (backend.kind === 'remote' && typeof backend.apiUrl === 'string' && backend.apiUrl !== '') {
    return { kind: 'remote', apiUrl: backend.apiUrl, apiKey: typeof backend.apiKey === 'string' ? backend.apiKey : '' }
  }
  return null
}

/** Whether these settings name a backend that can check messages on `chainId`. */
export function canCheckMessagesOn(chainId: number, settings: Settings): boolean {
  if (chainId === 0) return false
  if (settings.backend.kind === 'remote') return scanEndpoint(settings.backend.apiUrl, chainId, 'message') !== undefined
  return settings.rpcUrls[String(chainId)] !== undefined
}
