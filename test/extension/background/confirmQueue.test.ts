import { describe, expect, it } from 'vitest'
import type { Browser } from 'webextension-polyfill'
import { createConfirmQueue } from '../../../src/extension/background/confirmQueue.ts'
import { createPendingStore } from '../../../src/extension/background/pendingStore.ts'
import { memoryArea } from './support/memoryArea.ts'
import { pendingRecord as record } from './support/pendingRecord.ts'

/** The browser's windows API is the boundary: a window opens when the test says so (or fails to, with `fail`). */
function browserWithSlowWindows() {
  const opened: string[] = []
  const removed: number[] = []
  let nextWindowId = 7
  let open = () => {}
  let fail = (_error: Error) => {}
  const created = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  created.catch(() => undefined)
  const browser = {
    runtime: { getURL: (path: string) => `chrome-extension://preflight/${path}` },
    windows: {
      create: async ({ url }: { url: string }) => {
        opened.push(url)
        await created
        return { id: nextWindowId++ }
      },
      get: async () => ({ id: 7 }),
      remove: async (windowId: number) => {
        removed.push(windowId)
      },
    },
  }
  return { browser: browser as unknown as Browser, opened, removed, open, fail }
}

/** Chrome makes the window: request `a` records it, and the next request joins it instead of opening another. */
async function windowMadeAndJoined(
  open: () => void,
  store: ReturnType<typeof createPendingStore>,
  queue: ReturnType<typeof createConfirmQueue>,
  opened: string[],
) {
  open()
  await expect.poll(async () => (await store.get('a'))?.windowId).toBe(7)
  await queue.add(record('b'))
  expect((await store.get('b'))?.windowId).toBe(7)
  expect(opened).toHaveLength(1)
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
    await windowMadeAndJoined(open, store, queue, opened)
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
    queue.windowClosing()
    await queue.add(record('b'))
    expect(opened).toEqual([expect.stringContaining('?id=a'), expect.stringContaining('?id=b')])
    await expect.poll(async () => (await store.get('b'))?.windowId).toBe(8)
    // Chrome then reports the first window gone: nothing that waits elsewhere is rejected.
    await queue.windowRemoved(7)
    expect(rejected).toEqual([])
    expect(queue.has('b')).toBe(true)
  })

  it('gives a request still being stored when the last one is decided a window of its own, not the closing one', async () => {
    const { browser, opened, open } = browserWithSlowWindows()
    open()
    const area = memoryArea()
    const store = createPendingStore(area)
    const rejected: string[] = []
    const queue = createConfirmQueue(browser, store, async (id) => {
      rejected.push(id)
    })
    await queue.add(record('a'))
    await expect.poll(async () => (await store.get('a'))?.windowId).toBe(7)
    // b's write is slow: the user decides a, the only request stored, while b is on its way into the window.
    const set = area.set.bind(area)
    let writing: (() => void) | undefined
    area.set = async (values) => {
      if ('pending:b' in values && !writing) await new Promise<void>((resolve) => (writing = resolve))
      return set(values)
    }
    const adding = queue.add(record('b'))
    await expect.poll(() => writing).not.toBe(undefined)
    await store.take('a', 'continue', () => ({ kind: 'forward', params: [] }))
    expect(queue.settled('a')).toBeNull()
    queue.windowClosing()
    writing?.()
    await adding
    expect(opened).toEqual([expect.stringContaining('?id=a'), expect.stringContaining('?id=b')])
    await expect.poll(async () => (await store.get('b'))?.windowId).toBe(8)
    // The decided window closes itself: b, which waits in its own, is not rejected with it.
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

  describe('a request announced before it arrives', () => {
    it('opens its window at once, and the request is stored before Chrome has made the window', async () => {
      const { browser, opened, open } = browserWithSlowWindows()
      const store = createPendingStore(memoryArea())
      const queue = createConfirmQueue(browser, store, async () => undefined)
      await queue.announce('a', () => true)
      expect(opened).toEqual([expect.stringMatching(/confirm\.html\?id=a&announced=1$/)])
      // The window is still being made: the request is kept anyway, so its scan can start.
      await queue.add(record('a'))
      expect(queue.has('a')).toBe(true)
      expect((await store.get('a'))?.windowId).toBeUndefined()
      await windowMadeAndJoined(open, store, queue, opened)
    })

    it('opens nothing when a window is open or opening, or when the request is no longer wanted', async () => {
      const { browser, opened, open } = browserWithSlowWindows()
      const store = createPendingStore(memoryArea())
      const queue = createConfirmQueue(browser, store, async () => undefined)
      await queue.announce('a', () => false)
      expect(opened).toEqual([])
      await queue.announce('b', () => true)
      await queue.announce('c', () => true)
      expect(opened).toHaveLength(1)
      open()
      await queue.add(record('b'))
      await queue.announce('d', () => true)
      expect(opened).toHaveLength(1)
      await expect.poll(async () => (await store.get('b'))?.windowId).toBe(7)
    })

    it('closes the window when its request never came, and the next request opens its own', async () => {
      const { browser, opened, removed, open } = browserWithSlowWindows()
      open()
      const store = createPendingStore(memoryArea())
      const queue = createConfirmQueue(browser, store, async () => undefined)
      await queue.announce('a', () => true)
      await queue.closeIfEmpty()
      expect(removed).toEqual([7])
      await queue.add(record('b'))
      expect(opened).toEqual([expect.stringContaining('?id=a&announced=1'), expect.stringContaining('?id=b')])
      await expect.poll(async () => (await store.get('b'))?.windowId).toBe(8)
    })

    it('keeps the window while a request waits in it', async () => {
      const { browser, removed, open } = browserWithSlowWindows()
      open()
      const store = createPendingStore(memoryArea())
      const queue = createConfirmQueue(browser, store, async () => undefined)
      await queue.announce('a', () => true)
      await queue.add(record('b'))
      await queue.closeIfEmpty()
      expect(removed).toEqual([])
      expect(queue.has('b')).toBe(true)
    })

    it("opens a window of the request's own when the announced one could not be made", async () => {
      const { browser, opened, fail } = browserWithSlowWindows()
      const store = createPendingStore(memoryArea())
      const rejected: string[] = []
      const queue = createConfirmQueue(browser, store, async (id) => {
        rejected.push(id)
      })
      await queue.announce('a', () => true)
      fail(new Error('no windows here'))
      await queue.add(record('a'))
      // The second try fails the same way (the stand-in refuses every window): the request is rejected, not lost.
      await expect.poll(() => rejected).toEqual(['a'])
      expect(opened).toEqual([expect.stringContaining('announced=1'), expect.not.stringContaining('announced')])
    })

    it('rejects the announced request when the user closed its window before it arrived, opening no other', async () => {
      const { browser, opened, open } = browserWithSlowWindows()
      const store = createPendingStore(memoryArea())
      const rejected: string[] = []
      const queue = createConfirmQueue(browser, store, async (id) => {
        rejected.push(id)
      })
      await queue.announce('a', () => true)
      open()
      await queue.windowRemoved(7)
      await queue.add(record('a'))
      await expect.poll(() => rejected).toEqual(['a'])
      expect(queue.has('a')).toBe(false)
      expect(opened).toEqual([expect.stringContaining('?id=a&announced=1')])
      // The next request opens a window as usual.
      await queue.add(record('b'))
      expect(opened).toHaveLength(2)
    })

    it('rejects what waited in the window when the user closes it', async () => {
      const { browser, open } = browserWithSlowWindows()
      const store = createPendingStore(memoryArea())
      const rejected: string[] = []
      const queue = createConfirmQueue(browser, store, async (id) => {
        rejected.push(id)
      })
      await queue.announce('a', () => true)
      await queue.add(record('a'))
      open()
      await queue.windowRemoved(7)
      expect(rejected).toEqual(['a'])
      expect(queue.has('a')).toBe(false)
    })
  })
})
