/**
 * The extension's speed, measured in real Chromium with the built extension (dist/) and the devnet:
 * - scan latency, with the worker running (warm) and with it stopped before each request (cold, as Chrome stops an
 *   idle worker after about 30 s; stopped through the protocol on an extension page, IDLE_PAUSE_MS before the run,
 *   and each run checks the request really woke a stopped worker): from the dapp's eth_sendTransaction call to the window showing the request (call
 *   → window) and to results shown in it (call → results), p50 and p95 over BENCH_RUNS runs after BENCH_WARMUP. The
 *   window's own marks (src/extension/ui/confirm/shownMarks.ts) give both instants, read from an extension page that
 *   reaches the window's objects; the instants are on one clock (performance.timeOrigin + performance.now()) in the
 *   page and in the window. This browser is driven over a bare protocol pipe (test/support/cdpPipe.ts): Playwright
 *   would attach to the new window and hold it for its own set-up, adding its time to what is measured.
 * - after a real idle pause (PAUSED_FOR_MS, past Chrome's 30 s idle timeout) on the dapp's page, shown and in use:
 *   what a person gets who reads the page before acting. The relay keeps the worker running for such a page
 *   (src/extension/relay/keepAlive.ts); each run says whether its request met a stopped worker. BENCH_PAUSED_RUNS
 *   runs, no warm-up.
 * - warm and cold runs with a wallet that answers the hook's eth_accounts and eth_chainId in WALLET_ANSWER_MS, as an
 *   extension wallet takes longer to than the devnet's in-page one: the worker opens the window as the hook announces
 *   the request, while the wallet answers.
 * - cold runs sent as a person sends: a trusted mouse press on a button, released PRESS_MS later, whose click handler
 *   calls eth_sendTransaction. The press on a page that used the wallet wakes the worker (src/extension/relay/
 *   wakeOnInput.ts), so it starts while the button is held. Timed from the call, as the others.
 * - cold runs with the scanner page closed too (the engine's page, which outlives a stopped worker): what the first
 *   request after the browser started meets.
 * - the same cold runs with eth_estimateGas sent through the wallet first, as viem, wagmi and ethers do before they
 *   send a transaction, and the send 50 ms after the devnet answered it (a wallet's node is further away): the hook
 *   takes the estimate as the prelude to a request and wakes the worker. Timed from the send.
 * - pass-through overhead: eth_chainId ×1,000 on an in-memory provider that the hook patched (window.ethereum) and on
 *   an identical one it never saw, in the same page, alternating; per-call difference of the means over 200 rounds.
 * - a flood: 200 requests at once wait in one window; from the click on Continue to the first call settling in the
 *   dapp (clicked once the window shows "Request 1 of 200" with results and Continue has armed), over
 *   BENCH_FLOOD_RUNS runs.
 * - Continue: from the click on an armed Continue to the dapp's call settling, for a transaction (scanned again before
 *   it goes on) and a message (not), alternating, BENCH_CONTINUE_RUNS runs each.
 * Targets (issue 5 §7, issue 12 §1, issue 14 §6): warm results in under 600 ms p50; cold results under 180 ms p50 and
 * the cold window under 120 ms p50; overhead under 0.05 ms per call; Continue under a flood reaches the dapp in under
 * 200 ms p50. Exit code 1 when missed.
 * Run: npx vite build && npx tsx test/bench/extension.ts
 */
import type { Page } from 'playwright-core'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { PRELUDE_INTERVAL_MS } from '../../src/extension/relay/protocol.ts'
import { REQUEST_SHOWN, RESULTS_SHOWN } from '../../src/extension/ui/confirm/shownMarks.ts'
import { answerHoldingWalletPage, type Dapp, startDapp } from '../e2e/support/dapp.ts'
import {
  DIST,
  type Extension,
  launchExtension,
  nextConfirmWindow,
  watchServiceWorkersOn,
  writeSettings,
} from '../e2e/support/extension.ts'
import { type CdpSession, launchPipeChromium } from '../support/cdpPipe.ts'
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
/** Continue on one transaction and on one message, alternating, BENCH_CONTINUE_RUNS times each. */
const CONTINUE_RUNS = Number(process.env.BENCH_CONTINUE_RUNS ?? 10)
const FLOOD_TARGET_MS = 200
const RESULTS_TIMEOUT_MS = 20_000
const PAUSED_RUNS = Number(process.env.BENCH_PAUSED_RUNS ?? 3)
/** Past Chrome's 30 s idle timeout, with room for its timer. */
const PAUSED_FOR_MS = 40_000
/**
 * The pause after stopping the worker, before a cold run. After an idle pause a page has long seen its connection to
 * the stopped worker close, and its hook tells the worker a request is coming (at most once per PRELUDE_INTERVAL_MS),
 * which starts it while the wallet answers the hook or estimates gas. Runs closer together than that measured requests
 * whose prelude the hook had held back, as a page that estimates in a loop gets: most cold runs did.
 */
