/**
 * The contract between the background worker and the extension pages (confirmation window, popup).
 * A pending request lives in chrome.storage.session under `pending:<id>` so it survives the worker being stopped;
 * pages render from storage (and storage.onChanged) and send the user's decision as a runtime message.
 */
import type { EngineError, ScanMessageResponse, ScanTransactionsResponse } from '../../engine/index.ts'

/** The wallet methods Preflight intercepts. */
export type InterceptedMethod =
  | 'eth_sendTransaction'
  | 'eth_signTypedData_v4'
  | 'eth_signTypedData_v3'
  | 'eth_sign'
  | 'personal_sign'
  | 'wallet_sendCalls'

export type ScanState =
  | { status: 'PENDING' }
  | { status: 'DONE'; kind: 'transactions'; response: ScanTransactionsResponse }
  | { status: 'DONE'; kind: 'message'; response: ScanMessageResponse }
  | { status: 'ERROR'; error: EngineError | { kind: 'BACKEND_ERROR' | 'TIMEOUT'; message: string } }

export type PendingRequest = {
  /** Unguessable id (crypto.randomUUID) chosen by the worker, never by the page. */
  id: string
  /** Origin of the requesting frame as the browser reports it (sender.origin / sender.url), never from the page. */
  origin: string
  /** Top-level page URL of the tab, when the request came from an iframe. */
  topOrigin?: string
  tabId: number
  frameId: number
  chainId: number
  /** The signing account (tx.from or the typed-data signer). */
  account: string
  method: InterceptedMethod
  /** The original params as normalised by the hook, forwarded unchanged on Continue. */
  params: unknown[]
  createdAt: number
  scan: ScanState
  /** The one confirmation window this request waits in (shown or queued), so closing it can reject. */
  windowId?: number
}

export const pendingKey = (id: string) => `pending:${id}`

/**
 * The review queue: pending requests oldest first (ties broken by id), derived from storage on every read so it can
 * never disagree with what is actually pending.
 */
export function inQueueOrder(records: PendingRequest[]): PendingRequest[] {
  return [...records].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

export type Decision = 'continue' | 'reject'

/** Page → worker: the user's decision on a pending request. */
export type DecisionMessage = { type: 'preflight/decision'; id: string; decision: Decision }

/**
 * Worker → page, the answer to a DecisionMessage: `ok` is false when the decision changed nothing (the request had
 * already settled or never existed); `next` is the request the same window shows now, or null when it can close.
 */
export type DecisionReply = { ok: boolean; next: string | null }

/** The last scans kept locally for the popup (chrome.storage.local key `history`, newest first, at most 50). */
export type HistoryEntry = {
  id: string
  origin: string
  method: InterceptedMethod
  chainId: number
  action: 'NONE' | 'WARN' | 'BLOCK' | 'ERROR'
  decision: Decision | 'closed'
  at: number
  summary: string
}

export const HISTORY_KEY = 'history'
export const HISTORY_LIMIT = 50
