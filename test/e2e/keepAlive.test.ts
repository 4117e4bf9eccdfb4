/**
 * The worker stays running while a person uses a dapp's page, so the request they make after reading it does not meet
 * a stopped worker (Chrome stops an idle one after 30 s); once it is stopped, the scanner page that holds the engine is
 * still open. Real Chromium with the built extension, driven over a bare protocol pipe: Playwright attaches to the
 * worker, and an attached worker is never stopped for being idle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { KEEP_ALIVE_EVERY_MS } from '../../src/extension/relay/keepAlive.ts'
import { type CdpSession, launchPipeChromium, type PipeChromium } from '../support/cdpPipe.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { type Dapp, devWalletPage, startDapp } from './support/dapp.ts'
import { DIST, watchServiceWorkersOn } from './support/extension.ts'

/** Longer than Chrome's 30 s idle timeout and than one keep-alive period past it. */
const IDLE_PAUSE_MS = 45_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function evaluate(session: CdpSession, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  })
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description}`)
  return result.value
}

/** Polls `check` every 100 ms until it holds or `timeoutMs` passed; returns whether it held. */
async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) return false
    await sleep(100)
  }
  return true
}

describe('the worker while a dapp is in use', () => {
  let devnet: Devnet
  let dapp: Dapp
  let chromium: PipeChromium

  beforeAll(async () => {
    devnet = await startTestDevnet()
    dapp = await startDapp()
    dapp.page('/', devWalletPage(devnet.fixtures.rpcUrl, devnet.fixtures.accounts[0]?.address ?? ''))
    dapp.page('/plain', '<!doctype html><title>plain</title><p>No wallet here.</p>')
    chromium = await launchPipeChromium({ extensionDir: DIST })
  })
  afterAll(async () => {
    await chromium?.close()
    await dapp?.close()
    await devnet?.stop()
  })

  it('keeps running through an idle pause while the page that used the wallet is shown, and stops once it is hidden, leaving the scanner page open', async () => {
    const worker = await chromium.waitForTarget(
      (target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'),
    )
    const control = await chromium.open(`chrome-extension://${new URL(worker.url).host}/src/extension/ui/options.html`)
    const workers = await watchServiceWorkersOn(control)
    const page = await chromium.open(`${dapp.url}/`)
    expect(await eventually(() => workers.running(), 10_000)).toBe(true)
    await evaluate(
      page,
      `new Promise((resolve) => { const wait = () => window.ethereum ? resolve() : setTimeout(wait, 20); wait() })`,
    )
    expect(
      await evaluate(page, `ethereum.request({ method: 'eth_requestAccounts' }).then((accounts) => accounts.length)`),
    ).toBe(1)
    // Connecting woke the scanner page, where the engine runs; it outlives the worker (checked below).
    const scannerPages = async () =>
      (await evaluate(
        control,
        `chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }).then((pages) => pages.map((page) => page.documentId))`,
      )) as string[]
    let scanner: string[] = []
    for (const deadline = Date.now() + 10_000; scanner.length === 0 && Date.now() < deadline; await sleep(100)) {
      scanner = await scannerPages()
    }
    expect(scanner).toHaveLength(1)
    const starts = workers.starts()

    await sleep(IDLE_PAUSE_MS)
    expect(workers.running()).toBe(true)
    expect(workers.starts()).toBe(starts)

    // Another tab in front hides the dapp: nothing keeps the worker then, and Chrome stops it as idle.
    await chromium.open('about:blank')
    expect(await evaluate(page, 'document.visibilityState')).toBe('hidden')
    expect(await eventually(() => !workers.running(), IDLE_PAUSE_MS)).toBe(true)
    // Chrome stopped the idle worker, not the scanner page: the engine stays loaded for the next request.
    expect(await scannerPages()).toEqual(scanner)

    // Shown again, the page wakes it before the person does anything.
    await chromium.activate(page.targetId)
    expect(await evaluate(page, 'document.visibilityState')).toBe('visible')
    expect(await eventually(() => workers.starts() > starts && workers.running(), 10_000)).toBe(true)
  }, 180_000)

  it("a person's press on a page that used the wallet wakes a stopped worker; events the page dispatches itself, and presses on a page that never used the wallet, do not", async () => {
    const worker = await chromium.waitForTarget(
      (target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'),
    )
    const control = await chromium.open(`chrome-extension://${new URL(worker.url).host}/src/extension/ui/options.html`)
    const workers = await watchServiceWorkersOn(control)
    const press = async (session: CdpSession) => {
      const at = { x: 5, y: 5, button: 'left', clickCount: 1 }
      await session.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at })
      await session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at })
    }
    /**
     * Stops the worker until it stays stopped for a second: a page that just connected, or a wake that the stop cut
     * short, can start it again at once.
     */
    const stopWorker = async () => {
      for (;;) {
        await workers.stopAll()
        const starts = workers.starts()
        await sleep(1_000)
        if (workers.starts() === starts && !workers.running()) return starts
      }
    }

    const plain = await chromium.open(`${dapp.url}/plain`)
    await evaluate(plain, `addEventListener('pointerdown', (event) => { window.pressed = event.isTrusted }); true`)
    let starts = await stopWorker()
    await press(plain)
    await sleep(1_000)
    expect(await evaluate(plain, 'window.pressed')).toBe(true)
    expect(workers.starts()).toBe(starts)
    expect(workers.running()).toBe(false)

    const page = await chromium.open(`${dapp.url}/`)
    await evaluate(
      page,
      `new Promise((resolve) => { const wait = () => window.ethereum ? resolve() : setTimeout(wait, 20); wait() })`,
    )
    await evaluate(page, `ethereum.request({ method: 'eth_requestAccounts' }).then(() => true)`)
    // The page is in use, so its relay wakes the worker every KEEP_ALIVE_EVERY_MS: the checks below run right after one
    // such wake, so the next is a whole period away.
    starts = await stopWorker()
    expect(await eventually(() => workers.starts() > starts && workers.running(), KEEP_ALIVE_EVERY_MS + 5_000)).toBe(
      true,
    )
    starts = await stopWorker()
    await evaluate(
      page,
      `dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })); dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' })); true`,
    )
    await sleep(1_000)
    expect(workers.starts()).toBe(starts)

    expect(workers.running()).toBe(false)
    await press(page)
    expect(await eventually(() => workers.starts() > starts && workers.running(), 5_000)).toBe(true)
  }, 90_000)

  it('a scanner page that closes itself (window.close(), as idleClose.ts does) is gone, and the next request opens another and is scanned', async () => {
    const worker = await chromium.waitForTarget(
      (target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'),
    )
    const control = await chromium.open(`chrome-extension://${new URL(worker.url).host}/src/extension/ui/options.html`)
    const settings = { rpcUrls: { '31337': devnet.fixtures.rpcUrl } }
    await evaluate(control, `chrome.storage.local.set({ settings: ${JSON.stringify(settings)} }).then(() => true)`)
    const scannerPages = async () =>
      (await evaluate(
        control,
        `chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }).then((pages) => pages.map((page) => page.documentId))`,
      )) as string[]
    const page = await chromium.open(`${dapp.url}/`)
    await evaluate(
      page,
      `new Promise((resolve) => { const wait = () => window.ethereum ? resolve() : setTimeout(wait, 20); wait() })`,
    )
    await evaluate(page, `ethereum.request({ method: 'eth_requestAccounts' }).then(() => true)`)
    let before: string[] = []
    for (const deadline = Date.now() + 10_000; before.length === 0 && Date.now() < deadline; await sleep(100)) {
      before = await scannerPages()
    }
    expect(before).toHaveLength(1)
    // What idleClose.ts does once the page had no order for SCANNER_IDLE_MS. (A keep-alive from the dapp's page may
    // open a new one at once: the worker warms the page again when it finds it gone.)
    const scanner = await chromium.waitForTarget((target) => target.url.includes('/scanner/scanner.html'))
    await evaluate(await chromium.attach(scanner.targetId), 'setTimeout(() => window.close(), 0); true')
    expect(await eventually(() => !chromium.hasTarget(scanner.targetId), 10_000)).toBe(true)

    const to = devnet.fixtures.accounts[5]?.address
    await evaluate(
      page,
      `window.sent = ethereum.request({ method: 'eth_sendTransaction', params: [{ to: '${to}', value: '0x1' }] }).then(() => 'sent', (error) => error.code); true`,
    )
    const action = `(() => {
      const view = chrome.extension.getViews().find((candidate) => candidate.location.pathname.endsWith('/confirm.html'))
      const shown = view?.document.querySelector('[data-action]:not([data-action="PENDING"])')?.getAttribute('data-action')
      if (shown) view.close()
      return shown ?? null
    })()`
    let shown: unknown = null
    for (const deadline = Date.now() + 20_000; !shown && Date.now() < deadline; await sleep(100)) {
      shown = await evaluate(control, action)
    }
    expect(shown).toBe('NONE')
    expect(await evaluate(page, 'window.sent')).toBe(4001)
    const after = await scannerPages()
    expect(after).toHaveLength(1)
    expect(after).not.toEqual(before)
  }, 60_000)
})