const IDLE_PAUSE_MS = PRELUDE_INTERVAL_MS + 200
/** A wallet's node round trip, as `npm run bench` puts between the engine and the devnet. */
const NODE_ROUND_TRIP_MS = 50
/**
 * How long the wallet takes to answer eth_accounts and eth_chainId in the slow-wallet runs. The devnet's in-page wallet
 * answers in about a millisecond; an extension wallet's answers cross its content script and its worker. 20 ms is an
 * assumption, not a measurement of any one wallet.
 */
const WALLET_ANSWER_MS = 20
/** Run in the dapp's page (an answerHoldingWalletPage): its wallet answers after WALLET_ANSWER_MS from now on. */
const SLOW_WALLET = `window.beforeAnswer = () => new Promise((resolve) => setTimeout(resolve, ${WALLET_ANSWER_MS})); true`

/** Evaluates `expression` in a page's session (promises awaited) and returns its value; throws what it threw. */
async function evaluate(session: CdpSession, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  })
  if (exceptionDetails) throw new Error(`${expression.slice(0, 80)}…: ${exceptionDetails.exception?.description}`)
  return result.value
}

/** Polls `expression` every `everyMs` until it is truthy, and returns it. */
async function waitFor(
  session: CdpSession,
  expression: string,
  { timeoutMs = RESULTS_TIMEOUT_MS, everyMs = 10 } = {},
): Promise<unknown> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await evaluate(session, expression)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression.slice(0, 80)}…`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/**
 * When and how often a run reads the window's marks. The control page that reads them is an extension page, so each
 * read runs on the main thread the loading window shares with it; read every 10 ms from the call, the reads held the
 * window back by 12–16 ms (two alternating pairs, 2026-11-25). The marks carry their own times, so reading them later
 * changes nothing measured.
 */
const FIRST_READ_MS = 250
const READ_EVERY_MS = 50

// Run in an extension page: the confirmation window is an extension page in the same process, so its marks (and its
// data-action) can be read through chrome.extension.getViews() with nothing attached to it. Null until it shows
// results; then it closes the window, which rejects the request (a closed window can linger in the list a moment).
const READ_WINDOW = `(() => {
  const view = chrome.extension.getViews().find((candidate) =>
    candidate.location.pathname.endsWith('/confirm.html') && !candidate.closed && !candidate.__measured)
  const mark = (name) => view && view.performance.getEntriesByName(name, 'mark')[0]
  const results = mark('${RESULTS_SHOWN}')
  if (!results) return null
  const at = (entry) => view.performance.timeOrigin + entry.startTime
  const shown = {
    windowAt: at(mark('${REQUEST_SHOWN}')),
    resultsAt: at(results),
    action: view.document.querySelector('[data-action]').getAttribute('data-action'),
  }
  view.__measured = true
  view.close()
  return shown
})()`

/** Closes the scanner page from an extension page; true once none is open (or the build has none, to compare). */
const CLOSE_SCANNER = `!chrome.offscreen || chrome.offscreen.closeDocument().catch(() => undefined).then(async () =>
  (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length === 0)`

/**
 * How long the person in the pressed runs holds the mouse button. A click fires as the button is released, and people
 * hold it for about a tenth of a second; 80 ms is an assumption on the quick side of that, not a measurement.
 */
const PRESS_MS = 80

/**
 * Sends as a person does: a trusted press (through the protocol's input, as a real mouse) on a button in `page` whose
 * click handler evaluates `send`, released PRESS_MS later; returns what `send` resolved to.
 */
async function clickToSend(page: CdpSession, send: string): Promise<unknown> {
  await evaluate(
    page,
    `(() => {
      let button = document.getElementById('bench-send')
      if (!button) {
        button = document.createElement('button')
        button.id = 'bench-send'
        button.textContent = 'Send'
        button.style.cssText = 'position: fixed; left: 0; top: 0; width: 120px; height: 40px'
        document.body.append(button)
      }
      window.calledAt = undefined
      button.onclick = () => { window.calledAt = ${send} }
      return true
    })()`,
  )
  const at = { x: 20, y: 20, button: 'left', clickCount: 1 }
  await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at })
  await new Promise((resolve) => setTimeout(resolve, PRESS_MS))
  await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at })
  return waitFor(page, 'window.calledAt', { everyMs: 5 })
}

/** One run: ms from the dapp's call to the window showing the request and to its results. */
type Run = { window: number; results: number }

/**
 * One run in `page`, read from `control`; the window is closed (which rejects the request) once it showed results.
 * With `estimateFirst`, the page first estimates the transaction's gas through the wallet, as viem, wagmi and ethers
 * do before they send it, and sends NODE_ROUND_TRIP_MS after the devnet answered (a wallet's node is further away than
 * the devnet); the clock still starts at eth_sendTransaction. With `pressed`, the call is made by a button a person
 * presses (clickToSend).
 */
async function scanLatency(
  page: CdpSession,
  control: CdpSession,
  from: string,
  to: string,
  { estimateFirst = false, pressed = false } = {},
): Promise<Run> {
  const tx = `{ from: ${JSON.stringify(from)}, to: ${JSON.stringify(to)}, value: '0x1' }`
  const send = `(async () => {
      ${estimateFirst ? `await ethereum.request({ method: 'eth_estimateGas', params: [${tx}] })` : ''}
      ${estimateFirst ? `await new Promise((resolve) => setTimeout(resolve, ${NODE_ROUND_TRIP_MS}))` : ''}
      const at = performance.timeOrigin + performance.now()
      window.pending = ethereum
        .request({ method: 'eth_sendTransaction', params: [${tx}] })
        .then(() => 'sent', (error) => error.code)
      return at
    })()`
  const calledAt = (pressed ? await clickToSend(page, send) : await evaluate(page, send)) as number
  await new Promise((resolve) => setTimeout(resolve, FIRST_READ_MS))
  const shown = (await waitFor(control, READ_WINDOW, { everyMs: READ_EVERY_MS })) as {
    windowAt: number
    resultsAt: number
    action: string
  }
  if (shown.action !== 'NONE') throw new Error(`the window showed ${shown.action}, expected NONE`)
  const settled = await evaluate(page, 'window.pending')
  if (settled !== 4001) throw new Error(`closing the window should reject the request; the dapp got ${settled}`)
  return { window: shown.windowAt - calledAt, results: shown.resultsAt - calledAt }
}

/**
 * Warm and cold scan latencies, and cold after a gas estimate (which wakes the worker ahead of the request), in a
 * browser driven over a bare protocol pipe.
 */
async function scanLatencies(
  devnet: Devnet,
  dapp: Dapp,
): Promise<{
  warm: Latencies
  cold: Latencies
  coldPressed: Latencies
  coldAfterEstimate: Latencies
  coldWithoutScanner: Latencies
  slowWallet: Latencies
  coldSlowWallet: Latencies
  paused: Paused
}> {
  const from = devnet.fixtures.accounts[0]?.address ?? ''
  const to = devnet.fixtures.accounts[5]?.address ?? ''
  const chromium = await launchPipeChromium({ extensionDir: DIST })
  try {
    const worker = await chromium.waitForTarget(
      (target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'),
    )
    const control = await chromium.open(`chrome-extension://${new URL(worker.url).host}/src/extension/ui/options.html`)
    await waitFor(control, `document.readyState === 'complete'`)
    const settings = { rpcUrls: { '31337': devnet.fixtures.rpcUrl } }
    await evaluate(control, `chrome.storage.local.set({ settings: ${JSON.stringify(settings)} }).then(() => true)`)
    const page = await chromium.open(`${dapp.url}/`)
    await waitFor(page, `document.readyState === 'complete' && !!window.ethereum`)
    const warm = await latencies(() => scanLatency(page, control, from, to))
    const workers = await watchServiceWorkersOn(control)
    const coldRun =
      (how: { estimateFirst?: boolean; pressed?: boolean } = {}) =>
      async () => {
        const startsBefore = workers.starts()
        const ms = await scanLatency(page, control, from, to, how)
        if (workers.starts() === startsBefore) throw new Error('the request did not wake a stopped worker')
        return ms
      }
    // The page is in use, so its relay wakes the worker every KEEP_ALIVE_EVERY_MS: a pause it fell into starts over.
    // With `scannerToo`, the scanner page is closed as well, as after a browser start (it outlives the worker).
    const stopping = (scannerToo: boolean) => async () => {
      for (;;) {
        if (scannerToo && !(await evaluate(control, CLOSE_SCANNER))) throw new Error('the scanner page stayed open')
        await workers.stopAll()
        const starts = workers.starts()
        await new Promise((resolve) => setTimeout(resolve, IDLE_PAUSE_MS))
        if (workers.starts() === starts) return
      }
    }
    const cold = await latencies(coldRun(), stopping(false))
    const coldPressed = await latencies(coldRun({ pressed: true }), stopping(false))
    const coldAfterEstimate = await latencies(coldRun({ estimateFirst: true }), stopping(false))
    const coldWithoutScanner = await latencies(coldRun(), stopping(true))
    await evaluate(page, SLOW_WALLET)
    const slowWallet = await latencies(() => scanLatency(page, control, from, to))
    const coldSlowWallet = await latencies(coldRun(), stopping(false))
    await evaluate(page, 'delete window.beforeAnswer')
    const paused: Paused = { window: [], results: [], metStoppedWorker: 0 }
    for (let run = 0; run < PAUSED_RUNS; run++) {
      await new Promise((resolve) => setTimeout(resolve, PAUSED_FOR_MS))
      const startsBefore = workers.starts()
      const ms = await scanLatency(page, control, from, to)
      paused.window.push(ms.window)
      paused.results.push(ms.results)
      if (workers.starts() !== startsBefore) paused.metStoppedWorker++
    }
    return { warm, cold, coldPressed, coldAfterEstimate, coldWithoutScanner, slowWallet, coldSlowWallet, paused }
  } finally {
    await chromium.close()
  }
}

