/** Drives the built extension in Chromium: its worker, its settings, and the confirmation windows it opens. */
import { join } from 'node:path'
import type { BrowserContext, Frame, Page, Worker } from 'playwright-core'
import { type ChromiumOptions, launchChromium } from '../../../src/devnet/chromium.ts'
import { inQueueOrder, type PendingRequest } from '../../../src/extension/shared/pending.ts'
import type { Settings } from '../../../src/extension/shared/settings.ts'

/** What a dapp gets when the user rejects in the window: 4001, worded so ethers v5 reports ACTION_REJECTED. */
export const REJECTED = { code: 4001, message: 'User rejected the request: user denied it in Preflight.' }

/** The built extension under test (PREFLIGHT_EXTENSION_DIR runs the e2e tests against another build). */
export const DIST = process.env.PREFLIGHT_EXTENSION_DIR ?? join(import.meta.dirname, '../../../dist')

export type Extension = { context: BrowserContext; id: string; close(): Promise<void> }

/** Launches Chromium with dist/ (and any other extensions, such as a test wallet) loaded and waits for the worker. */
export async function launchExtension(
  otherExtensionDirs: string[] = [],
  options: Pick<ChromiumOptions, 'localHosts' | 'backForwardCache'> = {},
): Promise<Extension> {
  const { context, close } = await launchChromium({ ...options, extensionDir: DIST, otherExtensionDirs })
  // Playwright waits forever by default; a step that cannot happen must fail the test, not stall the run.
  context.setDefaultTimeout(30_000)
  const worker = await serviceWorker(context)
  const id = new URL(worker.url()).host
  return { context, id, close }
}

/** The running service worker (waking it if Chromium reports none). */
export async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
}

/** Replaces the stored settings (chrome.storage.local `settings`), as the options page would. */
export async function writeSettings(context: BrowserContext, settings: Partial<Settings>): Promise<void> {
  const worker = await serviceWorker(context)
  await worker.evaluate((value) => chrome.storage.local.set({ settings: value }), settings)
}

/** The next confirmation window the extension opens. */
export function nextConfirmWindow(context: BrowserContext): Promise<Page> {
  return context.waitForEvent('page', { predicate: (page) => page.url().includes('/ui/confirm.html') })
}

/**
 * The request a confirmation window shows, read from chrome.storage.session as the window does. A window opened as its
 * request was announced can be up before the request is stored: this waits for it (10 s at most), as the window does.
 */
export async function pendingOf(confirm: Page): Promise<PendingRequest> {
  const key = `pending:${shownId(confirm)}`
  const deadline = Date.now() + 10_000
  for (;;) {
    const stored = await confirm.evaluate(async (name) => (await chrome.storage.session.get(name))[name], key)
    if (stored !== undefined || Date.now() > deadline) return stored as PendingRequest
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The id of the request a confirmation window shows now (its URL follows the queue). */
export function shownId(confirm: Page): string {
  return new URL(confirm.url()).searchParams.get('id') ?? ''
}

/** The ids of the pending requests in queue order, as the worker derives it from chrome.storage.session. */
export async function queuedIds(context: BrowserContext): Promise<string[]> {
  const worker = await serviceWorker(context)
  const records = (await worker.evaluate(async () =>
    Object.entries(await chrome.storage.session.get(null))
      .filter(([key]) => key.startsWith('pending:'))
      .map(([, value]) => value),
  )) as PendingRequest[]
  return inQueueOrder(records).map((record) => record.id)
}

/** Waits for the window to show results (or the scan error) and returns its data-action. */
export async function shownAction(confirm: Page): Promise<string> {
  const root = confirm.locator('[data-action]:not([data-action="PENDING"])')
  await root.waitFor({ timeout: 20_000 })
  return (await root.getAttribute('data-action')) ?? ''
}

/** What watching service workers needs of a protocol session: Playwright's and test/support/cdpPipe.ts's both fit. */
type ProtocolSession = {
  send(method: 'ServiceWorker.enable' | 'ServiceWorker.stopAllWorkers'): Promise<unknown>
  // biome-ignore lint/suspicious/noExplicitAny: each client types its event payloads its own way.
  on(event: 'ServiceWorker.workerVersionUpdated', listener: (params: any) => void): unknown
}

/** Watches the browser's service workers through a CDP session on `page` (an extension page or any other). */
export async function watchServiceWorkers(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  return { ...(await watchServiceWorkersOn(cdp)), detach: () => cdp.detach() }
}

/** Watches the browser's service workers through `cdp`, a protocol session on a page. */
export async function watchServiceWorkersOn(cdp: ProtocolSession) {
  type Version = { versionId: string; runningStatus: string }
  const statuses = new Map<string, string>()
  let starts = 0
  let onUpdate = () => {}
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }: { versions: Version[] }) => {
    for (const version of versions) {
      if (version.runningStatus === 'starting' && statuses.get(version.versionId) !== 'starting') starts++
      statuses.set(version.versionId, version.runningStatus)
    }
    onUpdate()
  })
  // enable reports every known version before it returns, so `statuses` starts out complete.
  await cdp.send('ServiceWorker.enable')
  return {
    /**
     * Stops every service worker (as Chrome does when a worker is idle) and waits until none runs; fails with the
     * workers' states if they have not stopped within `timeoutMs`.
     */
    async stopAll(timeoutMs = 10_000): Promise<void> {
      const stop = () => cdp.send('ServiceWorker.stopAllWorkers')
      await stop()
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          const states = JSON.stringify(Object.fromEntries(statuses))
          reject(new Error(`service workers did not stop within ${timeoutMs} ms (versions: ${states})`))
        }, timeoutMs)
        onUpdate = () => {
          const all = [...statuses.values()]
          if (all.every((status) => status === 'stopped')) {
            clearTimeout(timer)
            onUpdate = () => {}
            resolve()
          } else if (all.includes('running')) {
            // A stop that meets a worker still starting is dropped, and the worker then reports running: stop it again.
            stop().catch(() => undefined)
          }
        }
        onUpdate()
      })
    },
    /** How many times a service worker started since the watch began: a stopped worker woken by a request counts. */
    starts: () => starts,
    /** Whether a service worker is running now. */
    running: () => [...statuses.values()].includes('running'),
  }
}

