/**
 * The life of an intercepted request in the worker: accept it from a relay, normalise it into exactly what the wallet
 * will receive, store it, queue it in the confirmation window, scan it, and settle it exactly once on the user's
 * decision, the window closing, or the page going away. On Continue the frame is sent the stored params, which the
 * hook forwards: what the window showed is what the wallet gets. A transaction is scanned again right after its first
 * result (the second look) and again on Continue: when its outcome got worse than the window showed, nothing is
 * forwarded and the window shows the fresh scan (outcomeDrift.ts). A Continue counts only for the outcome it was given
 * on.
 */
import type { Browser, Runtime } from 'webextension-polyfill'
import {
  type DecisionDelivery,
  type HookCall,
  type Outcome,
  outcomeOf,
  type RelayToWorker,
  WALLET_ANSWER_TIMEOUT_MS,
  type WorkerToRelay,
} from '../relay/protocol.ts'
import { scanFailed } from '../scanner/protocol.ts'
import {
  type Decision,
  type DecisionReply,
  type PendingRequest,
  type ScanState,
  shownRevision,
} from '../shared/pending.ts'
import { isPermissionRequest, PERMISSIONS_NOT_CHECKED } from '../shared/permissions.ts'
import { canCheckMessagesOn, SETTINGS_KEY, type Settings, withDefaults } from '../shared/settings.ts'
import { createConfirmQueue } from './confirmQueue.ts'
import { createCounterparties, scanRecipients, withPoisonedAddressWarnings } from './counterparties.ts'
import { createHistory, historyEntry } from './history.ts'
import { createLateWallets } from './lateWallets.ts'
import { type NormalCall, normalizeCall, TYPED_DATA_METHODS, walletChain } from './normalizeCall.ts'
import { outcomeDrift } from './outcomeDrift.ts'
import type { PendingStore } from './pendingStore.ts'
import type { Scanner } from './scannerPage.ts'
import { type RequestSender, requestSender } from './sender.ts'
import { limited } from './serially.ts'
import { validateCall } from './validateCall.ts'

const LOST: Outcome = {
  kind: 'error',
  error: { code: 4900, message: 'Preflight lost this request while restarting; send it again.' },
}
const NOT_KEPT = (why: string): Outcome => ({
  kind: 'error',
  error: { code: -32603, message: `Preflight could not keep this request for review (${why}); try again.` },
})
/**
 * Bytes of params one tab may have waiting for review: past any real request (each is 512 KiB at most) and a fifth of
 * session storage (10 MB), so a page that floods the store cannot keep every other site's requests out of it.
 */
export const TAB_WAITING_BYTES = 2 * 1024 * 1024

/** The size a request's params take in storage, near enough to budget it. */
const paramsBytes = (params: unknown[]) => JSON.stringify(params).length

/**
 * How long after the first result the second look starts: the scanner page shares its thread with the window, which is
 * then drawing that result (it cost a cold window 6–17 ms when it started at once). Continue arms only after 600 ms
 * without input once results show, and a Continue before the look lands makes its own check.
 */
const SECOND_LOOK_AFTER_MS = 200

/** How often, at most, settles also forget settled records past their time (SETTLED_TTL_MS). */
const PRUNE_EVERY_MS = 60_000
/** Scans run a few at a time, oldest first, so a flood cannot starve the request on screen or swamp the node. */
const SCAN_CONCURRENCY = 4
/**
 * How long an announced request may take to arrive: the hook asks the wallet for its accounts and chain in between,
 * and sends it without them after WALLET_ANSWER_TIMEOUT_MS. A window opened for one that never came closes then.
 */
const ANNOUNCED_FOR_MS = WALLET_ANSWER_TIMEOUT_MS + 2_000

/**
 * Whether Preflight checks requests from this frame: on, unless paused both for the frame's origin and for its page's
 * (when that differs). A pause is for a site the user trusts as they visit it: a sandboxed document, a frame of
 * another site inside it (an ad, a widget, an upload served from another host), and a page that frames it are not it.
 */
