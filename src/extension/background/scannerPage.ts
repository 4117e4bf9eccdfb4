/**
 * The worker's side of the scanner page (scanner/protocol.ts): opens the page when it is not open, sends it each scan,
 * and turns every failure into an ERROR state, so a stored request always leaves its wait. It also has the page decode
 * signed transactions, whose curve arithmetic the worker's own script does not load.
 */
import {
  type DecodeAnswer,
  type DecodeOrder,
  isDecodeAnswer,
  isFinishedScan,
  SCAN_TIMEOUT_MS,
  SCANNER_PAGE,
  type ScanOrder,
  scanFailed,
  type WarmOrder,
} from '../scanner/protocol.ts'
import type { ScanState } from '../shared/pending.ts'
import type { SignedTx } from '../shared/signedTx.ts'
import { notDecoded, ParamError } from '../shared/txParams.ts'

/** The browser calls the scanner needs: Chrome's offscreen documents and extension messaging. */
export type ScannerBrowser = {
  /** Whether the extension's offscreen document is open (runtime.getContexts). */
  isOpen(): Promise<boolean>
  open(page: { url: string; reasons: 'WORKERS'[]; justification: string }): Promise<void>
  send(message: ScanOrder | WarmOrder | DecodeOrder): Promise<unknown>
}

export type Scanner = {
  /** The scan of a stored request; never throws, and ends within `answerWithinMs`. */
  scan(order: Omit<ScanOrder, 'type'>): Promise<ScanState>
  /** Opens the page and has it load what a local scan reads, ahead of a request that is probably coming. */
  warm(local: boolean): void
  /**
   * The signed transaction `raw` decoded, with who signed it; throws a ParamError (the error to refuse the request
   * with) when it cannot be decoded or the page cannot be reached. Ends within `answerWithinMs`.
   */
  decodeSigned(raw: unknown): Promise<SignedTx>
}

/**
 * An open page that was warmed is warmed again (told it is wanted) at most this often: a flood of requests sends one
 * order, and a page in use keeps the scanner page from closing as idle (SCANNER_IDLE_MS).
 */
export const REWARM_AFTER_MS = 60_000

/** Past the engine's own limit and a margin, the page or its thread is gone without a word. */
export const ANSWER_WITHIN_MS = SCAN_TIMEOUT_MS + 5_000

/**
 * How long a page that could not be reached may still be listed as open: one closing itself as idle (idleClose.ts) is,
 * for a moment, and a retry that took it for open would send to it again and fail. Past this, the retry goes ahead.
 */
export const CLOSING_WITHIN_MS = 1_000
const CLOSING_POLL_MS = 25

/** The page could not be reached at all (as opposed to answering nothing useful, or not in time). */
class Unreachable extends Error {}

/** A scanner over the offscreen document at SCANNER_PAGE; opens it once and again after it went away. */
export function createScanner(browser: ScannerBrowser, answerWithinMs = ANSWER_WITHIN_MS): Scanner {
  /** The page's opening as this worker last saw it; forgotten when the page stops answering. */
  let opened: Promise<void> | undefined
  /** Whether the open page was asked to load its lists: a flood of requests sends one warm order, not one each. */
  let listsAsked = false
  /** When the last warm order was sent (Date.now()). */
  let warmedAt = Number.NEGATIVE_INFINITY

  const open = () => {
    opened ??= (async () => {
      if (await browser.isOpen()) return
      try {
        await browser.open({
          url: SCANNER_PAGE,
          // The page exists to run the engine on a worker thread of its own (scanner/engineWorker.ts).
          reasons: ['WORKERS'],
          justification: 'Simulates the requests Preflight checks, with its engine kept loaded between them.',
        })
      } catch (error) {
        // Two opens can race after a restart; only one document may exist, and one does.
        if (!(await browser.isOpen())) throw error
      }
    })()
    return opened
  }
  /**
   * Forgets the page `seen` stood for, unless another scan already opened it again: several scans fail together when
   * the page goes away, and only the first may start a new one.
   */
  const forget = (seen: Promise<void> | undefined) => {
    if (opened !== seen) return
    opened = undefined
    listsAsked = false
  }

  /** The page's answer to `order`, which `accepted` must recognise; throws when there is none. */
  async function ask<T>(order: ScanOrder | DecodeOrder, accepted: (reply: unknown) => reply is T): Promise<T> {
    const seen = open()
    try {
      await seen
      let timer: ReturnType<typeof setTimeout> | undefined
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the scanner page gave no answer in ${answerWithinMs / 1000} s`)),
          answerWithinMs,
        )
      })
      const sent = browser.send(order).catch((error: unknown) => {
        throw new Unreachable(error instanceof Error ? error.message : String(error))
      })
      const reply = await Promise.race([sent, silence]).finally(() => clearTimeout(timer))
      if (accepted(reply)) return reply
      throw new Error('the scanner page gave no result')
    } catch (error) {
      forget(seen)
      throw error
    }
  }

  /** Waits, at most CLOSING_WITHIN_MS, until no page is listed as open, or another scan is opening one already. */
  async function closed(): Promise<void> {
    const deadline = Date.now() + CLOSING_WITHIN_MS
    while (!opened && Date.now() < deadline && (await browser.isOpen().catch(() => false))) {
      await new Promise((resolve) => setTimeout(resolve, CLOSING_POLL_MS))
    }
  }

  /**
   * ask, and once more if that failed: the page may have gone away (closed, or crashed) since it was last seen. One
   * that could not be reached may be closing still, so the retry waits for it to be gone and opens another.
   */
  const askOnceMore = <T>(order: ScanOrder | DecodeOrder, accepted: (reply: unknown) => reply is T): Promise<T> =>
    ask(order, accepted).catch(async (error: unknown) => {
      if (error instanceof Unreachable) await closed()
      return ask(order, accepted)
    })

  return {
    async scan(order) {
      try {
        return await askOnceMore({ type: 'preflight/scan', ...order }, isFinishedScan)
      } catch (error) {
        return scanFailed(error)
      }
    },
    async decodeSigned(raw) {
      let answer: DecodeAnswer
      try {
        answer = await askOnceMore({ type: 'preflight/decode-signed', raw }, isDecodeAnswer)
      } catch (error) {
        throw notDecoded(-32603, error instanceof Error ? error.message : String(error))
      }
      if (!answer.ok) throw new ParamError(answer.error.code, answer.error.message)
      return answer.signed
    },
    warm(local) {
      if (opened && (listsAsked || !local) && Date.now() - warmedAt < REWARM_AFTER_MS) return
      warmedAt = Date.now()
      // A page that closed itself as idle (or crashed) since it was last seen is opened again, once: the request that
      // probably follows then finds it ready.
      const attempt = (again: boolean) => {
        const seen = open()
        listsAsked ||= local
        seen
          .then(() =>
            browser.send({ type: 'preflight/warm', local }).catch((error: unknown) => {
              forget(seen)
              if (again) attempt(false)
              throw error
            }),
          )
          .then((ready) => {
            if (ready !== true) throw new Error('the scanner page is not ready')
          })
          .catch(() => forget(seen))
      }
      attempt(true)
    },
  }
}
