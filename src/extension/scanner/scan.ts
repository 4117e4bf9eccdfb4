/**
 * Runs one scan for a pending request, through the engine (local simulation via the chain's RPC) or a remote scan
 * API, and turns every failure — no RPC, node down, API error, timeout, engine exception — into an ERROR state.
 */

import { type EngineError, type ScanOutcome, scanEndpoint, scanMessage, scanTransactions } from '../../engine/index.ts'
import type { ScanBackendUsed, ScanState } from '../shared/pending.ts'
import type { Settings } from '../shared/settings.ts'
import { urlHost } from '../shared/urlHost.ts'
import { SCAN_TIMEOUT_MS, scanFailed } from './protocol.ts'
import type { ScanRequest } from './scanRequest.ts'

const API_VERSION = '2023-06-05'

type Failure = Extract<ScanState, { status: 'ERROR' }>['error']
const failed = (error: Failure): ScanState => ({ status: 'ERROR', error })
const done = (scan: ScanRequest, response: unknown): ScanState =>
  scan.kind === 'transactions'
    ? { status: 'DONE', kind: 'transactions', response: response as never }
    : { status: 'DONE', kind: 'message', response: response as never }

function unsupportedChain(chainId: number, where: string): ScanState {
  const message =
    chainId === 0
      ? 'The wallet did not report which chain it is on, so this request could not be simulated.'
      : `Chain ${chainId} has no ${where}: add one in Preflight's options to check requests on it.`
  return failed({ kind: 'UNSUPPORTED_CHAIN', message })
}

/** A fetch that also stops when `signal` aborts, so a timed-out local scan stops talking to the node at once. */
function fetchUntil(signal: AbortSignal): typeof fetch {
  return (input, init) => {
    const own = init?.signal
    return fetch(input, { ...init, signal: own ? AbortSignal.any([own, signal]) : signal })
  }
}

async function local(
  scan: ScanRequest,
  chainId: number,
  settings: Settings,
  signal: AbortSignal,
  probeEnvironment: boolean,
): Promise<ScanState> {
  const rpcUrl = settings.rpcUrls[String(chainId)]
  if (!rpcUrl || chainId === 0) return unsupportedChain(chainId, 'RPC configured')
  const options = { rpcUrl, chainId, fetch: fetchUntil(signal), probeEnvironment }
  const outcome: ScanOutcome<unknown> =
    scan.kind === 'transactions'
      ? await scanTransactions(scan.request, options)
      : await scanMessage(scan.request, options)
  return outcome.ok ? done(scan, outcome.response) : failed(outcome.error as EngineError)
}

async function remote(
  scan: ScanRequest,
  chainId: number,
  backend: { apiUrl: string; apiKey: string },
  signal: AbortSignal,
): Promise<ScanState> {
  const url = scanEndpoint(backend.apiUrl, chainId, scan.kind)
  if (!url) return unsupportedChain(chainId, 'path on the scan API')
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': backend.apiKey, 'X-Api-Version': API_VERSION },
    body: JSON.stringify(scan.request),
    signal,
  })
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (!response.ok) {
    const reason = (body as { error?: unknown } | undefined)?.error
    const detail = typeof reason === 'string' ? reason : text.slice(0, 200) || response.statusText
    if (response.status === 401 || response.status === 403) {
      return failed({
        kind: 'BACKEND_ERROR',
        message: `The scan API refused the API key (${response.status}: ${detail}). Check the key in Preflight's options.`,
      })
    }
    return failed({ kind: 'BACKEND_ERROR', message: `The scan API answered ${response.status}: ${detail}` })
  }
  if (typeof (body as { action?: unknown } | undefined)?.action !== 'string') {
    return failed({ kind: 'BACKEND_ERROR', message: 'The scan API answered with something that is not a scan result.' })
  }
  return done(scan, body)
}

/** The host of a node or scan API URL, for saying who answered. */
const hostOf = (url: string): string => urlHost(url) ?? 'an invalid URL'

/** Which backend a scan goes to under these settings, when it has one for the chain. */
function backendUsed(chainId: number, settings: Settings): ScanBackendUsed | undefined {
  if (settings.backend.kind === 'remote') return { kind: 'remote', host: hostOf(settings.backend.apiUrl) }
  const rpcUrl = settings.rpcUrls[String(chainId)]
  return rpcUrl ? { kind: 'local', host: hostOf(rpcUrl) } : undefined
}

/**
 * The scan result as the confirmation window shows it, saying which backend answered; never throws. `probeEnvironment`
 * asks a local scan of transactions to run them as a block runs them too (a scan API is asked what the seed says).
 */
export async function runScan(
  scan: ScanRequest,
  chainId: number,
  settings: Settings,
  { timeoutMs = SCAN_TIMEOUT_MS, probeEnvironment = false } = {},
): Promise<ScanState> {
  const abort = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<ScanState>((resolve) => {
    timer = setTimeout(() => {
      abort.abort()
      resolve(failed({ kind: 'TIMEOUT', message: `The scan did not finish within ${timeoutMs / 1000} s.` }))
    }, timeoutMs)
  })
  const backend = settings.backend
  const work = (
    backend.kind === 'remote'
      ? remote(scan, chainId, backend, abort.signal)
      : local(scan, chainId, settings, abort.signal, probeEnvironment)
  ).catch((error: unknown) =>
    backend.kind === 'remote'
      ? failed({
          kind: 'BACKEND_ERROR',
          message: `The scan API could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        })
      : scanFailed(error),
  )
  try {
    const state = await Promise.race([work, timeout])
    const used = backendUsed(chainId, settings)
    return used && state.status !== 'PENDING' ? { ...state, backend: used } : state
  } finally {
    clearTimeout(timer)
  }
}