type Latencies = { window: number[]; results: number[] }
type Paused = Latencies & { metStoppedWorker: number }

/** BENCH_RUNS timed runs after BENCH_WARMUP; `before` runs ahead of each (e.g. stopping the worker). */
async function latencies(run: () => Promise<Run>, before: () => Promise<void> = async () => {}): Promise<Latencies> {
  const out: Latencies = { window: [], results: [] }
  for (let index = 0; index < WARMUP + RUNS; index++) {
    await before()
    const ms = await run()
    if (index < WARMUP) continue
    out.window.push(ms.window)
    out.results.push(ms.results)
  }
  return out
}

const summary = (samples: Latencies) => ({
  runs: samples.results.length,
  callToWindowMs: { p50: round(quantile(samples.window, 0.5)), p95: round(quantile(samples.window, 0.95)) },
  callToResultsMs: { p50: round(quantile(samples.results, 0.5)), p95: round(quantile(samples.results, 0.95)) },
})

// Plain script text (see MEASURE_PASS_THROUGH): starts the flood and stamps the moment a call first settles after
// window.__firstAt was cleared. Which call the window shows first is not always calls[0]: the hook asks the wallet for
// its accounts and chain before each call leaves the page, and those answers can come back in any order.
const START_FLOOD = `(({ count, account }) => {
  window.__firstAt = undefined
  const calls = Array.from({ length: count }, (_, index) =>
    ethereum.request({ method: 'personal_sign', params: ['0x' + index.toString(16).padStart(4, '0'), account] }))
  for (const call of calls) call.finally(() => { window.__firstAt ??= performance.timeOrigin + performance.now() })
  window.__flood = Promise.allSettled(calls)
})`

