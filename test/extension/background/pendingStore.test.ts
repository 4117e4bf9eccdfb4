import { describe, expect, it } from 'vitest'
import { createPendingStore, SETTLED_TTL_MS } from '../../../src/extension/background/pendingStore.ts'
import { outcomeOf } from '../../../src/extension/relay/protocol.ts'
import type { PendingRequest } from '../../../src/extension/shared/pending.ts'
import { memoryArea } from './support/memoryArea.ts'
import { pendingRecord as record } from './support/pendingRecord.ts'

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
