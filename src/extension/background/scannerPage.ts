/**
 * The worker's side of the scanner page (scanner/protocol.ts): opens the page when it is not open, sends it each scan,
 * and turns every failure into an ERROR state, so a stored request always leaves its wait.
 */

import { isFinishedScan, SCANNER_PAGE, type ScanOrder, type WarmOrder } from '../scanner/protocol.ts'
import type { ScanState } from '../shared/pending.ts'

/** The browser calls the scanner needs: Chrome's offscreen documents and extension messaging. */
export type ScannerBrowser = {
  /** Whether the extension's offscreen document is open (runtime.getContexts). */
  isOpen(): Promise<boolean>
  open(page: { url: string; reasons: 'WORKERS'[]; justification: string }): Promise<void>
  send(message: ScanOrder | WarmOrder): Promise<unknown>
}

export type Scanner = {
  /** The scan of a stored request; never throws. */
  scan(order: Omit<ScanOrder, 'type'>): Promise<ScanState>
  /** Opens the page and has it load what a local scan reads, ahead of a request that is probably coming. */
  warm(local: boolean): void
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** A scanner over the offscreen document at SCANNER_PAGE; opens it once and again after it went away. */
export function createScanner(browser: ScannerBrowser): Scanner {
  let opened: Promise<void> | undefined
  /** Whether this worker has had the page load its lists: a flood of requests sends one warm order, not one each. */
  let listsAsked = false
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
    })().catch((error: unknown) => {
      opened = undefined
      throw error
    })
    return opened
  }

  async function ask(order: ScanOrder): Promise<ScanState> {
    await open()
    const reply = await browser.send(order)
    if (isFinishedScan(reply)) return reply
    throw new Error('the scanner page gave no result')
  }

  return {
    async scan(order) {
      const message: ScanOrder = { type: 'preflight/scan', ...order }
      try {
        return await ask(message)
      } catch {
        // The page may have gone away (closed, or crashed) since it was last seen: open it again, once.
        opened = undefined
        try {
          return await ask(message)
        } catch (error) {
          return { status: 'ERROR', error: { kind: 'BACKEND_ERROR', message: `The scan failed: ${reason(error)}` } }
        }
      }
    },
    warm(local) {
      if (opened && (listsAsked || !local)) return
      listsAsked ||= local
      open()
        .then(() => browser.send({ type: 'preflight/warm', local }))
        .catch(() => {
          listsAsked = false
        })
    },
  }
}
