/**
 * Pending requests in chrome.storage.session (they survive the worker being stopped), and a short record of how each
 * settled, so a relay that reconnects after a restart learns the decision it may have missed. Every change to one
 * request runs in order, so a decision and a late scan result cannot overwrite each other.
 */
import type { Storage } from 'webextension-polyfill'
import type { Outcome } from '../relay/protocol.ts'
import { type Decision, type PendingRequest, pendingKey } from '../shared/pending.ts'
import { seriallyPerKey } from './serially.ts'

/** How a request ended, and what its frame was told (the forwarded params on Continue). */
export type Settled = { decision: Decision | 'closed'; at: number; outcome: Outcome }

const settledKey = (id: string) => `settled:${id}`
/** How long a settled record is kept for relays that reconnect late. */
export const SETTLED_TTL_MS = 10 * 60_000

/** A store over one storage area (chrome.storage.session in the worker). */
export function createPendingStore(area: Storage.StorageArea) {
  const inOrder = seriallyPerKey()
  const read = async (id: string) => (await area.get(pendingKey(id)))[pendingKey(id)] as PendingRequest | undefined

  return {
    get: read,
    /** The stored request once every change queued for it before this call has been applied. */
    current: (id: string) => inOrder(id, () => read(id)),
    put: (record: PendingRequest) => inOrder(record.id, () => area.set({ [pendingKey(record.id)]: record })),
    /** Applies `change` to the stored request; does nothing once it has settled. */
    update: (id: string, change: (record: PendingRequest) => PendingRequest) =>
      inOrder(id, async () => {
        const record = await read(id)
        if (record) await area.set({ [pendingKey(id)]: change(record) })
      }),
    /**
     * Settles a request: returns it the first time only, after recording how it ended and removing it. With storage
     * full (a page can fill it with requests up to the quota), the request's own room is freed first: a decision must
     * go through whatever else is stored, and a worker stopped between the two steps loses only the note a late relay
     * would read.
     */
    take: (id: string, decision: Decision | 'closed', outcome: (record: PendingRequest) => Outcome) =>
      inOrder(id, async () => {
        const record = await read(id)
        if (!record) return undefined
        const settled: Settled = { decision, at: Date.now(), outcome: outcome(record) }
        try {
          await area.set({ [settledKey(id)]: settled })
        } catch {
          await area.remove(pendingKey(id))
          await area.set({ [settledKey(id)]: settled }).catch(() => undefined)
          return record
        }
        await area.remove(pendingKey(id))
        return record
      }),
    settled: async (id: string) => (await area.get(settledKey(id)))[settledKey(id)] as Settled | undefined,
    all: async () => {
      const everything = await area.get(null)
      return Object.entries(everything)
        .filter(([key]) => key.startsWith('pending:'))
        .map(([, value]) => value as PendingRequest)
    },
    /** Forgets settled records older than SETTLED_TTL_MS. */
    prune: async (now: number) => {
      const everything = await area.get(null)
      const old = Object.entries(everything)
        .filter(([key, value]) => key.startsWith('settled:') && now - (value as Settled).at > SETTLED_TTL_MS)
        .map(([key]) => key)
      if (old.length > 0) await area.remove(old)
    },
  }
}

export type PendingStore = ReturnType<typeof createPendingStore>
