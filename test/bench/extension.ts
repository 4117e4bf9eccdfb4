/**
 * The extension's speed, measured in real Chromium with the built extension (dist/) and the devnet:
 * - scan latency, with the worker running (warm) and with it stopped before each request (cold, as Chrome stops an
 *   idle worker after about 30 s; stopped through a CDP session on an extension page, and each run checks the request
 *   really woke a stopped worker): from the dapp's eth_sendTransaction call to the window showing the request (call
 *   → window) and to results shown in it (call → results: the root's data-action leaving PENDING), p50 and p95 over
 *   BENCH_RUNS runs after BENCH_WARMUP; the instants are read on one clock (performance.timeOrigin +
 *   performance.now()) in the page and in the window.
 * - pass-through overhead: eth_chainId ×1,000 on an in-memory provider that the hook patched (window.ethereum) and on
 *   an identical one it never saw, in the same page, alternating; per-call difference of the means over 200 rounds.
 * - a flood: 200 requests at once wait in one window; from the click on Continue to the first call settling in the
 *   dapp (clicked once the window shows "Request 1 of 200" with results), over BENCH_FLOOD_RUNS runs.
 * Targets (issue 5 §7, issue 12 §1, issue 14 §6): warm results in under 600 ms p50; cold results under 180 ms p50 and
 * the cold window under 120 ms p50; overhead under 0.05 ms per call; Continue under a flood reaches the dapp in under
 * 200 ms p50. Exit code 1 when missed.
 * Run: npx vite build && npx tsx test/bench/extension.ts
 */
import type { Page } from 'playwright-core'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { type Dapp, startDapp, walletPage } from '../e2e/support/dapp.ts'
import {
  type Extension,
  launchExtension,
  nextConfirmWindow,
  watchServiceWorkers,
  writeSettings,
} from '../e2e/support/extension.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { quantile } from './stats.ts'

const WARMUP = Number(process.env.BENCH_WARMUP ?? 3)
const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const CALLS = 1000
const ROUNDS = 200
const LATENCY_TARGET_MS = 600
const COLD_RESULTS_TARGET_MS = 180
const COLD_WINDOW_TARGET_MS = 120
const OVERHEAD_TARGET_MS = 0.05
const FLOOD = 200
const FLOOD_RUNS = Number(process.env.BENCH_FLOOD_RUNS ?? 5)
const FLOOD_TARGET_MS = 200

// Injected into every page, the confirmation window included: the instant the window first shows the request (its
// header: site, network, account) and the instant results replace the PENDING state.
const RECORD_SHOWN = `(() => {
  const now = () => performance.timeOrigin + performance.now()
  const check = () => {
    if (!window.__windowAt && document.querySelector('[data-action] header')) window.__windowAt = now()
    const root = document.querySelector('[data-action]')
    const action = root && root.getAttribute('data-action')
    if (action && action !== 'PENDING' && !window.__shownAt) window.__shownAt = now()
  }
  // Playwright sometimes attaches to a new window after it rendered: such a run cannot be timed.
  if (document.querySelector('[data-action] header')) window.__windowAt = -1
  if (document.querySelector('[data-action]:not([data-action="PENDING"])')) window.__shownAt = -1
  window.__shownObserver = new MutationObserver(check)
  window.__shownObserver.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-action'] })
})()`

/** One run: ms from the dapp's call to the window showing the request and to its results; undefined when untimed. */
type Run = { window: number; results: number } | undefined

/** One run's latencies, or undefined when the window could not be timed. */
async function scanLatency(extension: Extension, page: Page, from: string, to: string): Promise<Run> {
  const opened = nextConfirmWindow(extension.context)
  const calledAt = await page.evaluate(
    ([sender, recipient]) => {
      const at = performance.timeOrigin + performance.now()
      const provider = (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum
      ;(window as unknown as { pending: Promise<unknown> }).pending = provider
        .request({ method: 'eth_sendTransaction', params: [{ from: sender, to: recipient, value: '0x1' }] })
        .catch((error: unknown) => error)
      return at
    },
    [from, to],
  )
  const confirm = await opened
  // Polled on a timer: a background popup window may never get animation frames.
  await confirm.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt, null, {
    polling: 20,
    timeout: 20_000,
  })
  const { windowAt, shownAt } = await confirm.evaluate(() => {
    const stamps = window as unknown as { __windowAt?: number; __shownAt: number }
    return { windowAt: stamps.__windowAt ?? -1, shownAt: stamps.__shownAt }
  })
  const action = await confirm.locator('[data-action]').getAttribute('data-action')
  if (action !== 'NONE') throw new Error(`the window showed ${action}, expected NONE`)
  await confirm.getByRole('button', { name: 'Reject' }).click()
  await page.evaluate(() => (window as unknown as { pending: Promise<unknown> }).pending)
  return windowAt < 0 || shownAt < 0 ? undefined : { window: windowAt - calledAt, results: shownAt - calledAt }
}

