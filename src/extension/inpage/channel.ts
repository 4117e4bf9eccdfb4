/**
 * The hook's private channel to the relay. Both content scripts run at document_start, before any page script; the
 * relay is listed first, so when the hook starts it says "ready" and the relay hands over its MessagePort while the
 * hook's dispatch is still running. A port offered any later could only come from the page, so the hook stops
 * listening when it has one, or when the page's own scripts are about to run (see `closeHandshake`).
 * Everything here uses captured intrinsics: the page can replace MessageEvent getters or EventTarget methods and
 * still cannot forge a decision.
 */
import { type HookCall, type Outcome, PORT_EVENT, PRELUDE_INTERVAL_MS, READY_EVENT } from '../relay/protocol.ts'
import {
  addListener,
  bare,
  dispatch,
  messageEventData,
  messageEventPorts,
  newEvent,
  ownValue,
  portPostMessage,
  portStart,
  preventDefault,
  removeListener,
  stopImmediatePropagation,
  win,
} from './intrinsics.ts'

export type RelayChannel = {
  /** Sends one call to the worker; `done` is called once with its outcome. */
  scan(call: HookCall, done: (outcome: Outcome) => void): void
  /**
   * Says a signing request is probably coming (at most once every PRELUDE_INTERVAL_MS), so a stopped worker starts
   * now rather than when the request arrives.
   */
  prelude(): void
  /** Says a signing request is on its way (the gate holds it while the wallet answers), so its window can open now. */
  coming(): void
  /** Stops accepting a port: called when the page's own scripts are about to run. */
  closeHandshake(): void
}

const failure = (code: number, message: string): Outcome => ({ kind: 'error', error: { code, message } })

const now = Date.now

const NOT_CONNECTED = failure(
  4900,
  'Preflight cannot reach its extension in this frame; reload the page to have this request checked.',
)

/** Reads an outcome the relay sent (a structured clone only this hook holds), refusing anything malformed. */
function readOutcome(raw: unknown): Outcome {
  const kind = ownValue(raw, 'kind')
  if (kind === 'forward') return { kind: 'forward', params: ownValue(raw, 'params') }
  const error = ownValue(raw, 'error')
  const code = ownValue(error, 'code')
  const message = ownValue(error, 'message')
  if (kind === 'error' && typeof code === 'number' && typeof message === 'string') return failure(code, message)
  return failure(-32603, 'Preflight received a malformed answer from its extension; the request was not forwarded.')
}

/** Takes the relay's port (once, while the hook starts) and returns the channel every intercepted call uses. */
export function connectToRelay(): RelayChannel {
  const waiting = bare<Record<number, (outcome: Outcome) => void>>()
  let port: MessagePort | undefined
  let nextRid = 1
  let listening = true
  let lastPrelude = Number.NEGATIVE_INFINITY

  const onMessage = (event: Event) => {
    let data: unknown
    try {
      data = messageEventData(event)
    } catch {
      return
    }
    const rid = ownValue(data, 'rid')
    if (ownValue(data, 'type') !== 'settle' || typeof rid !== 'number') return
    const done = waiting[rid]
    if (!done) return
    delete waiting[rid]
    done(readOutcome(ownValue(data, 'outcome')))
  }

  const stopListening = () => {
    if (!listening) return
    listening = false
    removeListener(win, PORT_EVENT, onPort, true)
  }

  function onPort(event: Event) {
    if (port) return
    let offered: MessagePort | undefined
    try {
      offered = messageEventPorts(event)[0]
    } catch {
      return
    }
    if (!offered) return
    port = offered
    preventDefault(event)
    stopImmediatePropagation(event)
    stopListening()
    addListener(port, 'message', onMessage)
    portStart(port)
  }

  addListener(win, PORT_EVENT, onPort, true)
  dispatch(win, newEvent(READY_EVENT))

  /** Tells the worker, through the relay, what is about to happen; nothing depends on it (the request itself does). */
  const hint = (type: 'coming' | 'prelude') => {
    if (!port) return
    try {
      portPostMessage(port, { type })
    } catch {
      // The relay's port is gone: the request that follows reports it.
    }
  }

  return {
    scan(call, done) {
      if (!port) return done(NOT_CONNECTED)
      const rid = nextRid++
      waiting[rid] = done
      try {
        portPostMessage(port, { type: 'scan', rid, call })
      } catch {
        delete waiting[rid]
        done(failure(-32602, 'Preflight refused this request: its parameters cannot be copied.'))
      }
    },
    coming: () => hint('coming'),
    prelude() {
      const at = now()
      if (!port || at - lastPrelude < PRELUDE_INTERVAL_MS) return
      lastPrelude = at
      hint('prelude')
    },
    closeHandshake: stopListening,
  }
}