/**
 * Stops every service worker in the browser (as Chrome does when a worker is idle) and waits until none runs; returns
 * at once when none was running, and fails with the workers' states if they have not stopped within `timeoutMs`.
 */
export async function stopServiceWorkers(page: Page, timeoutMs = 10_000): Promise<void> {
  const workers = await watchServiceWorkers(page)
  try {
    await workers.stopAll(timeoutMs)
  } finally {
    await workers.detach()
  }
}

/**
 * Starts `expression` (using `ethereum` or another provider in the page or frame) without waiting for it, and
 * returns a function that waits for its settlement: `{ ok: result }` or `{ code, message }`.
 */
export async function startCall(page: Page | Frame, expression: string) {
  const slot = `__call${Math.random().toString(36).slice(2)}`
  await page.evaluate(
    ([name, code]) => {
      const run = new Function(`return (${code})`) as () => Promise<unknown>
      // await, not .then: a hostile page may have replaced Promise.prototype.then, and the harness must still see
      // how the call really settled.
      ;(window as unknown as Record<string, unknown>)[name as string] = (async () => {
        try {
          return { ok: await run() }
        } catch (error) {
          const { code, message } = (error ?? {}) as { code?: number; message?: string }
          return { code, message }
        }
      })()
    },
    [slot, expression],
  )
  type Settled = { ok?: unknown; code?: number; message?: string }
  return (): Promise<Settled> =>
    page.evaluate((name) => (window as unknown as Record<string, Promise<Settled>>)[name] as Promise<Settled>, slot)
}

/**
 * Clicks Continue or Reject in a confirmation window. A decision on the window's last request closes the window, and
 * on a loaded machine it can close before the click's acknowledgement reaches Playwright: that is the click working.
 */
export async function clickDecision(
  confirm: Page,
  name: 'Continue' | 'Reject',
  options: { acknowledge?: boolean } = {},
): Promise<void> {
  // BLOCK (and ERROR, by default) arm Continue only once "I understand the risk" is ticked.
  if (options.acknowledge) await confirm.getByRole('checkbox', { name: /I understand the risk/ }).check()
  /** The presses of Continue the window says it ignored (DecisionBar); 0 once it is closed. */
  const ignoredPresses = async () =>
    Number(
      await confirm
        .locator('[data-ignored-presses]')
        .getAttribute('data-ignored-presses', { timeout: 1_000 })
        .catch(() => 0),
    )
  for (let press = 1; ; press++) {
    const before = name === 'Continue' ? await ignoredPresses() : 0
    const closed = await confirm
      .getByRole('button', { name })
      .click()
      .then(
        () => false,
        (error: unknown) => {
          if (!confirm.isClosed()) throw error
          return true
        },
      )
    if (name === 'Reject' || closed || press === 3) return
    // A late layout change can move Continue just as it is pressed; the window then ignores the press and says so
    // (DecisionBar), and a person presses again once it arms: so does this.
    let again = false
    for (const waitUntil = Date.now() + 1_000; !again && Date.now() < waitUntil && !confirm.isClosed(); ) {
      again = (await ignoredPresses()) > before
      if (!again) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    if (!again) return
  }
}

/** Starts `expression` in `page` (see startCall) and waits for the confirmation window it opens. */
export async function callThroughConfirmWindow(context: BrowserContext, page: Page | Frame, expression: string) {
  const opened = nextConfirmWindow(context)
  const result = await startCall(page, expression)
  return { confirm: await opened, result }
}

/**
 * Evaluates `expression` in the extension's content-script (ISOLATED) world of the page's main frame: what a page
 * that compromised its renderer could run, and the closest a web page gets to the extension's messaging.
 */
export async function evaluateInContentScript(page: Page, expression: string): Promise<unknown> {
  type Context = { id: number; name: string; auxData?: { type?: string } }
  const cdp = await page.context().newCDPSession(page)
  const contexts: Context[] = []
  cdp.on('Runtime.executionContextCreated', ({ context }: { context: Context }) => contexts.push(context))
  try {
    await cdp.send('Runtime.enable')
    const world = contexts.find((context) => context.auxData?.type === 'isolated' && context.name === 'Preflight')
    if (!world) throw new Error(`no Preflight content-script world in ${page.url()}`)
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression,
      contextId: world.id,
      awaitPromise: true,
      returnByValue: true,
    })
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text)
    return result.value
  } finally {
    await cdp.detach()
  }
}
