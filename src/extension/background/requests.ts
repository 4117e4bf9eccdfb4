/**
 * The life of an intercepted request in the worker: accept it from a relay, store it, queue it in the confirmation
 * window, scan, and settle it exactly once on the user's decision, the window closing, or the page going away.
 */
import type { Browser, Runtime } from 'webextension-polyfill'
import {
  type DecisionDelivery,
  type Outcome,
  outcomeOf,
  type RelayToWorker,
  type ScanCall,
  type WorkerToRelay,
} from '../relay/protocol.ts'
import type { Decision, DecisionReply, PendingRequest } from '../shared/pending.ts'
import { SETTINGS_KEY, type Settings, withDefaults } from '../shared/settings.ts'
import { type QueueChange, syncConfirmWindow } from './confirmQueue.ts'
import { createHistory, historyEntry } from './history.ts'
import type { PendingStore } from './pendingStore.ts'
import { runScan } from './scan.ts'
import { buildScanRequest } from './scanRequest.ts'
import { type RequestSender, requestSender } from './sender.ts'
import { serially } from './serially.ts'
import { validateCall } from './validateCall.ts'

const LOST: Outcome = {
  kind: 'error',
  error: { code: 4900, message: 'Preflight lost this request while restarting; send it again.' },
}
const NOT_KEPT = (why: string): Outcome => ({
  kind: 'error',
  error: { code: -32603, message: `Preflight could not keep this request for review (${why}); try again.` },
})

/** Whether Preflight checks requests from this frame (on, and not paused for its origin or its page's origin). */
function isChecking(settings: Settings, sender: RequestSender): boolean {
  if (!settings.enabled) return false
  const paused = new Set(settings.pausedOrigins)
  return !paused.has(sender.origin) && !(sender.topOrigin && paused.has(sender.topOrigin))
}

