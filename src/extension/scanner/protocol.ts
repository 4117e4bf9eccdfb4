/**
 * The worker and the scanner page (an offscreen document that holds the engine): the worker sends each stored request
 * to be scanned and gets its ScanState back. The page outlives the worker, which Chrome stops after 30 s idle, so the
 * engine and its lists stay loaded and compiled between requests, and the worker's own script stays small.
 */
import type { InterceptedMethod, ScanState } from '../shared/pending.ts'
import type { Settings } from '../shared/settings.ts'
import type { SignedTx } from '../shared/signedTx.ts'

/** How long the engine works on one scan before it reports a TIMEOUT (scan.ts). */
export const SCAN_TIMEOUT_MS = 20_000

/**
 * How long the scanner page stays open with no order (idleClose.ts). The worker tells it it is wanted at most once a
 * minute (scannerPage.ts), and a dapp's page, while it is shown, sends the worker a keep-alive every 20 s for ten
 * minutes after it last used the wallet: the page closes about twenty minutes after the last use, and opens again with
 * the next.
 */
export const SCANNER_IDLE_MS = 10 * 60_000

/** The scanner page's path in the built extension (a static page of its own, as Chrome requires). */
export const SCANNER_PAGE = 'src/extension/scanner/scanner.html'

/** Worker → scanner page: scan a stored request, exactly the params the wallet receives on Continue. */
export type ScanOrder = {
  type: 'preflight/scan'
  /**
   * `topOrigin`: the page a framed request was sent inside, when it is not the frame's own; `sandboxed`: `origin` only
   * served the requesting document, which has none of its own (sender.ts).
   */
  call: {
    method: InterceptedMethod
    params: unknown[]
    account: string
    origin: string
    topOrigin?: string
    sandboxed?: true
    chainId: number
  }
  settings: Settings
  /**
   * The re-check on Continue: a local scan also runs the transactions as a block runs them, to catch a contract that
   * pays back only while it is simulated (the engine's probeEnvironment).
   */
  probeEnvironment?: boolean
}

/**
 * Worker → scanner page: a request is probably coming; load what a local scan reads. Answered with `true` once ready,
 * `false` when the lists could not be read (the scan that follows reports why).
 */
export type WarmOrder = { type: 'preflight/warm'; local: boolean }

/**
 * Worker → scanner page: decode the signed transaction of an eth_sendRawTransaction and recover who signed it. The
 * curve arithmetic that takes was more than half of the script the worker loads at each start (60 of 106 kB), for a
 * method few pages send; the engine's thread holds it anyway.
 */
export type DecodeOrder = { type: 'preflight/decode-signed'; raw: unknown }

/** The page's answer to a DecodeOrder: the transaction, or the error the request is refused with. */
export type DecodeAnswer = { ok: true; signed: SignedTx } | { ok: false; error: { code: number; message: string } }

const STATUSES = new Set(['DONE', 'ERROR'])

/** A scan that could not be run, for the window to show: the user still decides. */
export function scanFailed(error: unknown): Extract<ScanState, { status: 'ERROR' }> {
  const reason = error instanceof Error ? error.message : String(error)
  return { status: 'ERROR', error: { kind: 'BACKEND_ERROR', message: `The scan failed: ${reason}` } }
}

/** Whether a reply is a finished ScanState (a page that went away answers nothing, or an error). */
export function isFinishedScan(reply: unknown): reply is ScanState {
  return typeof reply === 'object' && reply !== null && STATUSES.has((reply as { status?: unknown }).status as string)
}

/** Whether a reply is a DecodeAnswer (a page that went away answers nothing; a failed task answers an ERROR scan). */
export function isDecodeAnswer(reply: unknown): reply is DecodeAnswer {
  if (typeof reply !== 'object' || reply === null) return false
  const answer = reply as DecodeAnswer
  if (answer.ok === true) return typeof answer.signed?.raw === 'string' && typeof answer.signed.tx?.from === 'string'
  return answer.ok === false && typeof answer.error?.code === 'number' && typeof answer.error.message === 'string'
}

/** Scanner page → its engine worker: an order and the number its answer comes back with. */
export type EngineTask = { id: number; order: ScanOrder | WarmOrder | DecodeOrder }
export type EngineReply = { id: number; answer: unknown }