type Latencies = { window: number[]; results: number[]; untimed: number }

/** BENCH_RUNS timed runs after BENCH_WARMUP; `before` runs ahead of each (e.g. stopping the worker). */
async function latencies(run: () => Promise<Run>, before: () => Promise<void> = async () => {}): Promise<Latencies> {
  const out: Latencies = { window: [], results: [], untimed: 0 }
  for (let index = 0; out.results.length < RUNS && index < 3 * (WARMUP + RUNS); index++) {
    await before()
    const ms = await run()
    if (ms === undefined) out.untimed++
    else if (index >= WARMUP) {
      out.window.push(ms.window)
      out.results.push(ms.results)
    }
  }
  return out
}

const summary = (samples: Latencies) => ({
  runs: samples.results.length,
  untimed: samples.untimed,
  callToWindowMs: { p50: round(quantile(samples.window, 0.5)), p95: round(quantile(samples.window, 0.95)) },
  callToResultsMs: { p50: round(quantile(samples.results, 0.5)), p95: round(quantile(samples.results, 0.95)) },
})

// Plain script text (see MEASURE_PASS_THROUGH): starts the flood and stamps the moment the first call settles.
const START_FLOOD = `(({ count, account }) => {
  window.__firstAt = undefined
  const calls = Array.from({ length: count }, (_, index) =>
    ethereum.request({ method: 'personal_sign', params: ['0x' + index.toString(16).padStart(4, '0'), account] }))
  calls[0].finally(() => { window.__firstAt = performance.timeOrigin + performance.now() })
  window.__flood = Promise.allSettled(calls)
})`

/** One flood run: ms from the click on Continue to the first of FLOOD calls settling in the dapp. */
async function floodContinue(extension: Extension, page: Page, account: string): Promise<number> {
  const opened = nextConfirmWindow(extension.context)
  await page.evaluate(`${START_FLOOD}(${JSON.stringify({ count: FLOOD, account })})`)
  const confirm = await opened
  await confirm
    .getByTestId('queue-position')
    .filter({ hasText: `Request 1 of ${FLOOD}` })
    .waitFor({ timeout: 60_000 })
  await confirm.locator('[data-action]:not([data-action="PENDING"])').waitFor({ timeout: 20_000 })
  const clickedAt = await confirm.evaluate(() => performance.timeOrigin + performance.now())
  await confirm.getByRole('button', { name: 'Continue', exact: true }).click()
  await page.waitForFunction(() => (window as unknown as { __firstAt?: number }).__firstAt, null, { polling: 5 })
  const firstAt = await page.evaluate(() => (window as unknown as { __firstAt: number }).__firstAt)
  await confirm.close()
  await page.evaluate(() => (window as unknown as { __flood: Promise<unknown> }).__flood)
  return firstAt - clickedAt
}

// Plain script text: tsx would add helpers to a function passed to evaluate that do not exist in the page.
const MEASURE_PASS_THROUGH = `(async ({ calls, rounds }) => {
  const make = () => ({ request: async () => '0x7a69' })
  window.ethereum = make()
  const hooked = window.ethereum
  const plain = make()
  if (!Object.getOwnPropertyDescriptor(hooked, 'request')?.get) throw new Error('the hook did not patch window.ethereum')
  const time = async (provider) => {
    const start = performance.now()
    for (let i = 0; i < calls; i++) await provider.request({ method: 'eth_chainId' })
    return performance.now() - start
  }
  const hookedTimes = []
  const plainTimes = []
  for (let round = 0; round < rounds; round++) {
    plainTimes.push(await time(plain))
    hookedTimes.push(await time(hooked))
  }
  // performance.now() is coarse in pages (0.1 ms): the mean over many rounds resolves the difference.
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / list.length
  return { hookedMs: mean(hookedTimes), plainMs: mean(plainTimes) }
})`