/** Wires request handling to the browser; returns the handlers worker.ts registers. */
export function createRequests(browser: Browser, store: PendingStore) {
  const history = createHistory(browser.storage.local)
  /** Requests accepted over each live relay port, so a page that goes away settles its requests. */
  const byPort = new Map<Runtime.Port, Set<string>>()

  const loadSettings = async () => withDefaults((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY])
  const post = (port: Runtime.Port, message: WorkerToRelay) => {
    try {
      port.postMessage(message)
    } catch {
      // The page went away; its requests are settled by onDisconnect.
    }
  }

  async function scan(record: PendingRequest, settings: Settings) {
    const built = buildScanRequest(record.method, record.params, record.account, record.origin)
    const state = built.ok
      ? await runScan(built.scan, record.chainId, settings)
      : { status: 'ERROR' as const, error: built.error }
    await store
      .update(record.id, (current) => ({ ...current, scan: state }))
      .catch((error: Error) =>
        // A result too large for session storage must still end the wait, so the user can decide.
        store.update(record.id, (current) => ({
          ...current,
          scan: {
            status: 'ERROR',
            error: { kind: 'BACKEND_ERROR', message: `The scan result could not be kept: ${error.message}` },
          },
        })),
      )
  }

  /** Settles request `id` once: records it and tells the frame; returns the request the first time only. */
  async function settle(
    id: string,
    decision: Decision | 'closed',
    outcome: Outcome = outcomeOf(decision),
  ): Promise<PendingRequest | undefined> {
    const record = await store.take(id, decision)
    if (!record) return undefined
    await history.add(historyEntry(record, decision, Date.now())).catch(() => undefined)
    const delivery: DecisionDelivery = { type: 'preflight/decided', id, outcome }
    await browser.tabs.sendMessage(record.tabId, delivery, { frameId: record.frameId }).catch(() => undefined)
    return record
  }

  // Every change to the queue runs in turn, so requests arriving together share one window.
  const queued = serially()
  const syncWindow = (change: QueueChange) =>
    syncConfirmWindow(browser, store, (id, outcome) => settle(id, 'closed', outcome), change)

  /** Rejects requests whose page went away, and closes their window when nothing else waits in it. */
  const dropRequests = (ids: Iterable<string>) =>
    queued(async () => {
      let windowId: number | undefined
      for (const id of ids) windowId = (await settle(id, 'closed'))?.windowId ?? windowId
      await syncWindow({ open: false, windowId, closeWhenEmpty: true })
    })

  async function accept(port: Runtime.Port, rid: number, raw: ScanCall) {
    const sender = requestSender(port.sender)
    const checked = validateCall(raw)
    if (!sender || !checked.ok) {
      const error = checked.ok
        ? { code: -32603, message: 'Preflight: the request did not come from a tab.' }
        : checked.error
      return post(port, { type: 'settle', rid, outcome: { kind: 'error', error } })
    }
    const { call } = checked
    let settings: Settings
    let record: PendingRequest
    try {
      settings = await loadSettings()
      if (!isChecking(settings, sender)) return post(port, { type: 'settle', rid, outcome: { kind: 'forward' } })
      record = {
        id: crypto.randomUUID(),
        ...sender,
        chainId: call.chainId,
        account: call.account,
        method: call.method,
        params: call.params,
        createdAt: Date.now(),
        scan: { status: 'PENDING' },
      }
      await store.put(record)
    } catch (error) {
      // Nothing was stored (e.g. session storage is full): the dapp must still get an answer, never an endless wait.
      return post(port, {
        type: 'settle',
        rid,
        outcome: NOT_KEPT(error instanceof Error ? error.message : String(error)),
      })
    }
    const requestsOfPort = byPort.get(port)
    // The page went away while the request was being stored: nobody is waiting for a window.
    if (!requestsOfPort) return dropRequests([record.id])
    requestsOfPort.add(record.id)
    post(port, { type: 'accepted', rid, id: record.id })
    // The scan starts at once, also for a request that waits its turn, so its result is ready when shown.
    await Promise.all([scan(record, settings), queued(() => syncWindow({ open: true }))])
  }

  async function resume(port: Runtime.Port, ids: string[]) {
    for (const id of ids.filter((value) => typeof value === 'string')) {
      const [settled, pending] = await Promise.all([store.settled(id), store.get(id)])
      if (pending && pending.tabId === port.sender?.tab?.id) byPort.get(port)?.add(id)
      else if (settled) post(port, { type: 'decided', id, outcome: outcomeOf(settled.decision) })
      else if (!pending) post(port, { type: 'decided', id, outcome: LOST })
    }
  }

  return {
    /** A relay connected: take its requests and, when it goes away, settle what it left open. */
    onConnect(port: Runtime.Port) {
      byPort.set(port, new Set())
      port.onMessage.addListener((message: unknown) => {
        const data = message as RelayToWorker
        if (data?.type === 'request' && typeof data.rid === 'number') void accept(port, data.rid, data.call)
        else if (data?.type === 'resume' && Array.isArray(data.ids)) void resume(port, data.ids)
      })
      port.onDisconnect.addListener(() => {
        const ids = byPort.get(port) ?? new Set()
        byPort.delete(port)
        if (ids.size > 0) void dropRequests(ids)
      })
    },
    /** The user's decision from the confirmation window, and the request that window shows next. */
    decide: (id: string, decision: Decision): Promise<DecisionReply> =>
      queued(async () => {
        const record = await settle(id, decision)
        return { ok: record !== undefined, next: await syncWindow({ open: false, windowId: record?.windowId }) }
      }),
    /** A window was closed: if it was the confirmation window, reject every request waiting in it. */
    onWindowRemoved: () => queued(() => syncWindow({ open: false })),
    /**
     * After a restart: finish scans the stopped worker left running, give requests it stored but never showed a
     * window, and forget old settled records.
     */
    async recover() {
      const startedAt = Date.now()
      await store.prune(startedAt)
      const settings = await loadSettings()
      for (const record of await store.all()) {
        // Requests accepted by this worker instance are already being scanned.
        if (record.scan.status === 'PENDING' && record.createdAt < startedAt) void scan(record, settings)
      }
      await queued(() => syncWindow({ open: true }))
    },
  }
}
