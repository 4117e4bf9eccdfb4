/**
 * At most one confirmation window, holding every undecided request: it shows the oldest, the others wait in it.
 * Each request records the window it waits in (so a restarted worker finds the window again, and closing the window
 * rejects exactly what it held); the worker also keeps the queue in memory, so an arrival costs one storage write and
 * a decision never waits for a read of the whole queue. A flood of requests therefore stays as fast as one.
 */
import type { Browser } from 'webextension-polyfill'
import type { Outcome } from '../relay/protocol.ts'
import { inQueueOrder, type PendingRequest } from '../shared/pending.ts'
import { openConfirmWindow, windowExists } from './confirmWindow.ts'
import type { PendingStore } from './pendingStore.ts'
import { serially } from './serially.ts'

const NO_WINDOW = (why: string): Outcome => ({
  kind: 'error',
  error: { code: 4900, message: `Preflight could not open its confirmation window (${why}).` },
})

/** Ends a request without the user deciding on it (4001 unless another outcome says why). */
export type Reject = (id: string, outcome?: Outcome) => Promise<unknown>

/** The queue over `store`; `reject` settles a request whose window went away. */
export function createConfirmQueue(browser: Browser, store: PendingStore, reject: Reject) {
  /** Pending request ids → arrival time, oldest first when sorted; mirrors storage (restored after a restart). */
  const waiting = new Map<string, number>()
  let windowId: number | undefined
  /** A window opening for an announced request (see announce); its id is known once `windowOpened` awaited it. */
  let opening: Promise<number> | undefined
  /** The announced request the window was opened for, and that window once known. */
  let announced: { id: string; windowId: number | undefined } | undefined
  /**
   * Announced requests whose window the user closed before they arrived: closing it rejected what was in it, and so it
   * rejects them when they come (else each would open a window of its own, which nobody waits for).
   */
  const closedBeforeArrival = new Set<string>()
  // Opening and closing the window, and adding to it, happen one at a time; decisions do not wait for them.
  const inTurn = serially()

  /** Takes the announced window's id once Chrome made it (none when it could not). Called in a turn. */
  async function windowOpened() {
    const attempt = opening
    if (!attempt) return
    opening = undefined
    windowId = await attempt.catch(() => windowId)
    if (announced) announced.windowId = windowId
  }

  const oldest = (): string | null => {
    let best: string | null = null
    let bestAt = Number.POSITIVE_INFINITY
    for (const [id, at] of waiting) {
      if (at < bestAt || (at === bestAt && best !== null && id < best)) {
        best = id
        bestAt = at
      }
    }
    return best
  }

  /** Rejects everything that waited in a window that is gone. */
  async function windowGone(gone: number) {
    if (windowId === gone) windowId = undefined
    if (announced?.windowId === gone && !waiting.has(announced.id)) {
      if (closedBeforeArrival.size >= 64) closedBeforeArrival.clear()
      closedBeforeArrival.add(announced.id)
    }
    announced = undefined
    const held = (await store.all()).filter((record) => record.windowId === gone)
    for (const record of held) {
      waiting.delete(record.id)
      await reject(record.id)
    }
  }

  return {
    /**
     * Stores a new request in the window, opening one when none is open (the record is stored first, so the window
     * never loads before its request exists). Resolves once the request is stored, so its scan can start while the
     * window opens; throws when the request cannot be stored.
     */
    add: (record: PendingRequest): Promise<void> => {
      let stored = () => {}
      const kept = new Promise<void>((resolve) => {
        stored = resolve
      })
      const turn = inTurn(async () => {
        const joining = windowId
        await store.put(joining === undefined ? record : { ...record, windowId: joining })
        waiting.set(record.id, record.createdAt)
        stored()
        if (closedBeforeArrival.delete(record.id)) {
          waiting.delete(record.id)
          await reject(record.id)
          return
        }
        if (announced?.id === record.id) announced = undefined
        // The window it joined may have been decided empty while the request was being stored (windowClosing): it
        // closes, so the request gets a window of its own and says so before that window can be reported gone.
        if (joining !== undefined && windowId === joining) return
        await windowOpened()
        try {
          windowId ??= await openConfirmWindow(browser, record.id)
        } catch (error) {
          waiting.delete(record.id)
          await reject(record.id, NO_WINDOW((error as Error).message))
          return
        }
        const holder = windowId
        await store.update(record.id, (current) => ({ ...current, windowId: holder }))
      })
      // A failure to store rejects `turn` before `kept` resolves. A failure after that (recording which window the
      // request waits in) leaves it stored and shown; a restarted worker finds it without a window and shows it again.
      turn.catch(() => undefined)
      return Promise.race([kept, turn])
    },
    /**
     * A request `id` is about to arrive (see requests.ts): when no window is open, one opens for it now, so Chrome
     * makes the window and loads its page while the request is still on its way and being checked. Nothing waits for
     * Chrome here: the request is stored as soon as it is checked, and takes the window's id once Chrome has it.
     * `wanted` is asked in turn, so a request refused meanwhile gets no window.
     */
    announce: (id: string, wanted: () => boolean) =>
      inTurn(async () => {
        if (windowId !== undefined || opening || !wanted()) return
        opening = openConfirmWindow(browser, id, { announced: true })
        opening.catch(() => undefined)
        announced = { id, windowId: undefined }
      }),
    /** A request settled: it leaves the queue. Returns the request the window shows next, or null when none. */
    settled(id: string): string | null {
      waiting.delete(id)
      return oldest()
    },
    /** Whether request `id` still waits for a decision. */
    has: (id: string) => waiting.has(id),
    /** The waiting request ids, oldest first. */
    ids: () => [...waiting.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id),
    /**
     * The window closes itself: its last request was decided there (the reply said nothing is next). A request that
     * arrives before Chrome reports the window gone gets a window of its own instead of joining the closing one. Not
     * in turn: called right after `settled` said nothing is next, before any request still being added can join.
     */
    windowClosing: () => {
      if (waiting.size === 0) windowId = undefined
    },
    /** Closes the window when nothing waits in it any more (the last request ended without a decision made in it). */
    closeIfEmpty: () =>
      inTurn(async () => {
        await windowOpened()
        if (waiting.size > 0 || windowId === undefined) return
        const closing = windowId
        windowId = undefined
        await browser.windows.remove(closing).catch(() => undefined)
      }),
    /** A browser window closed: if it was the confirmation window, every request in it is rejected. */
    windowRemoved: (removed: number) =>
      inTurn(async () => {
        await windowOpened()
        if (removed === windowId) await windowGone(removed)
      }),
    /**
     * After the worker restarted: rebuilds the queue from storage, rejects requests whose window was closed meanwhile,
     * and shows the rest (opening a window when they have none).
     */
    restore: () =>
      inTurn(async () => {
        const records = inQueueOrder(await store.all())
        const windows = new Set(records.flatMap((record) => (record.windowId === undefined ? [] : [record.windowId])))
        let alive: number | undefined
        for (const candidate of windows) if (await windowExists(browser, candidate)) alive = candidate
        for (const record of records) {
          if (record.windowId !== undefined && record.windowId !== alive) await reject(record.id)
          else waiting.set(record.id, record.createdAt)
        }
        windowId = alive
        const head = oldest()
        if (head === null) return
        if (windowId === undefined) {
          try {
            windowId = await openConfirmWindow(browser, head)
          } catch (error) {
            for (const id of [...waiting.keys()]) await reject(id, NO_WINDOW((error as Error).message))
            waiting.clear()
            return
          }
        }
        const holder = windowId
        for (const record of records) {
          if (waiting.has(record.id) && record.windowId !== holder) {
            await store.update(record.id, (current) => ({ ...current, windowId: holder }))
          }
        }
      }),
  }
}

export type ConfirmQueue = ReturnType<typeof createConfirmQueue>
