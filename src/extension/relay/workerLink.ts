/**
 * The relay's side of the worker connection: a runtime.Port opened when the first request comes, reopened after the
 * worker is stopped while requests are open (asking which of them settled meanwhile), and decisions that the worker
 * delivers by tabs.sendMessage. Each request settles exactly once.
 */
import type { Browser, Runtime } from 'webextension-polyfill'
import {
  type DecisionDelivery,
  type HookCall,
  type Outcome,
  RELAY_PORT_NAME,
  type RelayToWorker,
  type WorkerToRelay,
} from './protocol.ts'

type Settle = (rid: number, outcome: Outcome) => void

const unreachable = (why: string): Outcome => ({
  kind: 'error',
  error: { code: 4900, message: `Preflight could not check this request: ${why}. Reload the page and try again.` },
})

/** How often a relay with open requests checks that its extension is still there. */
const ORPHAN_CHECK_MS = 1000

/** Connects requests from the hook to the worker; `settle` is called once per request id. */
export function createWorkerLink(browser: Browser, settle: Settle) {
  /** rid → worker id, once the worker accepted it (undefined before). */
  const open = new Map<number, string | undefined>()
  let port: Runtime.Port | undefined
  let watchdog: ReturnType<typeof setInterval> | undefined

  const finish = (rid: number, outcome: Outcome) => {
    if (!open.has(rid)) return
    open.delete(rid)
    settle(rid, outcome)
  }
  const finishAll = (outcome: Outcome) => {
    for (const rid of [...open.keys()]) finish(rid, outcome)
  }

  const extensionAlive = () => {
    try {
      return Boolean(browser.runtime.id)
    } catch {
      return false
    }
  }
  /**
   * A reloaded or removed extension orphans this script, and the port's disconnect can come while the old context
   * still looks alive (so the reconnect seems to work) with no later event: only checking tells the two apart.
   */
  const watchForOrphaning = () => {
    watchdog ??= setInterval(() => {
      if (open.size > 0 && extensionAlive()) return
      clearInterval(watchdog)
      watchdog = undefined
      finishAll(unreachable('the extension was reloaded or removed'))
    }, ORPHAN_CHECK_MS)
  }
  const finishById = (id: string, outcome: Outcome) => {
    for (const [rid, known] of open) if (known === id) finish(rid, outcome)
  }

  const onMessage = (message: unknown) => {
    const data = message as WorkerToRelay
    if (data?.type === 'accepted' && open.has(data.rid)) open.set(data.rid, data.id)
    else if (data?.type === 'settle') finish(data.rid, data.outcome)
    else if (data?.type === 'decided') finishById(data.id, data.outcome)
  }

  /** The connection is gone (`why`, for requests the worker never acknowledged): ask about the rest on a new one. */
  const lost = (why: string) => {
    port = undefined
    // Requests the worker never acknowledged cannot be found again; the others are looked up after reconnecting.
    for (const [rid, id] of open) if (id === undefined) finish(rid, unreachable(why))
    if (open.size === 0 || send({ type: 'resume', ids: [...open.values()] as string[] })) return
    // The extension was reloaded or removed: nothing can decide these requests any more.
    finishAll(unreachable('the extension was reloaded or removed'))
  }

  const connect = (): Runtime.Port | undefined => {
    if (port) return port
    try {
      const opened = browser.runtime.connect({ name: RELAY_PORT_NAME })
      opened.onMessage.addListener(onMessage)
      opened.onDisconnect.addListener(() => {
        // A port replaced since (see restored) is no longer this one's to clear.
        if (port === opened || port === undefined) lost('the extension restarted')
      })
      port = opened
      return port
    } catch {
      // The extension was reloaded or removed: this page's content scripts can no longer reach it.
      return undefined
    }
  }

  const send = (message: RelayToWorker): boolean => {
    const target = connect()
    if (!target) return false
    try {
      target.postMessage(message)
      return true
    } catch {
      port = undefined
      return false
    }
  }

  browser.runtime.onMessage.addListener((message: unknown) => {
    const delivery = message as DecisionDelivery
    if (delivery?.type === 'preflight/decided') finishById(delivery.id, delivery.outcome)
  })

  return {
    /**
     * Wakes the worker ahead of a probable request; nothing waits for it, so nothing fails if it cannot. Only when the
     * connection is closed (the worker stopped, or none was made yet): keeping a running worker running is
     * keepAlive's, on its own schedule, not once a second for a page that estimates gas in a loop.
     */
    prelude() {
      if (!port) send({ type: 'prelude' })
    },
    /** Tells the worker a request is on its way (waking it when stopped), so it can open the window ahead of it. */
    coming() {
      send({ type: 'coming' })
    },
    /** Tells the worker the page is in use (see keepAlive.ts); false when the extension cannot be reached. */
    keepAlive: (): boolean => extensionAlive() && send({ type: 'keepalive' }),
    /**
     * The page came back from the back/forward cache. Chrome closed this frame's connection as the page went in,
     * without a disconnect event here, and a message posted on it since is dropped without an error: the requests
     * left open would wait for ever, and every new one reach nothing. So the connection is replaced, and the worker,
     * which settled those requests when the page went away, is asked what became of them.
     */
    restored() {
      try {
        port?.disconnect()
      } catch {
        // Already closed, as it should be.
      }
      lost('the page was left while it waited')
    },
    /** Sends one intercepted call to the worker. */
    request(rid: number, call: HookCall) {
      open.set(rid, undefined)
      if (!send({ type: 'request', rid, call })) return finish(rid, unreachable('the extension is not reachable'))
      watchForOrphaning()
    },
  }
}
