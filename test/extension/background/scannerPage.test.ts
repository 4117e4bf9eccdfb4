/**
 * The worker's side of the scanner page: it opens the page only when none is open, sends it each scan, opens it again
 * when it went away, and turns whatever goes wrong into an ERROR state. Chrome's offscreen and messaging calls are the
 * boundary here, stood in for by a page that can be closed, refuse, or answer.
 */
import { describe, expect, it } from 'vitest'
import { createScanner, type ScannerBrowser } from '../../../src/extension/background/scannerPage.ts'
import type { ScanOrder, WarmOrder } from '../../../src/extension/scanner/protocol.ts'
import { DEFAULT_SETTINGS } from '../../../src/extension/shared/settings.ts'

const ORDER: Omit<ScanOrder, 'type'> = {
  call: { method: 'personal_sign', params: ['0x68', '0x01'], account: '0x01', origin: 'https://a.example', chainId: 1 },
  settings: DEFAULT_SETTINGS,
}
const ANSWER = { status: 'ERROR', error: { kind: 'UNSUPPORTED_CHAIN', message: 'answered by the page' } }

/** A stand-in browser whose one offscreen page answers with `answer` while it is open. */
function fakeBrowser(answer: (message: ScanOrder | WarmOrder) => unknown = () => ANSWER) {
  const state = { open: false, opened: 0, sent: [] as (ScanOrder | WarmOrder)[] }
  const browser: ScannerBrowser = {
    isOpen: async () => state.open,
    open: async (page) => {
      expect(page.url).toBe('src/extension/scanner/scanner.html')
      if (state.open) throw new Error('Only a single offscreen document may be created.')
      state.opened++
      state.open = true
    },
    send: async (message) => {
      state.sent.push(message)
      if (!state.open) throw new Error('Could not establish connection. Receiving end does not exist.')
      return answer(message)
    },
  }
  return { browser, state }
}

describe('the scanner page, from the worker', () => {
  it('opens the page once and sends it every scan', async () => {
    const { browser, state } = fakeBrowser()
    const scanner = createScanner(browser)
    const results = await Promise.all([scanner.scan(ORDER), scanner.scan(ORDER), scanner.scan(ORDER)])
    expect(results).toEqual([ANSWER, ANSWER, ANSWER])
    expect(state.opened).toBe(1)
    expect(state.sent).toEqual(Array(3).fill({ type: 'preflight/scan', ...ORDER }))
  })

  it('uses the page a stopped worker left open, and takes a lost race to open it as open', async () => {
    const { browser, state } = fakeBrowser()
    state.open = true
    expect(await createScanner(browser).scan(ORDER)).toEqual(ANSWER)
    expect(state.opened).toBe(0)
    // Another start of the worker opened it between this one's check and its open.
    const racing = fakeBrowser()
    const checks = [false, true]
    const scanner = createScanner({ ...racing.browser, isOpen: async () => checks.shift() ?? true })
    racing.state.open = true
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
  })

  it('opens the page again when it went away since the last scan', async () => {
    const { browser, state } = fakeBrowser()
    const scanner = createScanner(browser)
    await scanner.scan(ORDER)
    state.open = false
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
    expect(state.opened).toBe(2)
  })

  it('turns a page that cannot open, or answers no scan, into an ERROR the window shows', async () => {
    const { browser } = fakeBrowser()
    const closed = createScanner({
      ...browser,
      open: async () => {
        throw new Error('Only one offscreen document at a time')
      },
    })
    expect(await closed.scan(ORDER)).toEqual({
      status: 'ERROR',
      error: { kind: 'BACKEND_ERROR', message: 'The scan failed: Only one offscreen document at a time' },
    })
    const silent = fakeBrowser(() => undefined)
    const sent = silent.state.sent
    expect(await createScanner(silent.browser).scan(ORDER)).toEqual({
      status: 'ERROR',
      error: { kind: 'BACKEND_ERROR', message: 'The scan failed: the scanner page gave no result' },
    })
    expect(sent).toHaveLength(2)
    const pending = fakeBrowser(() => ({ status: 'PENDING' }))
    expect(await createScanner(pending.browser).scan(ORDER)).toMatchObject({ status: 'ERROR' })
  })

  it('warms the page ahead of a request: opened, and told once to load the lists', async () => {
    const { browser, state } = fakeBrowser((message) => (message.type === 'preflight/warm' ? true : ANSWER))
    const scanner = createScanner(browser)
    scanner.warm(false)
    scanner.warm(false)
    scanner.warm(true)
    await expect
      .poll(() => state.sent)
      .toEqual([
        { type: 'preflight/warm', local: false },
        { type: 'preflight/warm', local: true },
      ])
    for (let request = 0; request < 10; request++) scanner.warm(true)
    await scanner.scan(ORDER)
    expect(state.sent.map((message) => message.type)).toEqual(['preflight/warm', 'preflight/warm', 'preflight/scan'])
    expect(state.opened).toBe(1)
    // A page that cannot open leaves warming silent; the scan that follows reports it.
    const broken = createScanner({ ...browser, isOpen: async () => Promise.reject(new Error('no contexts')) })
    expect(() => broken.warm(true)).not.toThrow()
  })
})