function isChecking(settings: Settings, sender: RequestSender): boolean {
  if (!settings.enabled) return false
  if (sender.sandboxed) return true
  const paused = new Set(settings.pausedOrigins)
  return !paused.has(sender.origin) || (sender.topOrigin !== undefined && !paused.has(sender.topOrigin))
}

/**
 * How long a Continue waits for the scan that checks the outcome still holds. Past it the request goes on: the user
 * decided on a finished scan, and a slow node must not hold every signature hostage.
 */
export const RECHECK_TIMEOUT_MS = 5_000

/** The scan, or undefined when it takes longer than RECHECK_TIMEOUT_MS. */
async function withinRecheckTime(scanning: Promise<ScanState>): Promise<ScanState | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), RECHECK_TIMEOUT_MS)
  })
  try {
    return await Promise.race([scanning, late])
  } finally {
    clearTimeout(timer)
  }
}

/** A second scan of a shown transaction request: made, with what is worse in it (maybe nothing), or not, and why. */
type Rescan = { made: true; scan: ScanState; lines: string[] } | { made: false; why: string }

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Wires request handling to the browser; returns the handlers worker.ts registers. `scanner` runs the scans, in the
 * scanner page that holds the engine and its lists, apart from the worker's script.
 */
export function createRequests(browser: Browser, store: PendingStore, scanner: Scanner) {
  const history = createHistory(browser.storage.local)
  const counterparties = createCounterparties(browser.storage.local)
  const lateWallets = createLateWallets(browser.storage.local)
  /** Requests accepted over each live relay port, so a page that goes away settles its requests. */
  const byPort = new Map<Runtime.Port, Set<string>>()
  const scans = limited(SCAN_CONCURRENCY)
  // Arrival times strictly increase, so requests that arrive in the same millisecond still queue in arrival order and
  // the first of a burst, whose arrival opens the window, is the one it shows first.
  let lastArrival = 0
  const arrivalTime = () => {
    lastArrival = Math.max(Date.now(), lastArrival + 1)
    return lastArrival
  }
  /**
   * Request ids announced over each relay port (see announce), not yet taken by a request from it; and those taken by a
   * request that is still being checked. Either keeps a window opened for them from closing as empty.
   */
  const announced = new Map<Runtime.Port, string>()
  const arriving = new Set<string>()
  /** Resolves once a restarted worker has rebuilt its queue; new requests wait for it. */
  let restored: Promise<unknown> = Promise.resolve()

  const loadSettings = async () => withDefaults((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY])
  /** Has the scanner page ready, with the lists a local scan reads unless the settings name a scan API. */
  const warmFor = (settings: Settings | undefined) => scanner.warm(settings?.backend.kind !== 'remote')
  const warmScanner = async () => warmFor(await loadSettings().catch(() => undefined))
  const post = (port: Runtime.Port, message: WorkerToRelay) => {
    try {
      port.postMessage(message)
    } catch {
      // The page went away; its requests are settled by onDisconnect.
    }
  }

  /** Each waiting request's tab and params size (rebuilt from storage on restart), for the budget of its tab. */
  const waiting = new Map<string, { tabId: number; bytes: number }>()
  const waitingIn = (tabId: number) => {
    let bytes = 0
    for (const each of waiting.values()) if (each.tabId === tabId) bytes += each.bytes
    return bytes
  }

  /** When settled records were last pruned: a worker kept running for hours (keepAlive.ts) must not pile them up. */
  let prunedAt = Date.now()

  /** Settles request `id` once: records it, tells the frame, and returns it (the first time only). */
  async function settle(id: string, decision: Decision | 'closed', outcome?: Outcome) {
    const record = await store.take(id, decision, (current) => outcome ?? outcomeOf(decision, current.params))
    waiting.delete(id)
    queue.settled(id)
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now()
      void store.prune(prunedAt).catch(() => undefined)
    }
    if (!record) return undefined
    const delivery: DecisionDelivery = {
      type: 'preflight/decided',
      id,
      outcome: outcome ?? outcomeOf(decision, record.params),
    }
    // Not awaited: the relay shares its page's main thread, so a page that spins forever never acknowledges, and this
    // runs inside the window's one-at-a-time queue, which every other site's requests wait on. A relay that missed it
    // gets the settled record when it reconnects (resume).
    void browser.tabs.sendMessage(record.tabId, delivery, { frameId: record.frameId }).catch(() => undefined)
    void history.add(historyEntry(record, decision, Date.now())).catch(() => undefined)
    if (decision === 'continue') {
      void counterparties.remember(scanRecipients(record.scan, record.account)).catch(() => undefined)
    }
    return record
  }

  const queue = createConfirmQueue(browser, store, (id, outcome) => settle(id, 'closed', outcome))

  /**
   * A request's scan as the window shows it: the engine's, with a POISONED_ADDRESS warning for each recipient that
   * mimics an address the user paid before (kept in the worker, so the engine cannot add it). A second scan
   * (`recheck`: the second look, and the re-check on Continue) also runs the transactions as a block runs them
   * (SIMULATION_EVASION): one more call then, where it delays no first look.
   */
  async function scanned(record: PendingRequest, settings: Settings, recheck = false): Promise<ScanState> {
    const known = counterparties.known().catch(() => new Set<never>())
    const { method, params, account, origin, topOrigin, sandboxed, chainId } = record
    const call = {
      method,
      params,
      account,
      origin,
      chainId,
      ...(topOrigin === undefined ? {} : { topOrigin }),
      ...(sandboxed ? { sandboxed } : {}),
    }
    const state = await scanner.scan({ call, settings, ...(recheck ? { probeEnvironment: true } : {}) })
    try {
      return withPoisonedAddressWarnings(state, account, await known)
    } catch (error) {
      return scanFailed(error)
    }
  }

  /** Re-checks in flight by request: a second Continue waits for the first one's answer instead of forwarding. */
  const rechecks = new Map<string, Promise<boolean>>()
  /** Continues being decided, by request: a second look no longer changes what such a request shows. */
  const continuing = new Map<string, number>()
  const setContinuing = (id: string, step: 1 | -1) => {
    const count = (continuing.get(id) ?? 0) + step
    if (count > 0) continuing.set(id, count)
    else continuing.delete(id)
  }

  /**
   * A shown transaction request scanned again, as a block runs it: the fresh scan and what in it is worse than the
   * window shows (no lines: nothing is), or why it could not be made; undefined for a request with nothing to compare.
   */
  async function rescan(record: PendingRequest): Promise<Rescan | undefined> {
    if (record.scan.status !== 'DONE' || record.scan.kind !== 'transactions') return undefined
    // Judged as the shown scan was, so a warning only the worker adds is not news.
    const fresh = await withinRecheckTime(scanned(record, await loadSettings(), true))
    if (fresh?.status === 'DONE' && fresh.kind === 'transactions') {
      return { made: true, scan: fresh, lines: outcomeDrift(record.scan.response, fresh.response) }
    }
    const why =
      fresh?.status === 'ERROR' ? fresh.error.message : `It did not finish within ${RECHECK_TIMEOUT_MS / 1000} seconds.`
    return { made: false, why }
  }

  /**
   * Stores a fresh outcome on request `id` for the window to show, unless `still` says no (it then returns false);
   * true when the request was still pending.
   */
  async function showChange(
    id: string,
    scan: ScanState,
    change: Omit<NonNullable<PendingRequest['changedWhileShown']>, 'at'>,
    still: (current: PendingRequest) => boolean = () => true,
  ): Promise<boolean> {
    let shown = false
    await store.update(id, (current) => {
      if (!still(current)) return current
      shown = true
      const at = Math.max(Date.now(), shownRevision(current) + 1)
      return { ...current, scan, changedWhileShown: { at, ...change } }
    })
    return shown
  }

  /**
   * Scans a transaction request again as the user continues it. When the outcome is worse than the window showed,
   * stores the fresh scan with what changed and returns true: nothing is forwarded until the user decides again on
   * what is now shown. A re-check that cannot finish holds the request the same way, once: a contract can make its own
   * simulation slow or failing after it switched, so "could not check" must not mean "go on". Continued again after
   * that, it goes on if the check fails again, as the user then knows it could not be checked.
   */
  function changedSinceShown(id: string): Promise<boolean> {
    const running = rechecks.get(id)
    if (running) return running
    const check = (async () => {
      const record = await store.get(id)
      const fresh = record && (await rescan(record))
      if (!fresh) return false
      if (!fresh.made) {
        return (
          !record.changedWhileShown?.unchecked && showChange(id, record.scan, { lines: [fresh.why], unchecked: true })
        )
      }
      return fresh.lines.length > 0 && showChange(id, fresh.scan, { lines: fresh.lines })
    })()
      .catch(() => false)
      .finally(() => rechecks.delete(id))
    rechecks.set(id, check)
    return check
  }

  /**
   * Scans a transaction request again right after its first result, as a block runs it, so a contract that pays back
   * only while simulated shows its real outcome before the user decides rather than as they continue. What is worse is
   * stored as a change the window shows; a look that cannot finish says nothing (the Continue checks again anyway).
   */
  async function secondLook(id: string) {
    const record = await store.get(id)
    if (!record) return
    const fresh = await rescan(record).catch(() => undefined)
    if (!fresh?.made || fresh.lines.length === 0) return
    const revision = shownRevision(record)
    // A Continue under way, or another change stored meanwhile, is newer than this look.
    await showChange(id, fresh.scan, { lines: fresh.lines, secondLook: true }, (current) => {
      return !continuing.has(id) && shownRevision(current) === revision
    })
  }

  async function scan(record: PendingRequest, settings: Settings) {
    if (!queue.has(record.id)) return
    const state = isPermissionRequest(record.method) ? PERMISSIONS_NOT_CHECKED : await scanned(record, settings)
    let kept = true
    await store
      .update(record.id, (current) => ({ ...current, scan: state }))
      .catch((error: Error) => {
        kept = false
        // A result too large for session storage must still end the wait, so the user can decide.
        return store.update(record.id, (current) => ({
          ...current,
          scan: {
            status: 'ERROR',
            error: { kind: 'BACKEND_ERROR', message: `The scan result could not be kept: ${error.message}` },
          },
        }))
      })
    // A scan API's answer is its own; the local engine can run the transactions as a block does, after the first look.
    if (kept && state.status === 'DONE' && state.kind === 'transactions' && settings.backend.kind === 'local') {
      setTimeout(() => void scans(() => secondLook(record.id)).catch(() => undefined), SECOND_LOOK_AFTER_MS)
    }
  }

  /** Rejects requests whose page went away, and closes their window when nothing else waits in it. */
  async function dropRequests(ids: Iterable<string>) {
    for (const id of ids) await settle(id, 'closed')
    closeIfIdle()
  }

  /** Closes a window opened for announced requests once none is on its way and none waits in it. */
  function closeIfIdle() {
    if (announced.size === 0 && arriving.size === 0) void queue.closeIfEmpty()
  }

  /**
   * The hook says a signing request is coming: it has copied the dapp's params and now asks the wallet for its accounts
   * and chain. The next request over this port will take the id chosen here, and when no window is open one opens for
   * it now, so Chrome makes the window and loads its page while the request travels and is checked (the window waits
   * for it). A request that is refused, or never comes, closes that window again while it holds nothing.
   */
  function announce(port: Runtime.Port) {
    if (announced.has(port)) return
    const id = crypto.randomUUID()
    announced.set(port, id)
    setTimeout(() => {
      if (announced.get(port) !== id) return
      announced.delete(port)
      closeIfIdle()
    }, ANNOUNCED_FOR_MS)
    void (async () => {
      const sender = requestSender(port.sender)
      const settings = await loadSettings().catch(() => undefined)
      warmFor(settings)
      // Switched off or paused there: the request will be forwarded with no window, so none may flash.
      if (!sender || !settings || !isChecking(settings, sender)) return
      await queue.announce(id, () => announced.get(port) === id || arriving.has(id))
    })()
  }

  /** The id announced over `port` for its next request, which takes it (undefined when none was announced). */
  function takeAnnounced(port: Runtime.Port): string | undefined {
    const id = announced.get(port)
    if (id === undefined) return undefined
    announced.delete(port)
    arriving.add(id)
    return id
  }

  /** Keeps a request (see keep) and scans it; a request announced as `announcedId` takes that id. */
  async function accept(port: Runtime.Port, rid: number, raw: HookCall, announcedId?: string) {
    let kept: Awaited<ReturnType<typeof keep>> | undefined
    try {
      kept = await keep(port, rid, raw, announcedId ?? crypto.randomUUID())
    } finally {
      if (announcedId !== undefined) {
        arriving.delete(announcedId)
        if (!kept) closeIfIdle()
      }
    }
    if (!kept) return
    const { record, settings } = kept
    // The scan starts at once (a few at a time), also for a request that waits its turn, so it is ready when shown.
    await scans(() => scan(record, settings))
  }

  /**
   * Checks a call from a relay, normalises it, stores it as request `id` and queues it in the window; returns it, or
   * undefined when the frame got its answer without a window (refused, switched off, or not kept).
   */
  async function keep(port: Runtime.Port, rid: number, raw: HookCall, id: string) {
    // Read while a restarted worker rebuilds its queue: on the cold path every storage round trip is in the wait.
    const settingsRead = loadSettings()
    settingsRead.catch(() => undefined)
    await restored
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
    try {
      settings = await settingsRead
    } catch (error) {
      return post(port, { type: 'settle', rid, outcome: NOT_KEPT(reason(error)) })
    }
    // Switched off or paused here: the wallet gets the detached copy the hook sent, as the dapp passed it.
    if (!isChecking(settings, sender))
      return post(port, { type: 'settle', rid, outcome: { kind: 'forward', params: call.params } })
    // The scanner page opens, or loads its lists, while the request is stored and its window opens.
    warmFor(settings)
    const normal = await normalizeCall(call, scanner.decodeSigned)
    if (!normal.ok) return post(port, { type: 'settle', rid, outcome: { kind: 'error', error: normal.error } })
    const wallet = walletChain(call.chainId)
    const record: PendingRequest = {
      id,
      ...sender,
      ...normal.call,
      chainId: messageChain(normal.call, wallet, settings),
      ...otherChain(normal.call, wallet),
      wallet: call.wallet,
      createdAt: arrivalTime(),
      scan: { status: 'PENDING' },
    }
    const requestsOfPort = byPort.get(port)
    // The page went away before its request could be kept: nobody is waiting for a window.
    if (!requestsOfPort) return
    const bytes = paramsBytes(record.params)
    const before = waitingIn(sender.tabId)
    if (before + bytes > TAB_WAITING_BYTES) {
      const message = `Preflight: this tab already has ${(before / 1024 / 1024).toFixed(1)} MB of requests waiting for review, and this one would take it past ${TAB_WAITING_BYTES / 1024 / 1024} MB; decide on those first.`
      return post(port, { type: 'settle', rid, outcome: { kind: 'error', error: { code: -32005, message } } })
    }
    waiting.set(record.id, { tabId: sender.tabId, bytes })
    // The frame learns the id before the window can show it, so a decision always finds its request.
    requestsOfPort.add(record.id)
    post(port, { type: 'accepted', rid, id: record.id })
    if (call.wallet.late) void lateWallets.note({ label: call.wallet.label, origin: sender.origin, at: Date.now() })
    try {
      await queue.add(record)
    } catch (error) {
      requestsOfPort.delete(record.id)
      waiting.delete(record.id)
      return post(port, { type: 'settle', rid, outcome: NOT_KEPT(reason(error)) })
    }
    // The page went away while its request waited its turn in the window's queue: dropRequests ran before it was
    // stored and found nothing, so it is settled here rather than shown to nobody.
    if (!byPort.has(port)) {
      await settle(record.id, 'closed')
      closeIfIdle()
      return undefined
    }
    return { record, settings }
  }

  /** Typed data bound to another chain than the wallet's (when the wallet said which it is on): both chains. */
  function otherChain(normal: NormalCall, wallet: number): Pick<PendingRequest, 'otherChain'> {
    if (!TYPED_DATA_METHODS.has(normal.method) || wallet === 0 || normal.chainId === wallet) return {}
    return { otherChain: { domain: normal.chainId, wallet } }
  }

  /**
   * Typed data is checked on the chain its domain binds it to; where no backend can check that chain, on the wallet's,
   * so a domain naming an unchecked chain cannot turn a finding into "could not check".
   */
  function messageChain(normal: NormalCall, wallet: number, settings: Settings): number {
    if (!TYPED_DATA_METHODS.has(normal.method) || normal.chainId === wallet) return normal.chainId
    return canCheckMessagesOn(normal.chainId, settings) || !canCheckMessagesOn(wallet, settings)
      ? normal.chainId
      : wallet
  }

  async function resume(port: Runtime.Port, ids: string[]) {
    await restored
    for (const id of ids.filter((value) => typeof value === 'string')) {
      const [settled, pending] = await Promise.all([store.settled(id), store.get(id)])
      if (pending && pending.tabId === port.sender?.tab?.id) byPort.get(port)?.add(id)
      else if (settled) post(port, { type: 'decided', id, outcome: settled.outcome })
      else if (!pending) post(port, { type: 'decided', id, outcome: LOST })
    }
  }

  return {
    /** A relay connected: take its requests and, when it goes away, settle what it left open. */
    onConnect(port: Runtime.Port) {
      byPort.set(port, new Set())
      port.onMessage.addListener((message: unknown) => {
        const data = message as RelayToWorker
        if (data?.type === 'request' && typeof data.rid === 'number') {
          void accept(port, data.rid, data.call, takeAnnounced(port))
        } else if (data?.type === 'coming') announce(port)
        else if (data?.type === 'resume' && Array.isArray(data.ids)) void resume(port, data.ids)
        // A request is probably coming, or the page that would send one is in use: the scanner can be ready before it.
        else if (data?.type === 'prelude' || data?.type === 'keepalive') void warmScanner()
      })
      port.onDisconnect.addListener(() => {
        const ids = byPort.get(port) ?? new Set()
        byPort.delete(port)
        if (announced.delete(port) && ids.size === 0) closeIfIdle()
        if (ids.size > 0) void dropRequests(ids)
      })
    },
    /** The user's decision from the confirmation window, and the request that window shows next. */
    async decide(id: string, decision: Decision, seen: number): Promise<DecisionReply> {
      // A decision can be what woke a stopped worker: it is taken on the queue that worker rebuilds, or the window
      // is told nothing follows and closes, rejecting the requests still waiting in it.
      await restored
      if (decision === 'continue') setContinuing(id, 1)
      try {
        if (decision === 'continue') {
          const current = await store.current(id)
          // The outcome changed while the click travelled: the window shows it now, and nothing goes on.
          if (current && shownRevision(current) !== seen) return { ok: false, next: id }
          if (await changedSinceShown(id)) return { ok: false, next: id }
        }
        const record = await settle(id, decision)
        const next = queue.settled(id)
        if (next === null) queue.windowClosing()
        return { ok: record !== undefined, next }
      } finally {
        if (decision === 'continue') setContinuing(id, -1)
      }
    },
    /** Rejects every waiting request at once (the window's "Reject all"). */
    async rejectAll(): Promise<DecisionReply> {
      await restored
      for (const id of queue.ids()) await settle(id, 'reject')
      queue.windowClosing()
      return { ok: true, next: null }
    },
    /** Opens the scanner page and has it load what a scan reads, ahead of any request (after the browser starts). */
    warm: warmScanner,
    /** A window was closed: if it was the confirmation window, reject every request waiting in it. */
    onWindowRemoved: (windowId: number) => queue.windowRemoved(windowId),
    /**
     * After a restart: rebuild the queue (rejecting what waited in a window closed meanwhile), finish scans the
     * stopped worker left running, and forget old settled records.
     */
    recover() {
      restored = (async () => {
        const startedAt = Date.now()
        const [settings] = await Promise.all([loadSettings(), queue.restore(), store.prune(startedAt)])
        for (const record of await store.all()) {
          waiting.set(record.id, { tabId: record.tabId, bytes: paramsBytes(record.params) })
          if (record.scan.status === 'PENDING' && record.createdAt < startedAt) void scans(() => scan(record, settings))
        }
      })().catch(() => undefined)
      return restored
    },
  }
}
