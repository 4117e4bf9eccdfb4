import { describe, expect, it } from 'vitest'
import type { Storage } from 'webextension-polyfill'
import { createPendingStore, SETTLED_TTL_MS } from '../../../src/extension/background/pendingStore.ts'
import { outcomeOf } from '../../../src/extension/relay/protocol.ts'
import type { PendingRequest } from '../../../src/extension/shared/pending.ts'

/** chrome.storage.session is the boundary: an in-memory area with the same get/set/remove contract. */
function memoryArea(): Storage.StorageArea {
  const items = new Map<string, unknown>()
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1))
  return {
    async get(keys: string | string[] | null) {
      await tick()
      const wanted = keys === null ? [...items.keys()] : Array.isArray(keys) ? keys : [keys]
      return Object.fromEntries(
        wanted.filter((key) => items.has(key)).map((key) => [key, structuredClone(items.get(key))]),
      )
    },
    async set(values: Record<string, unknown>) {
      await tick()
      for (const [key, value] of Object.entries(values)) items.set(key, structuredClone(value))
    },
    async remove(keys: string | string[]) {
      await tick()
      for (const key of Array.isArray(keys) ? keys : [keys]) items.delete(key)
    },
  } as Storage.StorageArea
}

const record = (id: string): PendingRequest => ({
  id,
  origin: 'https://a.example',
  tabId: 1,
  frameId: 0,
  chainId: 1,
  account: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  method: 'personal_sign',
  params: ['0x6869', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
  createdAt: 0,
  scan: { status: 'PENDING' },
})

describe('pending store', () => {
  it('settles a request once even when a decision and a window close race, and remembers the first', async () => {
    const store = createPendingStore(memoryArea())
    await store.put(record('a'))
    const outcome = (decision: 'continue' | 'closed') => (current: PendingRequest) =>
      outcomeOf(decision, current.params)
    const [first, second] = await Promise.all([
      store.take('a', 'continue', outcome('continue')),
      store.take('a', 'closed', outcome('closed')),
    ])
    expect(first?.id).toBe('a')
    expect(second).toBeUndefined()
    expect(await store.get('a')).toBeUndefined()
    // A relay that reconnects later learns the first decision, with the params to forward.
    expect(await store.settled('a')).toMatchObject({
      decision: 'continue',
      outcome: { kind: 'forward', params: record('a').params },
    })
  })

  it('does not bring a settled request back when a late scan result arrives', async () => {
    const store = createPendingStore(memoryArea())
    await store.put(record('b'))
    const late = store.update('b', (current) => ({ ...current, windowId: 7 }))
    await store.take('b', 'reject', (current) => outcomeOf('reject', current.params))
    await late
    await store.update('b', (current) => ({
      ...current,
      scan: { status: 'ERROR', error: { kind: 'TIMEOUT', message: 'x' } },
    }))
    expect(await store.all()).toEqual([])
  })

  it('forgets settled records after their time to live', async () => {
    const store = createPendingStore(memoryArea())
    await store.put(record('c'))
    await store.take('c', 'reject', (current) => outcomeOf('reject', current.params))
    await store.prune(Date.now() + SETTLED_TTL_MS + 1)
    expect(await store.settled('c')).toBeUndefined()
  })
})