/** One flood run: ms from the click on Continue to the call it continued settling in the dapp. */
async function floodContinue(extension: Extension, page: Page, account: string): Promise<number> {
  const opened = nextConfirmWindow(extension.context)
  await page.evaluate(`${START_FLOOD}(${JSON.stringify({ count: FLOOD, account })})`)
  const confirm = await opened
  await confirm
    .getByTestId('queue-position')
    .filter({ hasText: `Request 1 of ${FLOOD}` })
    .waitFor({ timeout: 60_000 })
  await confirm.locator('[data-action]:not([data-action="PENDING"])').waitFor({ timeout: 20_000 })
  // Nothing settles before the click, unless it failed: such a call must not stand for the one continued.
  await page.evaluate(() => {
    ;(window as unknown as { __firstAt?: number }).__firstAt = undefined
  })
  const proceed = await armedContinue(confirm)
  const clickedAt = await confirm.evaluate(() => performance.timeOrigin + performance.now())
  await proceed.click()
  await page.waitForFunction(() => (window as unknown as { __firstAt?: number }).__firstAt, null, { polling: 5 })
  const firstAt = await page.evaluate(() => (window as unknown as { __firstAt: number }).__firstAt)
  await confirm.close()
  await page.evaluate(() => (window as unknown as { __flood: Promise<unknown> }).__flood)
  return firstAt - clickedAt
}

