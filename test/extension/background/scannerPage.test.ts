/**
 * The worker's side of the scanner page: it opens the page only when none is open, sends it each scan, opens it again
 * when it went away, and turns whatever goes wrong into an ERROR state. Chrome's offscreen and messaging calls are the
 * boundary here, stood in for by a page that can be closed, refuse, or answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createScanner, REWARM_AFTER_MS, type ScannerBrowser } from '../../../src/extension/background/scannerPage.ts'
import type { DecodeOrder, ScanOrder, WarmOrder } from '../../../src/extension/scanner/protocol.ts'
import { DEFAULT_SETTINGS } from '../../../src/extension/shared/settings.ts'
import { ParamError } from '../../../src/extension/shared/txParams.ts'

type Order = ScanOrder | WarmOrder | DecodeOrder

const ORDER: Omit<ScanOrder, 'type'> = {
  call: { method: 'personal_sign', params: ['0x68', '0x01'], account: '0x01', origin: 'https://a.example', chainId: 1 },
  settings: DEFAULT_SETTINGS,
}
const ANSWER = { status: 'ERROR', error: { kind: 'UNSUPPORTED_CHAIN', message: 'answered by the page' } }

/**
 * A stand-in browser whose one offscreen page answers with `answer` once open; it takes `openMs` to load, and counts
 * as open (to getContexts) but answers nothing while it loads, as Chrome's does.
 */
