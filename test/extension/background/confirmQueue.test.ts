import { describe, expect, it } from 'vitest'
import type { Browser } from 'webextension-polyfill'
import { createConfirmQueue } from '../../../src/extension/background/confirmQueue.ts'
import { createPendingStore } from '../../../src/extension/background/pendingStore.ts'
import { memoryArea } from './support/memoryArea.ts'
import { pendingRecord as record } from './support/pendingRecord.ts'

/** The browser's windows API is the boundary: a window opens when the test says so. */
function browserWithSlowWindows() {
  const opened: string[] = []
  let nextWindowId = 7
  let open = () => {}
  const created = new Promise<void>((resolve) => {
    open = resolve
  })
  const browser = {
    runtime: { getURL: (path: string) => `chrome-extension://preflight/${path}` },
    windows: {
      create: async ({ url }: { url: string }) => {
        opened.push(url)
        await created
        return { id: nextWindowId++ }
      },
      get: async () => ({ id: 7 }),
      remove: async () => undefined,
    },
  }
  return { browser: browser as unknown as Browser, opened, open }
}

describe('confirmation queue', () => {
  it('resolves add() once the request is stored, while its window is still opening', async () => {
    const { browser, opened, open } = browserWithSlowWindows()
    const store = createPendingStore(memoryArea())
    const queue = createConfirmQueue(browser, store, async () => undefined)
    await queue.add(record('a'))
    // Stored and queued: its scan may start now; the window was asked for but has not opened yet.
    expect(await store.get('a')).toMatchObject({ id: 'a', scan: { status: 'PENDING' } })
    expect(queue.has('a')).toBe(true)
    expect(opened).toEqual([expect.stringContaining('confirm.html?id=a')])
    expect((await store.get('a'))?.windowId).toBeUndefined()
    open()
    await expect.poll(async () => (await store.get('a'))?.windowId).toBe(7)
    // The next request joins the open window.
    await queue.add(record('b'))
    expect((await store.get('b'))?.windowId).toBe(7)
    expect(opened).toHaveLength(1)
  })

  it('opens a new window for a request that arrives while the last one decided closes its window', async () => {
    const { browser, opened, open } = browserWithSlowWindows()
    open()
    const store = createPendingStore(memoryArea())
    const rejected: string[] = []
    const queue = createConfirmQueue(browser, store, async (id) => {
      rejected.push(id)
    })
    await queue.add(record('a'))
    await expect.poll(async () => (await store.get('a'))?.windowId).toBe(7)
    // Decided in its window (settled as requests.ts settles it), with nothing else waiting there.
    await store.take('a', 'continue', () => ({ kind: 'forward', params: [] }))
    expect(queue.settled('a')).toBeNull()
    await queue.windowClosing()
    await queue.add(record('b'))
    expect(opened).toEqual([expect.stringContaining('?id=a'), expect.stringContaining('?id=b')])
    await expect.poll(async () => (await store.get('b'))?.windowId).toBe(8)
    // Chrome then reports the first window gone: nothing that waits elsewhere is rejected.
    await queue.windowRemoved(7)
    expect(rejected).toEqual([])
    expect(queue.has('b')).toBe(true)
  })

  it('rejects add() when the request cannot be stored, and opens no window for it', async () => {
    const { browser, opened } = browserWithSlowWindows()
    const area = memoryArea()
    area.set = async () => {
      throw new Error('QUOTA_BYTES quota exceeded')
    }
    const queue = createConfirmQueue(browser, createPendingStore(area), async () => undefined)
    await expect(queue.add(record('a'))).rejects.toThrow('QUOTA_BYTES quota exceeded')
    expect(opened).toEqual([])
  })
})
