/**
 * The hook's private channel to the relay. Both content scripts run at document_start, before any page script;
 * whichever runs second completes the handshake synchronously (DOM events dispatch synchronously across worlds), so
 * the relay's MessagePort is handed over before the page can listen, and the page cannot inject its own port later.
 */
import type { HookMessage, Outcome, RelayToHook, ScanCall } from '../relay/protocol.ts'

/** Relay → hook: a cancelable MessageEvent carrying the port; the hook cancels it to say "taken". */
export const PORT_EVENT = 'preflight:relay-port'
/** Hook → relay: "I am listening now", for when the relay ran first. */
export const READY_EVENT = 'preflight:hook-ready'

export type RelayChannel = { scan(call: ScanCall): Promise<Outcome> }

const NOT_CONNECTED: Outcome = {
  kind: 'error',
  error: { code: 4900, message: 'Preflight cannot reach its extension; reload the page to check this request.' },
}

/** Takes the relay's port (once) and returns the request function the hook uses for every intercepted call. */
export function connectToRelay(): RelayChannel {
  // Captured now, before page scripts run and could replace them.
  const post = MessagePort.prototype.postMessage
  const apply = Reflect.apply
  const waiting = new Map<number, (outcome: Outcome) => void>()
  let port: MessagePort | undefined
  let nextRid = 1

  const onPort = (event: Event) => {
    const offered = event instanceof MessageEvent ? event.ports[0] : undefined
    if (port || !offered) return
    port = offered
    event.preventDefault()
    event.stopImmediatePropagation()
    window.removeEventListener(PORT_EVENT, onPort, true)
    port.addEventListener('message', (message: MessageEvent<RelayToHook>) => {
      const data = message.data
      const settle = data?.type === 'settle' ? waiting.get(data.rid) : undefined
      if (!settle) return
      waiting.delete(data.rid)
      settle(data.outcome)
    })
    port.start()
  }
  window.addEventListener(PORT_EVENT, onPort, true)
  window.dispatchEvent(new Event(READY_EVENT))

  return {
    scan(call) {
      if (!port) return Promise.resolve(NOT_CONNECTED)
      const rid = nextRid++
      const message: HookMessage = { type: 'scan', rid, call }
      return new Promise<Outcome>((resolve) => {
        waiting.set(rid, resolve)
        apply(post, port, [message])
      })
    },
  }
}