function fakeBrowser(answer: (message: Order) => unknown = () => ANSWER, openMs = 0) {
  const state = { open: false, loading: false, opened: 0, failSends: 0, sent: [] as Order[] }
  const browser: ScannerBrowser = {
    isOpen: async () => state.open || state.loading,
    open: async (page) => {
      expect(page.url).toBe('src/extension/scanner/scanner.html')
      if (state.open || state.loading) throw new Error('Only a single offscreen document may be created.')
      state.loading = true
      await new Promise((resolve) => setTimeout(resolve, openMs))
      state.loading = false
      state.open = true
      state.opened++
    },
    send: async (message) => {
      state.sent.push(message)
      // Each answer, or its failure, arrives as a task of its own, as Chrome's messages do.
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (!state.open || state.failSends-- > 0) {
        throw new Error('Could not establish connection. Receiving end does not exist.')
      }
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
    // Another start of the worker opened it between this one's check and its open: the open fails, and that is fine,
    // so the scan keeps its one retry for a page that then does not answer once.
    const racing = fakeBrowser()
    racing.state.open = true
    racing.state.failSends = 1
    const checks = [false, true]
    const scanner = createScanner({ ...racing.browser, isOpen: async () => checks.shift() ?? true })
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
    expect(racing.state.sent).toHaveLength(2)
  })

  it('opens the page again when it went away since the last scan', async () => {
    const { browser, state } = fakeBrowser()
    const scanner = createScanner(browser)
    await scanner.scan(ORDER)
    state.open = false
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
    expect(state.opened).toBe(2)
  })

  it('waits for a page that closes itself as idle to be gone, and scans in a new one', async () => {
    const { browser, state } = fakeBrowser()
    let closing = false
    const scanner = createScanner({
      ...browser,
      // A closing document may still be listed for a moment; creating a second one meanwhile would fail.
      isOpen: async () => state.open || state.loading || closing,
      open: async (page) => {
        if (closing) throw new Error('Only a single offscreen document may be created.')
        return browser.open(page)
      },
    })
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
    state.open = false
    closing = true
    setTimeout(() => {
      closing = false
    }, 100)
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

  it("has the page decode a signed transaction, and refuses it with the page's error or when no page answers", async () => {
    const signed = { raw: '0x02f8', tx: { from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }, chainId: 31337 }
    const refusal = { code: -32602, message: 'Preflight could not decode this signed transaction: bad' }
    const { browser, state } = fakeBrowser((message) =>
      message.type !== 'preflight/decode-signed'
        ? ANSWER
        : message.raw === '0x02f8'
          ? { ok: true, signed }
          : { ok: false, error: refusal },
    )
    const scanner = createScanner(browser)
    expect(await scanner.decodeSigned('0x02f8')).toEqual(signed)
    expect(state.sent).toEqual([{ type: 'preflight/decode-signed', raw: '0x02f8' }])
    const refused = scanner.decodeSigned('0x02')
    await expect(refused).rejects.toBeInstanceOf(ParamError)
    await expect(refused).rejects.toMatchObject(refusal)
    // A page whose engine thread failed answers an ERROR scan, which is no decoded transaction: asked twice, refused.
    const failing = fakeBrowser(() => ANSWER)
    await expect(createScanner(failing.browser).decodeSigned('0x02f8')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/not forwarded: the scanner page gave no result$/),
    })
    expect(failing.state.sent).toHaveLength(2)
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
  })

  it('warms a page opened again after the last one went away, and tries again after a warm-up that failed', async () => {
    const { browser, state } = fakeBrowser((message) => (message.type === 'preflight/warm' ? true : ANSWER))
    const scanner = createScanner(browser)
    scanner.warm(true)
    await expect.poll(() => state.sent).toHaveLength(1)
    state.open = false
    expect(await scanner.scan(ORDER)).toEqual(ANSWER)
    expect(state.opened).toBe(2)
    scanner.warm(true)
    await expect.poll(() => state.sent.filter((message) => message.type === 'preflight/warm')).toHaveLength(2)
    // Lists that could not be read: the next prelude asks again.
    const unready = fakeBrowser((message) => (message.type === 'preflight/warm' ? false : ANSWER))
    const retrying = createScanner(unready.browser)
    retrying.warm(true)
    await expect.poll(() => unready.state.sent).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 10))
    retrying.warm(true)
    await expect.poll(() => unready.state.sent).toHaveLength(2)
  })

  it('opens the page once for all the scans that found it gone, and every one of them is answered', async () => {
    const { browser, state } = fakeBrowser(undefined, 20)
    const scanner = createScanner(browser)
    await scanner.scan(ORDER)
    state.open = false
    const results = await Promise.all(Array.from({ length: 4 }, () => scanner.scan(ORDER)))
    expect(results).toEqual(Array(4).fill(ANSWER))
    expect(state.opened).toBe(2)
  })

  it('gives up on a page that never answers, as an ERROR, and asks a page opened again', async () => {
    const { browser, state } = fakeBrowser()
    const hanging = createScanner(
      {
        ...browser,
        send: (message) => {
          state.sent.push(message)
          return new Promise(() => undefined)
        },
      },
      30,
    )
    expect(await hanging.scan(ORDER)).toEqual({
      status: 'ERROR',
      error: { kind: 'BACKEND_ERROR', message: 'The scan failed: the scanner page gave no answer in 0.03 s' },
    })
    expect(state.sent).toHaveLength(2)
  })

  describe('a page that closes itself as idle', () => {
    afterEach(() => {
      vi.useRealTimers()
    })
    // Only Date is faked, and expect.poll would move it: these tests wait for the stand-in's answers in real time.
    const settled = () => new Promise((resolve) => setTimeout(resolve, 20))
    /** A scanner whose page was opened and warmed once, with Date faked from then on. */
    const warmedOnce = async () => {
      vi.useFakeTimers({ toFake: ['Date'] })
      const { browser, state } = fakeBrowser((message) => (message.type === 'preflight/warm' ? true : ANSWER))
      const scanner = createScanner(browser)
      scanner.warm(true)
      await settled()
      expect(state.sent).toHaveLength(1)
      return { scanner, state }
    }

    it('is told it is wanted at most once a minute while requests keep coming', async () => {
      const { scanner, state } = await warmedOnce()
      vi.advanceTimersByTime(REWARM_AFTER_MS - 1)
      scanner.warm(true)
      scanner.warm(false)
      await settled()
      expect(state.sent).toHaveLength(1)
      vi.advanceTimersByTime(1)
      scanner.warm(false)
      await settled()
      expect(state.sent).toEqual([
        { type: 'preflight/warm', local: true },
        { type: 'preflight/warm', local: false },
      ])
      expect(state.opened).toBe(1)
    })

    it('is opened again by the next warm-up after it closed, before any request', async () => {
      const { scanner, state } = await warmedOnce()
      // The page closed itself; the worker still remembers it open.
      state.open = false
      vi.advanceTimersByTime(REWARM_AFTER_MS)
      scanner.warm(true)
      // Waited for, not slept on: the reopening is a chain of awaits that a loaded machine can take past 20 ms.
      await expect.poll(() => state.opened).toBe(2)
      await expect.poll(() => state.sent.length).toBe(3)
      expect(state.sent.every((message) => message.type === 'preflight/warm')).toBe(true)
      // Open and warmed: the request that follows is sent to it at once.
      expect(await scanner.scan(ORDER)).toEqual(ANSWER)
      expect(state.sent.at(-1)?.type).toBe('preflight/scan')
      expect(state.opened).toBe(2)
    })
  })
})
