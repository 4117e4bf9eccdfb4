import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createKeepAlive, KEEP_ALIVE_EVERY_MS, KEEP_ALIVE_FOR_MS } from '../../../src/extension/relay/keepAlive.ts'

/** A page whose visibility the test sets, telling its listeners as a document does. */
function fakePage() {
  type Listener = (event: { isTrusted: boolean }) => void
  const listeners: Listener[] = []
  const page = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_type: 'visibilitychange', listener: Listener) => void listeners.push(listener),
    show(state: DocumentVisibilityState) {
      page.visibilityState = state
      for (const listener of listeners) listener({ isTrusted: true })
    },
    /** What the page itself can do: dispatch the event, with the browser marking it untrusted. */
    fake() {
      for (const listener of listeners) listener({ isTrusted: false })
    },
  }
  return page
}

describe('createKeepAlive', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('pings nothing until the page uses the wallet, then once a period while the page is shown', () => {
    const ping = vi.fn(() => true)
    const page = fakePage()
    const keepAlive = createKeepAlive(ping, page)
    vi.advanceTimersByTime(5 * KEEP_ALIVE_EVERY_MS)
    page.show('visible')
    expect(ping).not.toHaveBeenCalled()
    expect(keepAlive.hasUsed()).toBe(false)
    keepAlive.used()
    expect(keepAlive.hasUsed()).toBe(true)
    vi.advanceTimersByTime(3 * KEEP_ALIVE_EVERY_MS)
    expect(ping).toHaveBeenCalledTimes(3)
  })

  it('lets the worker go while the page is hidden, and wakes it as soon as the page is shown again', () => {
    const ping = vi.fn(() => true)
    const page = fakePage()
    createKeepAlive(ping, page).used()
    page.show('hidden')
    vi.advanceTimersByTime(4 * KEEP_ALIVE_EVERY_MS)
    expect(ping).not.toHaveBeenCalled()
    page.show('visible')
    expect(ping).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(KEEP_ALIVE_EVERY_MS)
    expect(ping).toHaveBeenCalledTimes(2)
  })

  it('does not ping for visibility events the page dispatches itself', () => {
    const ping = vi.fn(() => true)
    const page = fakePage()
    createKeepAlive(ping, page).used()
    for (let index = 0; index < 1000; index++) page.fake()
    expect(ping).not.toHaveBeenCalled()
  })

  it('stops once the page has not used the wallet for the keep-alive window, and starts again on the next use', () => {
    const ping = vi.fn(() => true)
    const page = fakePage()
    const keepAlive = createKeepAlive(ping, page)
    keepAlive.used()
    vi.advanceTimersByTime(KEEP_ALIVE_FOR_MS + 2 * KEEP_ALIVE_EVERY_MS)
    const pinged = ping.mock.calls.length
    expect(pinged).toBe(Math.floor(KEEP_ALIVE_FOR_MS / KEEP_ALIVE_EVERY_MS))
    page.show('visible')
    vi.advanceTimersByTime(10 * KEEP_ALIVE_EVERY_MS)
    expect(ping).toHaveBeenCalledTimes(pinged)
    keepAlive.used()
    vi.advanceTimersByTime(KEEP_ALIVE_EVERY_MS)
    expect(ping).toHaveBeenCalledTimes(pinged + 1)
  })

  it('stops when the extension cannot be reached (it was reloaded or removed)', () => {
    const ping = vi.fn(() => false)
    createKeepAlive(ping, fakePage()).used()
    vi.advanceTimersByTime(5 * KEEP_ALIVE_EVERY_MS)
    expect(ping).toHaveBeenCalledTimes(1)
  })
})
