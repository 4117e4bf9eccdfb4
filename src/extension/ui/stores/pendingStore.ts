/** The review queue this confirmation window shows, and the user's decision on the request it shows. */
import browser from 'webextension-polyfill'
import { create, type StoreApi, type UseBoundStore } from 'zustand'
import {
  type Decision,
  type DecisionMessage,
  type DecisionReply,
  inQueueOrder,
  type PendingRequest,
} from '../../shared/pending.ts'

/** The request id from the window's URL (`?id=<id>`), chosen by the worker. */
export function requestIdFromUrl(search: string): string | null {
  return new URLSearchParams(search).get('id')
}

const isPending = (raw: unknown): raw is PendingRequest =>
  !!raw && typeof raw === 'object' && typeof (raw as PendingRequest).id === 'string' && 'scan' in raw

export type QueueSlice = {
  /** Every pending request, oldest first; undefined until the first read finishes. */
  requests: PendingRequest[] | undefined
  /** Requests that stopped pending while this page was open, by id, as last stored: what the window was showing. */
  ended: Record<string, PendingRequest>
  error: string | null
}

export type QueueStore = UseBoundStore<StoreApi<QueueSlice>>

/** A store of all `pending:<id>` records in chrome.storage.session, kept live through storage.onChanged. */
export function createQueueStore(): QueueStore {
  const use = create<QueueSlice>()(() => ({ requests: undefined, ended: {}, error: null }))
  const byKey = new Map<string, PendingRequest>()
  /** Keys changed while the first read was in flight: their change events are newer than what the read returns. */
  const changedEarly = new Set<string>()
  let loaded = false
  const publish = () => loaded && use.setState({ requests: inQueueOrder([...byKey.values()]), error: null })

  browser.storage.onChanged.addListener((changes, areaName) => {
    if (areaName !== 'session') return
    let touched = false
    for (const [key, change] of Object.entries(changes)) {
      if (!key.startsWith('pending:')) continue
      touched = true
      if (!loaded) changedEarly.add(key)
      if (isPending(change.newValue)) byKey.set(key, change.newValue)
      else {
        byKey.delete(key)
        const last = change.oldValue
        if (isPending(last)) use.setState((state) => ({ ended: { ...state.ended, [last.id]: last } }))
      }
    }
    if (touched) publish()
  })
  browser.storage.session.get(null).then(
    (items) => {
      for (const [key, value] of Object.entries(items)) {
        if (key.startsWith('pending:') && isPending(value) && !changedEarly.has(key)) byKey.set(key, value)
      }
      loaded = true
      publish()
    },
    (error: unknown) =>
      use.setState({ error: `Could not read the pending requests: ${error instanceof Error ? error.message : error}` }),
  )
  return use
}

/** The id of the browser window this page is in: the worker records it on the requests it queues there. */
export async function currentWindowId(): Promise<number | undefined> {
  return (await browser.windows.getCurrent()).id
}

type DecisionState = { sending: Decision | null; error: string | null }

export const useDecision = create<DecisionState>()(() => ({ sending: null, error: null }))

/** Rejects every waiting request and closes the window. */
export async function rejectAll(): Promise<void> {
  if (useDecision.getState().sending) return
  useDecision.setState({ sending: 'reject', error: null })
  const message: DecisionMessage = { type: 'preflight/reject-all' }
  try {
    await browser.runtime.sendMessage(message)
    window.close()
  } catch (error) {
    useDecision.setState({
      sending: null,
      error: `Preflight could not reject the requests: ${error instanceof Error ? error.message : String(error)}. Close this window to reject them.`,
    })
  }
}

const isReply = (raw: unknown): raw is DecisionReply =>
  !!raw && typeof raw === 'object' && typeof (raw as DecisionReply).ok === 'boolean'

/**
 * Sends the decision to the worker once and returns the request to show next (null: close the window, as nothing
 * else waits in it), or undefined when the decision could not be delivered (the error is in useDecision).
 */
export async function decide(id: string, decision: Decision, seen: number): Promise<string | null | undefined> {
  if (useDecision.getState().sending) return undefined
  useDecision.setState({ sending: decision, error: null })
  const message: DecisionMessage = { type: 'preflight/decision', id, decision, seen }
  try {
    const reply: unknown = await browser.runtime.sendMessage(message)
    const next = isReply(reply) && typeof reply.next === 'string' ? reply.next : null
    useDecision.setState({ sending: null })
    return next
  } catch (error) {
    useDecision.setState({
      sending: null,
      error: `Preflight could not deliver your decision: ${error instanceof Error ? error.message : String(error)}. Try again, or close this window to reject.`,
    })
    return undefined
  }
}
