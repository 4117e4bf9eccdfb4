/**
 * Runs one attempt of a hostile page against the built extension and a wallet that injects itself as wallet
 * extensions do, and records the one thing that matters: what the wallet received (at its node, outside the page)
 * against what a confirmation window showed and the user continued.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import type { PendingRequest } from '../../../src/extension/shared/pending.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { type Dapp, startDapp } from './dapp.ts'
import { clickDecision, type Extension, launchExtension, pendingOf, queuedIds, writeSettings } from './extension.ts'
import { buildWalletExtension, type WalletExtension, type WalletOptions } from './walletExtension.ts'
import { type Received, startWalletNode, type WalletNode } from './walletNode.ts'

export type Decide = 'continue' | 'reject'

/** Where an attack sends the user's assets, and a friend an honest request pays: both accounts with no code. */
export const ATTACKER = '0x000000000000000000000000000000000000dead'
export const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
export const ONE_ETH = '0xde0b6b3a7640000'

export type WalletSession = {
  devnet: Devnet
  /** The logging node in front of the devnet that the wallets send to. */
  node: WalletNode
  dapp: Dapp
  extension: Extension
  context: BrowserContext
  /** The wallets' account (the devnet's first), lower case. */
  account: string
  close(): Promise<void>
}

/**
 * A devnet, a logging node in front of it, the test wallets `wallets` describes (each given the node and the account),
 * the dapp, and Chromium with Preflight and those wallets loaded and set to simulate on the devnet. What started is
 * stopped again if a later step fails.
 */