async function passThroughOverhead(page: Page): Promise<{ hookedMs: number; plainMs: number; perCallMs: number }> {
  const measured = (await page.evaluate(
    `${MEASURE_PASS_THROUGH}(${JSON.stringify({ calls: CALLS, rounds: ROUNDS })})`,
  )) as {
    hookedMs: number
    plainMs: number
  }
  return { ...measured, perCallMs: (measured.hookedMs - measured.plainMs) / CALLS }
}

async function main() {
  let devnet: Devnet | undefined
  let dapp: Dapp | undefined
  let extension: Extension | undefined
  try {
    ;[devnet, dapp, extension] = await Promise.all([startTestDevnet(), startDapp(), launchExtension()])
    const from = devnet.fixtures.accounts[0]?.address ?? ''
    const to = devnet.fixtures.accounts[5]?.address ?? ''
    await writeSettings(extension.context, { rpcUrls: { '31337': devnet.fixtures.rpcUrl } })
    await extension.context.addInitScript(RECORD_SHOWN)
    const config = JSON.stringify({ rpcUrl: devnet.fixtures.rpcUrl, account: from })
    dapp.page('/', walletPage(`DevWallet.announceDevWallet(DevWallet.createDevWallet(${config}))`))
    dapp.page('/empty', '<!doctype html><title>empty</title>')
    const page = await extension.context.newPage()
    await page.goto(`${dapp.url}/`)

    const warm = await latencies(() => scanLatency(extension as Extension, page, from, to))
    // The worker is stopped through an extension page, and each run checks that its request met a stopped worker.
    const control = await extension.context.newPage()
    await control.goto(`chrome-extension://${extension.id}/src/extension/ui/options.html`)
    const workers = await watchServiceWorkers(control)
    const cold = await latencies(
      async () => {
        const startsBefore = workers.starts()
        const ms = await scanLatency(extension as Extension, page, from, to)
        if (workers.starts() === startsBefore) throw new Error('the request did not wake a stopped worker')
        return ms
      },
      () => workers.stopAll(),
    )
    await workers.detach()
    await control.close()
    const flood: number[] = []
    for (let run = 0; run < FLOOD_RUNS; run++) flood.push(await floodContinue(extension, page, from))
    await page.goto(`${dapp.url}/empty`)
    const overhead = await passThroughOverhead(page)

    const warmP50 = quantile(warm.results, 0.5)
    const coldResultsP50 = quantile(cold.results, 0.5)
    const coldWindowP50 = quantile(cold.window, 0.5)
    const results = {
      workerRunning: { ...summary(warm), target: { callToResultsMs: LATENCY_TARGET_MS } },
      workerStopped: {
        ...summary(cold),
        target: { callToWindowMs: COLD_WINDOW_TARGET_MS, callToResultsMs: COLD_RESULTS_TARGET_MS },
      },
      floodContinueToDappMs: {
        requests: FLOOD,
        runs: flood.length,
        p50: round(quantile(flood, 0.5)),
        max: round(Math.max(...flood)),
        target: FLOOD_TARGET_MS,
      },
      passThrough: {
        calls: CALLS,
        hookedMs: round(overhead.hookedMs, 3),
        plainMs: round(overhead.plainMs, 3),
        overheadPerCallMs: round(overhead.perCallMs, 5),
        target: OVERHEAD_TARGET_MS,
      },
    }
    console.log(JSON.stringify(results, null, 2))
    const met =
      warmP50 < LATENCY_TARGET_MS &&
      coldResultsP50 < COLD_RESULTS_TARGET_MS &&
      coldWindowP50 < COLD_WINDOW_TARGET_MS &&
      overhead.perCallMs < OVERHEAD_TARGET_MS &&
      quantile(flood, 0.5) < FLOOD_TARGET_MS
    if (!met) console.error('extension benchmark: a target was missed')
    process.exitCode = met ? 0 : 1
  } finally {
    await extension?.close()
    await Promise.all([dapp?.close(), devnet?.stop()])
  }
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits))

await main()
