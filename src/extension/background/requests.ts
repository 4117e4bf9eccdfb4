/**
 * The life of an intercepted request in the worker: accept it from a relay, store it, open the window, scan, and
 * settle it exactly once on the user's decision, the window closing, or the page going away.
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
import type { Decision, PendingRequest } from '../shared/pending.ts'
import { SETTINGS_KEY, type Settings, withDefaults } from '../shared/settings.ts'
import { openConfirmWindow } from './confirmWindow.ts'
import { createHistory, historyEntry } from './history.ts'
import type { PendingStore } from './pendingStore.ts'
import { runScan } from './scan.ts'
import { buildScanRequest } from './scanRequest.ts'
import { type RequestSender, requestSender } from './sender.ts'
import { validateCall } from './validateCall.ts'

const LOST: Outcome = {
  kind: 'error',
  error: { code: 4900, message: 'Preflight lost this request while restarting; send it again.' },
}
const NO_WINDOW = (why: string): Outcome => ({
  kind: 'error',
  error: { code: 4900, message: `Preflight could not open its confirmation window (${why}).` },
})

/** Whether Preflight checks requests from this frame (on, and not paused for its origin or its page's origin). */
export function isChecking(settings: Settings, sender: RequestSender): boolean {
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
    await store.update(record.id, (current) => ({ ...current, scan: state }))
  }

  /**
   * Settles request `id` once: records it and tells the frame; later calls do nothing. The window closes itself after
   * a decision; when the request ends another way (its page went away), the worker closes it.
   */
  async function settle(id: string, decision: Decision | 'closed', outcome: Outcome = outcomeOf(decision)) {
    const record = await store.take(id, decision)
    if (!record) return
    await history.add(historyEntry(record, decision, Date.now())).catch(() => undefined)
    const delivery: DecisionDelivery = { type: 'preflight/decided', id, outcome }
    await browser.tabs.sendMessage(record.tabId, delivery, { frameId: record.frameId }).catch(() => undefined)
    if (decision === 'closed' && record.windowId !== undefined) {
      await browser.windows.remove(record.windowId).catch(() => undefined)
    }
  }

  async function accept(port: Runtime.Port, rid: number, raw: ScanCall) {
    const sender = requestSender(port.sender)
    const checked = validateCall(raw)
    if (!sender || !checked.ok) {
      const error = checked.ok
        ? { code: -32603, message: 'Preflight: the request did not come from a tab.' }
        : checked.error
      return post(port, { type: 'settle', rid, outcome: { kind: 'error', error } })
    }
    const settings = await loadSettings()
    if (!isChecking(settings, sender)) return post(port, { type: 'settle', rid, outcome: { kind: 'forward' } })

    const { call } = checked
    const record: PendingRequest = {
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
    byPort.get(port)?.add(record.id)
    post(port, { type: 'accepted', rid, id: record.id })

    const windowOpened = openConfirmWindow(browser, record.id).then(
      (windowId) => store.update(record.id, (current) => ({ ...current, windowId })),
      (error: Error) => settle(record.id, 'closed', NO_WINDOW(error.message)),
    )
    await Promise.all([scan(record, settings), windowOpened])
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
        for (const id of ids) void settle(id, 'closed')
      })
    },
    /** The user's decision from the confirmation window. */
    decide: (id: string, decision: Decision) => settle(id, decision),
    /** A window was closed: reject whatever it was showing. */
    async onWindowRemoved(windowId: number) {
      for (const record of await store.all()) if (record.windowId === windowId) await settle(record.id, 'closed')
    },
    /** After a restart: finish scans the stopped worker left running, and forget old settled records. */
    async recover() {
      const startedAt = Date.now()
      await store.prune(startedAt)
      const settings = await loadSettings()
      for (const record of await store.all()) {
        // Requests accepted by this worker instance are already being scanned.
        if (record.scan.status === 'PENDING' && record.createdAt < startedAt) void scan(record, settings)
      }
    },
  }
}