/**
 * The window's Continue once it can be clicked: it arms after a quiet moment once the results show (DecisionBar), a
 * wait of the person's, not of Preflight's, so the timed part starts after it.
 */
async function armedContinue(confirm: Page) {
  const proceed = confirm.getByRole('button', { name: 'Continue', exact: true, disabled: false })
  await proceed.waitFor({ timeout: 20_000 })
  return proceed
}

/**
 * One Continue: ms from the click on an armed Continue to the dapp's call settling. A transaction is scanned again
 * before it goes on (the re-check), a message is not: the two side by side are what the re-check costs.
 */
async function continueToDapp(extension: Extension, page: Page, call: string): Promise<number> {
  const opened = nextConfirmWindow(extension.context)
  // Not awaited in the page: the call settles only after the click.
  await page.evaluate(`window.__settledAt = undefined
    void ${call}.finally(() => { window.__settledAt = performance.timeOrigin + performance.now() })`)
  const confirm = await opened
  await confirm.locator('[data-action]:not([data-action="PENDING"])').waitFor({ timeout: 20_000 })
  const proceed = await armedContinue(confirm)
  const clickedAt = await confirm.evaluate(() => performance.timeOrigin + performance.now())
  await proceed.click()
  await page.waitForFunction(() => (window as unknown as { __settledAt?: number }).__settledAt, null, { polling: 5 })
  return (await page.evaluate(() => (window as unknown as { __settledAt: number }).__settledAt)) - clickedAt
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
    ;[devnet, dapp] = await Promise.all([startTestDevnet(), startDapp()])
    const from = devnet.fixtures.accounts[0]?.address ?? ''
    dapp.page('/', answerHoldingWalletPage(devnet.fixtures.rpcUrl, from))
    dapp.page('/empty', '<!doctype html><title>empty</title>')
    const { warm, cold, coldPressed, coldAfterEstimate, coldWithoutScanner, slowWallet, coldSlowWallet, paused } =
      await scanLatencies(devnet, dapp)

    extension = await launchExtension()
    await writeSettings(extension.context, { rpcUrls: { '31337': devnet.fixtures.rpcUrl } })
    const page = await extension.context.newPage()
    await page.goto(`${dapp.url}/`)
    const flood: number[] = []
    for (let run = 0; run < FLOOD_RUNS; run++) flood.push(await floodContinue(extension, page, from))
    const to = devnet.fixtures.accounts[5]?.address ?? ''
    const sendCall = `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${from}', to: '${to}', value: '0x1' }] })`
    const signCall = `ethereum.request({ method: 'personal_sign', params: ['0x6869', '${from}'] })`
    const continued = { transaction: [] as number[], message: [] as number[] }
    for (let run = 0; run < CONTINUE_RUNS; run++) {
      continued.transaction.push(await continueToDapp(extension, page, sendCall))
      continued.message.push(await continueToDapp(extension, page, signCall))
    }
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
      // The same, sent from a button the person presses for PRESS_MS: the press wakes the worker (wakeOnInput.ts).
      workerStoppedPressed: { ...summary(coldPressed), pressMs: PRESS_MS },
      // The same, with eth_estimateGas first (as dapp libraries send it), which wakes the worker ahead of the request.
      workerStoppedEstimateFirst: summary(coldAfterEstimate),
      // The worker stopped and the scanner page closed, as for the first request after the browser started.
      workerAndScannerStopped: summary(coldWithoutScanner),
      // The wallet takes WALLET_ANSWER_MS to say its accounts and chain, which the hook asks before it sends a request.
      slowWallet: {
        answerMs: WALLET_ANSWER_MS,
        workerRunning: summary(slowWallet),
        workerStopped: summary(coldSlowWallet),
      },
      // A request after an idle pause on a page in use: the worker kept running for it (keepAlive.ts).
      afterIdlePause: { ...summary(paused), pauseMs: PAUSED_FOR_MS, metStoppedWorker: paused.metStoppedWorker },
      floodContinueToDappMs: {
        requests: FLOOD,
        runs: flood.length,
        p50: round(quantile(flood, 0.5)),
        max: round(Math.max(...flood)),
        target: FLOOD_TARGET_MS,
      },
      // A transaction is scanned again on Continue (the re-check); a message is not.
      continueToDappMs: {
        runs: CONTINUE_RUNS,
        transaction: {
          p50: round(quantile(continued.transaction, 0.5)),
          max: round(Math.max(...continued.transaction)),
        },
        message: { p50: round(quantile(continued.message, 0.5)), max: round(Math.max(...continued.message)) },
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
