/**
 * The contract between the background worker and the extension pages (confirmation window, popup).
 * A pending request lives in chrome.storage.session under `pending:<id>` so it survives the worker being stopped;
 * pages render from storage (and storage.onChanged) and send the user's decision as a runtime message.
 */
import type { EngineError, ScanMessageResponse, ScanTransactionsResponse } from '../../engine/index.ts'
import type { WalletInfo } from '../relay/protocol.ts'

/**
 * The wallet methods Preflight intercepts: every method that makes a wallet sign or send something.
 * `wallet_sendTransaction` is eth_sendTransaction in the wallet namespace, which viem (so wagmi) resends a transaction
 * as when eth_sendTransaction fails with invalid params or an unknown method: a refusal of Preflight's among them.
 * `eth_sendRawTransactionSync` (EIP-7966, in viem) sends signed bytes as eth_sendRawTransaction does and waits for
 * the receipt: a wallet passes it to its node, so it is checked as the same route.
 */
export type InterceptedMethod =
  | 'eth_sendTransaction'
  | 'wallet_sendTransaction'
  | 'eth_signTransaction'
  | 'eth_sendRawTransaction'
  | 'eth_sendRawTransactionSync'
  | 'wallet_sendCalls'
  | 'eth_signTypedData_v4'
  | 'eth_signTypedData_v3'
  | 'eth_signTypedData_v1'
  | 'eth_signTypedData'
  | 'eth_sign'
  | 'personal_sign'
  | 'wallet_grantPermissions'
  | 'wallet_requestExecutionPermissions'

/**
 * Which backend answered a scan, for the window to say: the engine in this browser simulating on a node, or a remote
 * scan API. `host` is the node's or the API's host only (a path can hold a key).
 */
export type ScanBackendUsed = { kind: 'local' | 'remote'; host: string }

export type ScanState =
  | { status: 'PENDING' }
  | { status: 'DONE'; kind: 'transactions'; response: ScanTransactionsResponse; backend?: ScanBackendUsed }
  | { status: 'DONE'; kind: 'message'; response: ScanMessageResponse; backend?: ScanBackendUsed }
  | {
      status: 'ERROR'
      error: EngineError | { kind: 'BACKEND_ERROR' | 'TIMEOUT' | 'NOT_CHECKED'; message: string }
      backend?: ScanBackendUsed
    }

export type PendingRequest = {
  /** Unguessable id (crypto.randomUUID) chosen by the worker, never by the page. */
  id: string
  /** Origin of the requesting frame as the browser reports it (sender.origin / sender.url), never from the page. */
  origin: string
  /** Top-level page URL of the tab, when the request came from an iframe. */
  topOrigin?: string
  /**
   * The requesting document has no origin of its own (a sandboxed frame or page: the browser reports "null"): `origin`
   * is the site that served it, which it cannot act as. Sites sandbox what they do not trust with their name (uploads,
   * embeds), so it is shown as such, judged as no site at all, and never let through by a pause for the serving site.
   */
  sandboxed?: true
  tabId: number
  frameId: number
  /** The chain the request is checked on: the chain it is for, or the wallet's when no backend can check that one. */
  chainId: number
  /**
   * Typed data whose domain binds the signature to another chain than the one the wallet said it is on: the signature
   * is good on `domain`, whatever the wallet shows.
   */
  otherChain?: { domain: number; wallet: number }
  /** The signing account (tx.from or the typed-data signer). */
  account: string
  method: InterceptedMethod
  /** The params exactly as the wallet receives them on Continue (normalised by the worker); the raw view shows them. */
  params: unknown[]
  /** The wallet the request went to, as the page's objects describe it (display only). */
  wallet?: WalletInfo
  createdAt: number
  scan: ScanState
  /** The one confirmation window this request waits in (shown or queued), so closing it can reject. */
  windowId?: number
  /**
   * Set when a fresh scan came out worse than the one shown (outcomeDrift.ts): nothing was forwarded, `scan` is the
   * fresh one, and `lines` say what changed. The fresh scan is the one the user's Continue made, or (`secondLook`) the
   * one the worker made right after the first result. Or, `unchecked`, the Continue's scan could not be made: `scan`
   * is still the one shown, and `lines` say why. Either way the window asks for a new decision. `at` only grows, so it
   * also names which outcome the user decided on (shownRevision).
   */
  changedWhileShown?: { at: number; lines: string[]; unchecked?: boolean; secondLook?: boolean }
}

/**
 * Which outcome of a request the window shows: a Continue counts only for the outcome it was given on, so a change
 * stored while the click travelled is shown before anything is forwarded.
 */
export const shownRevision = (record: PendingRequest): number => record.changedWhileShown?.at ?? 0

export const pendingKey = (id: string) => `pending:${id}`

/**
 * Set in the URL of a window opened for a request that was announced but not yet stored: until it arrives, the window
 * waits for it instead of saying it is no longer waiting.
 */
export const ANNOUNCED_PARAM = 'announced'

/**
 * The review queue: pending requests oldest first (ties broken by id), derived from storage on every read so it can
 * never disagree with what is actually pending.
 */
export function inQueueOrder(records: PendingRequest[]): PendingRequest[] {
  return [...records].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

export type Decision = 'continue' | 'reject'

/** Page → worker: the user's decision on a pending request, or on every waiting request at once. */
export type DecisionMessage =
  /** `seen`: the shownRevision of the request as the window showed it when the user decided. */
  { type: 'preflight/decision'; id: string; decision: Decision; seen: number } | { type: 'preflight/reject-all' }

/**
 * Worker → page, the answer to a DecisionMessage: `ok` is false when the decision changed nothing (the request had
 * already settled or never existed, or a Continue found its outcome changed: then `next` is the same request, to
 * decide again); `next` is the request the same window shows now, or null when it can close.
 */
export type DecisionReply = { ok: boolean; next: string | null }

/** The last scans kept locally for the popup (chrome.storage.local key `history`, newest first, at most 50). */
export type HistoryEntry = {
  id: string
  origin: string
  /** The request came from a document the site sandboxed (PendingRequest.sandboxed). */
  sandboxed?: true
  method: InterceptedMethod
  chainId: number
  action: 'NONE' | 'WARN' | 'BLOCK' | 'ERROR'
  decision: Decision | 'closed'
  at: number
  summary: string
}

export const HISTORY_KEY = 'history'
export const HISTORY_LIMIT = 50

/**
 * A wallet seen appearing after a page's own scripts had started (chrome.storage.local key `lateWallets`, newest
 * first): such a page could reach the wallet before Preflight did, so the options page lists them.
 */
export type LateWallet = { label: string; origin: string; at: number }

export const LATE_WALLETS_KEY = 'lateWallets'
export const LATE_WALLETS_LIMIT = 20