export async function startWalletSession(
  wallets: (base: Pick<WalletOptions, 'rpcUrl' | 'account'>) => WalletOptions[],
): Promise<WalletSession> {
  const started: Partial<Omit<WalletSession, 'close'>> & { wallets?: WalletExtension[] } = {}
  const close = async () => {
    await started.extension?.close()
    for (const wallet of started.wallets ?? []) wallet.remove()
    await Promise.all([started.dapp?.close(), started.node?.close(), started.devnet?.stop()])
  }
  try {
    const devnet = await startTestDevnet()
    started.devnet = devnet
    const account = (devnet.fixtures.accounts[0]?.address ?? '').toLowerCase()
    const node = await startWalletNode(devnet.fixtures.rpcUrl)
    started.node = node
    const [built, served] = await Promise.allSettled([
      Promise.all(wallets({ rpcUrl: node.url, account }).map(buildWalletExtension)),
      startDapp(),
    ])
    if (built.status === 'fulfilled') started.wallets = built.value
    if (served.status === 'fulfilled') started.dapp = served.value
    if (built.status === 'rejected') throw built.reason
    if (served.status === 'rejected') throw served.reason
    const dapp = served.value
    const extension = await launchExtension(built.value.map((wallet) => wallet.dir))
    started.extension = extension
    await writeSettings(extension.context, { rpcUrls: { '31337': devnet.fixtures.rpcUrl } })
    return { devnet, node, dapp, extension, context: extension.context, account, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** A call that has not settled by then (its window answered) will not: the attempt fails instead of waiting. */
const SETTLE_TIMEOUT_MS = 45_000

export type Attempt = {
  /** How the call settled for the page: { ok } or { code, message }. */
  settled: { ok?: unknown; code?: number; message?: string }
  /** Each request a confirmation window showed, with what the user did. */
  shown: { request: PendingRequest; decision: Decide }[]
  /** The signing requests the wallet's node received during the attempt. */
  received: Received[]
}

let pages = 0

/**
 * The test's own handle on the page, loaded before the attack and driven only through the DOM: the test types a call
 * into a textarea and presses a button (Playwright does both from its isolated world), the harness starts the call
 * once with the builtins it kept, and writes how it settled (as JSON) into an attribute the test reads the same way. A page that breaks JSON,
 * iteration or Promise.prototype.then in its own world, which also breaks page.evaluate, cannot blind the test.
 */
const HARNESS = `<textarea id="harness-call"></textarea><button id="harness-run">run</button><script>(() => {
  const stringify = JSON.stringify, NativeFunction = Function, apply = Reflect.apply
  const setAttribute = Element.prototype.setAttribute, root = document.documentElement
  const field = document.getElementById('harness-call'), valueOf = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').get
  let next = 0
  document.getElementById('harness-run').addEventListener('click', () => {
    const slot = next++
    const run = NativeFunction('return (' + apply(valueOf, field, []) + ')')
    ;(async () => {
      let settled
      try { settled = { ok: await run() } } catch (error) { settled = { code: error && error.code, message: error && error.message } }
      apply(setAttribute, root, ['data-harness-' + slot, stringify(settled) || '{}'])
    })()
  })
})()</script>`

const started = new WeakMap<Page, number>()

/** Starts `call` (an expression) in a hostile page; returns its slot. */
async function startInPage(page: Page, call: string): Promise<number> {
  const slot = started.get(page) ?? 0
  started.set(page, slot + 1)
  await page.locator('#harness-call').fill(call)
  await page.locator('#harness-run').click()
  return slot
}

/** A page whose own script (after the hook, as any page script) runs `setup`, then `call` is started by the test. */
export async function openHostilePage(context: BrowserContext, dapp: Dapp, setup: string, body = ''): Promise<Page> {
  const path = `/hostile-${++pages}`
  dapp.page(
    path,
    `<!doctype html><meta charset="utf-8"><title>hostile</title>${HARNESS}${body}<script>${setup}</script>`,
  )
  const page = await context.newPage()
  await page.goto(`${dapp.url}${path}`)
  return page
}

/**
 * A call (an expression) that reaches a same-origin frame before its document_start scripts and answers its hook
 * with a port of its own, which forwards `forwarded` (a transaction literal) for any request; then asks the frame's
 * wallet to send `asked`. The frame's body comes 500 ms after its headers, so the page always reaches the new document
 * before its root element: a srcdoc or blob: frame opens the same moment, but only for as long as the browser takes
 * to parse it.
 */
export function answeringFramesHook(dapp: Dapp, forwarded: string, asked: string): string {
  dapp.page('/late-body', '<p>child</p>', 500)
  return `(async () => {
    const frame = document.createElement('iframe')
    frame.src = '/late-body'
    document.documentElement.appendChild(frame)
    const child = frame.contentWindow
    const first = child.document
    while (child.document === first) await new Promise((ok) => setTimeout(ok, 0))
    // The child's document exists; Preflight's relay and hook, and the wallet, have not run in it yet.
    child.addEventListener('preflight:hook-ready', () => {
      const channel = new child.MessageChannel()
      channel.port1.onmessage = ({ data }) => {
        if (data.type !== 'scan') return
        channel.port1.postMessage({ type: 'settle', rid: data.rid, outcome: { kind: 'forward', params: [${forwarded}] } })
      }
      channel.port1.start()
      child.dispatchEvent(new child.MessageEvent('preflight:relay-port', { ports: [channel.port2], cancelable: true }))
    }, true)
    while (!child.ethereum) await new Promise((ok) => setTimeout(ok, 5))
    return child.ethereum.request({ method: 'eth_sendTransaction', params: [${asked}] })
  })()`
}

/** Clicks a decision in the window, ticking "I understand the risk" first when the window asks for it. */
async function press(confirm: Page, decision: Decide) {
  if (decision === 'continue') {
    const risk = confirm.getByRole('checkbox')
    if (await risk.count()) await risk.check()
    await clickDecision(confirm, 'Continue')
  } else {
    await clickDecision(confirm, 'Reject')
  }
}

/**
 * Starts `call` in `page` and answers every confirmation window it causes with `decide` (called with the request
 * shown) until the call settles, then waits `quietMs` for anything the page does afterwards to reach the wallet.
 */
export async function attempt(
  context: BrowserContext,
  node: WalletNode,
  page: Page,
  call: string,
  decide: (request: PendingRequest) => Decide,
  quietMs = 300,
): Promise<Attempt> {
  const start = node.received().length
  const shown: Attempt['shown'] = []
  // Windows are collected from before the call starts: under load one can open before a later listener would.
  const opened: Page[] = []
  let windowOpened = () => {}
  const onPage = (candidate: Page) => {
    if (!candidate.url().includes('/ui/confirm.html')) return
    opened.push(candidate)
    windowOpened()
  }
  context.on('page', onPage)
  try {
    const slot = await startInPage(page, call)
    let done = false
    const givingUp = Date.now() + SETTLE_TIMEOUT_MS
    const settling = (async () => {
      while (Date.now() < givingUp) {
        const text = await page.locator('html').getAttribute(`data-harness-${slot}`)
        if (typeof text === 'string') {
          done = true
          return JSON.parse(text) as Attempt['settled']
        }
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      done = true
      throw new Error(`the call did not settle within ${SETTLE_TIMEOUT_MS} ms: ${call}`)
    })()
    /** The next window this call opened (in order), or undefined once the call has settled without another. */
    const nextWindow = () =>
      new Promise<Page | undefined>((resolve) => {
        let waiting = true
        const finish = (value: Page | undefined) => {
          if (!waiting) return
          waiting = false
          windowOpened = () => {}
          resolve(value)
        }
        const take = () => {
          if (!waiting) return
          const next = opened.shift()
          if (next) finish(next)
        }
        take()
        if (!waiting) return
        windowOpened = take
        settling.then(
          () => finish(undefined),
          () => finish(undefined),
        )
      })
    let confirm: Page | undefined
    let lastId = ''
    while (!done) {
      if (!confirm || confirm.isClosed()) {
        const next = await nextWindow()
        if (!next) break
        confirm = next
      }
      const id = await confirm
        .waitForURL((url) => url.searchParams.get('id') !== lastId, { timeout: 30_000 })
        .then(() => new URL(confirm?.url() ?? '').searchParams.get('id') ?? '')
        .catch(() => '')
      if (!id || confirm.isClosed()) continue
      lastId = id
      // What the window shows once its results are in, so a test can check the scan as well as the request. A window
      // opened as the request was announced closes without showing anything when the worker refuses the request.
      const shownIn = confirm
      const showing = await shownIn
        .locator('[data-action]:not([data-action="PENDING"])')
        .waitFor({ timeout: 20_000 })
        .then(
          () => true,
          (error: unknown) => {
            if (shownIn.isClosed()) return false
            throw error
          },
        )
      if (!showing) continue
      const request = await pendingOf(confirm)
      const decision = decide(request)
      shown.push({ request, decision })
      await press(confirm, decision)
      await Promise.race([
        confirm.waitForEvent('close').catch(() => undefined),
        confirm.waitForURL((url) => url.searchParams.get('id') !== id).catch(() => undefined),
        settling,
      ])
    }
    const settled = await settling
    await page.waitForTimeout(quietMs)
    return { settled, shown, received: node.signing(start) }
  } finally {
    context.off('page', onPage)
  }
}

/**
 * Runs `call` on a fresh hostile page whose own script ran `setup` first, answering each window with `decide`; checks
 * the invariant (the wallet received only what was shown and continued) and that no request is left waiting.
 */
export async function checkedAttempt(
  world: { context: BrowserContext; node: WalletNode; dapp: Dapp },
  setup: string,
  call: string,
  decide: Decide | ((shown: PendingRequest) => Decide),
  body = '',
): Promise<Attempt> {
  const { context, node, dapp } = world
  const page = await openHostilePage(context, dapp, setup, body)
  try {
    const outcome = await attempt(context, node, page, call, typeof decide === 'string' ? () => decide : decide)
    expect(unshownReceived(outcome)).toEqual([])
    await expect.poll(() => queuedIds(context)).toEqual([])
    return outcome
  } finally {
    await page.close()
  }
}

/** Lowercases hex strings throughout, so a comparison is not fooled by letter case alone. */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, canonical(inner)]))
  }
  return value
}

/**
 * The invariant: every signing request the wallet received is, method and params, one a window showed and the user
 * continued. Returns the ones that are not (empty when the attempt failed).
 */
export function unshownReceived(outcome: Attempt): Received[] {
  const continued = outcome.shown
    .filter((entry) => entry.decision === 'continue')
    .map((entry) => JSON.stringify(canonical({ method: entry.request.method, params: entry.request.params })))
  return outcome.received.filter(
    (entry) => !continued.includes(JSON.stringify(canonical({ method: entry.method, params: entry.params }))),
  )
}
