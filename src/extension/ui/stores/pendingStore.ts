/** The pending request this confirmation window shows, and the user's decision on it. */
import browser from 'webextension-polyfill'
import { create } from 'zustand'
import { type Decision, type DecisionMessage, type PendingRequest, pendingKey } from '../../shared/pending.ts'
import { createStorageStore, type StorageStore } from './storageStore.ts'

/** The request id from the window's URL (`?id=<id>`), chosen by the worker. */
export function requestIdFromUrl(search: string): string | null {
  return new URLSearchParams(search).get('id')
}

const isPending = (raw: unknown): raw is PendingRequest =>
  !!raw && typeof raw === 'object' && typeof (raw as PendingRequest).id === 'string' && 'scan' in raw

/** Store of `pending:<id>`; null once the worker has settled and removed the request (or never had it). */
export function createPendingStore(id: string): StorageStore<PendingRequest | null> {
  return createStorageStore('session', pendingKey(id), (raw) => (isPending(raw) ? raw : null))
}

type DecisionState = { sending: Decision | null; error: string | null }

export const useDecision = create<DecisionState>()(() => ({ sending: null, error: null }))

/** Sends the decision to the worker once, then closes the window (closing alone would count as a rejection). */
export async function decide(id: string, decision: Decision): Promise<void> {
  if (useDecision.getState().sending) return
  useDecision.setState({ sending: decision, error: null })
  const message: DecisionMessage = { type: 'preflight/decision', id, decision }
  try {
    await browser.runtime.sendMessage(message)
    window.close()
  } catch (error) {
    useDecision.setState({
      sending: null,
      error: `Preflight could not deliver your decision: ${error instanceof Error ? error.message : String(error)}. Try again, or close this window to reject.`,
    })
  }
}
