/**
 * At most one confirmation window, holding every undecided request: it shows the oldest, the others wait in it. The
 * queue is derived from the pending requests in chrome.storage.session (inQueueOrder), never kept as a list of its
 * own; each request records the window it waits in, so closing that window rejects exactly the requests it held,
 * and a restarted worker finds the window again.
 */
import type { Browser } from 'webextension-polyfill'
import type { Outcome } from '../relay/protocol.ts'
import { inQueueOrder, type PendingRequest } from '../shared/pending.ts'
import { openConfirmWindow, windowExists } from './confirmWindow.ts'
import type { PendingStore } from './pendingStore.ts'

const NO_WINDOW = (why: string): Outcome => ({
  kind: 'error',
  error: { code: 4900, message: `Preflight could not open its confirmation window (${why}).` },
})

export type QueueChange = {
  /** Open a window when none holds the queue (a new request arrived); otherwise only keep the existing one. */
  open: boolean
  /** The window a request that just settled waited in: the remaining requests stay in it. */
  windowId?: number
  /** Close `windowId` when nothing is left in it (its last request ended without a decision made in it). */
  closeWhenEmpty?: boolean
}

/** Ends a request without the user deciding on it (4001 unless another outcome says why). */
export type Reject = (id: string, outcome?: Outcome) => Promise<unknown>

/**
 * Brings the window in line with the queue: rejects requests whose window is gone, puts new requests in the open
 * window (or opens one), and returns the request the window should show now, or null when it holds none.
 */
export async function syncConfirmWindow(
  browser: Browser,
  store: PendingStore,
  reject: Reject,
  change: QueueChange,
): Promise<string | null> {
  const queue = inQueueOrder(await store.all())
  const known = new Set(queue.flatMap((record) => (record.windowId === undefined ? [] : [record.windowId])))
  if (change.windowId !== undefined) known.add(change.windowId)
  const alive = new Set<number>()
  await Promise.all([...known].map(async (windowId) => (await windowExists(browser, windowId)) && alive.add(windowId)))

  const waiting: PendingRequest[] = []
  for (const record of queue) {
    // Its window was closed, possibly while the worker was stopped: closing the window means rejecting its requests.
    if (record.windowId !== undefined && !alive.has(record.windowId)) await reject(record.id)
    else waiting.push(record)
  }
  const hint = change.windowId !== undefined && alive.has(change.windowId) ? change.windowId : undefined
  let windowId = waiting.find((record) => record.windowId !== undefined)?.windowId ?? hint
  if (change.closeWhenEmpty && hint !== undefined && hint !== windowId) {
    await browser.windows.remove(hint).catch(() => undefined)
  }
  const head = waiting[0]
  if (!head) {
    if (change.closeWhenEmpty && hint !== undefined) await browser.windows.remove(hint).catch(() => undefined)
    return null
  }
  if (windowId === undefined) {
    if (!change.open) return null
    try {
      windowId = await openConfirmWindow(browser, head.id)
    } catch (error) {
      for (const record of waiting) await reject(record.id, NO_WINDOW((error as Error).message))
      return null
    }
  }
  const holder = windowId
  for (const record of waiting) {
    if (record.windowId === undefined) await store.update(record.id, (current) => ({ ...current, windowId: holder }))
  }
  return head.id
}
