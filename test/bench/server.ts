/**
 * `npm run bench:server`: the compiled scan API under load on loopback against the devnet. For a plain transfer, a
 * Safe execTransaction under the MULTISIG_WALLET preset and a permit message: scans/s and p50/p99 latency at
 * concurrency 1, 8 and 32, beside the raw eth_simulateV1 calls those scans make, sent straight to the node; how much
 * of a scan's time, by the server's own log, was the node's and how much its own; the server's CPU per scan (all its
 * threads, and at c = 32 by thread); at c = 32, p99/p50 over several windows, each beside a window of the raw calls alone, and the time the server, the node and the
 * load generator waited for a core; start time and idle RSS; RSS over 10,000 scans; throughput by the cores the
 * server may use, against anvil and against a node replaying anvil's answers (replayNode.ts); side by side, the plain
 * transfer with each scan's node call sent alone (--node-batch 1) and batched (the default), and each scenario with
 * the main thread's young generation as V8 sizes it and as large as the scan threads'. The load comes from a process of
 * its own (loadClient.ts). A fixed piece of CPU work timed first (hostPace.ts) says how fast the host ran that day.
 * Each scenario is measured after BENCH_SERVER_WARMUP scans (default 3,000) of it, once the server's code is compiled,
 * and each concurrency after BENCH_LEVEL_WARMUP scans (default 1,000) at it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { startDevnet } from '../../src/devnet/devnet.ts'
import { scanMessage, scanTransactions } from '../../src/engine/index.ts'
import { SCAN_THREAD_SEMI_SPACE_MB } from '../../src/server/heapSettings.ts'
import { DEFAULT_NODE_BATCH } from '../../src/server/scanJob.ts'
import { defaultScanThreads } from '../../src/server/scanRunner.ts'
import { freePort } from '../support/devnet.ts'
import { hostPace } from './hostPace.ts'
import { type LoadResult, startLoadClient } from './loadClient.ts'
import { startReplayNode } from './replayNode.ts'
import { buildScenarios, permitMessage } from './scenarios.ts'
import { mean, quantile, sum, tailRatio } from './stats.ts'

const KEY = 'bench-key'
const PER_LEVEL = Number(process.env.BENCH_REQUESTS ?? 2_000)
/**
 * Scans of each scenario sent before it is measured. A fresh server spends its first few thousand scans compiling
 * (V8's optimising compiler alone took ~5.5 s of CPU over the first ~2,200 plain scans): measured inside that phase, a
 * scan's CPU is mostly the compiler's, and no server runs in it for long.
 */
const WARMUP = Number(process.env.BENCH_SERVER_WARMUP ?? 3_000)
/**
 * Scans sent at each concurrency before it is measured: a server that has just run at another concurrency takes a
 * while to settle (plain transfers at c = 1 right after c = 8: about 1.2–1.4 ms of CPU per scan in the first 200,
 * 0.75 ms after 2,000), and a row should show the level, not the change of level.
 */
const LEVEL_WARMUP = Number(process.env.BENCH_LEVEL_WARMUP ?? 1_000)
const SOAK = Number(process.env.BENCH_SOAK ?? 10_000)
const SOAK_STEP = 1_000
const CONCURRENCY = [1, 8, 32]
const TOP = CONCURRENCY[CONCURRENCY.length - 1] as number
/**
 * Windows of BENCH_REQUESTS scans measured at c = TOP for each scenario (the first is the table's row): one window's
 * p99 moves from run to run by more than any change made to it did, so the tail is read over several.
 */
const TAIL_WINDOWS = Number(process.env.BENCH_TAIL_WINDOWS ?? 5)
/** Alternating rounds per server when two are compared, each half a level. */
const ALTERNATING_ROUNDS = 4
/** The young generation NODE_OPTIONS gives the main thread in the last comparison: what serve gives its scan threads. */
const MAIN_SEMI_SPACE = `--max-semi-space-size=${SCAN_THREAD_SEMI_SPACE_MB}`
const TICKS_PER_SECOND = 100

type Target = { name: string; path: string; body: unknown; raw: string }

/** CPU seconds used so far by what a /proc stat file describes (a process, all its threads, or one thread). */
function cpuSecondsIn(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
}

/** CPU seconds the process has used so far, all threads (Linux /proc). */
function cpuSeconds(pid: number): number {
  return cpuSecondsIn(`/proc/${pid}/stat`)
}

/** CPU seconds so far of each of the process's threads, by thread id. */
function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    threads.set(Number(tid), cpuSecondsIn(`/proc/${pid}/task/${tid}/stat`))
  }
  return threads
}

/**
 * Where the process's CPU went between two readings, in ms per scan: its main thread (HTTP), its `scanThreads` scan
 * threads (the busiest of the others under scan load) and the rest (V8's collector helpers, libuv).
 */
function cpuByThread(
  pid: number,
  readings: { before: Map<number, number>; after: Map<number, number> },
  scans: number,
  scanThreads: number,
) {
  const used = [...readings.after].map(([tid, seconds]) => [tid, seconds - (readings.before.get(tid) ?? 0)] as const)
  const others = used.filter(([tid]) => tid !== pid).map(([, seconds]) => seconds)
  others.sort((a, b) => b - a)
  const perScan = (seconds: number) => (seconds * 1000) / scans
  return {
    main: perScan(used.find(([tid]) => tid === pid)?.[1] ?? 0),
    scan: perScan(sum(others.slice(0, scanThreads))),
    rest: perScan(sum(others.slice(scanThreads))),
  }
}

/**
 * Seconds the process's threads have spent so far runnable but waiting for a core (Linux schedstat): what a machine
 * with fewer cores than busy threads adds to every request.
 */
function waitingSeconds(pid: number): number {
  let waited = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      waited += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e9
    } catch {
      // A thread that ended between the listing and the read took its time with it.
    }
  }
  return waited
}

/** The pid of this process's child named `name` (anvil, which the devnet starts), or undefined. */
function childPid(name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const [comm, rest] = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')
      if (comm?.endsWith(`(${name}`) && Number(rest?.split(' ')[1]) === process.pid) return Number(entry)
    } catch {
      // Gone since the listing.
    }
  }
  return undefined
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return Number(line?.[1] ?? 0) / 1024
}

/** One stdout line of the server as JSON, or null when it is not. */
function parsedLogLine(line: string): { msg?: string; durationMs?: number; nodeMs?: number } | null {
  try {
    return JSON.parse(line)
  } catch {
    return null
  }
}

/** A scan's log line as the bench reads it: its time in the server and the part of it the node took. */
type ScanLine = { durationMs: number; nodeMs: number }

/**
 * Starts `preflight serve` on the devnet node; `cores`, when given, pins it to those CPUs (taskset), and `nodeOptions`
 * becomes its NODE_OPTIONS. The server's request log lines are kept: `scanLines(n)` waits for the first `n` (they are
 * written in blocks, at least every 250 ms) and returns them.
 */
async function startServer(
  rpcUrl: string,
  threads: number,
  extraArgs: string[] = [],
  placement: { cores?: string; nodeOptions?: string } = {},
) {
  const { cores, nodeOptions } = placement
  const port = await freePort()
  const started = performance.now()
  const command = [
    process.execPath,
    join(import.meta.dirname, '../../bin/preflight.mjs'),
    'serve',
    '--port',
    String(port),
    '--rpc',
    `ethereum/devnet=${rpcUrl}`,
    '--rate-limit',
    '100000000',
    '--threads',
    String(threads),
    ...extraArgs,
  ]
  const argv = cores === undefined ? command : ['taskset', '--cpu-list', cores, ...command]
  const child: ChildProcess = spawn(argv[0] as string, argv.slice(1), {
    env: {
      ...process.env,
      PREFLIGHT_API_KEYS: KEY,
      ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // A bench that fails half-way leaves no server behind.
  const orphaned = () => child.kill()
  process.once('exit', orphaned)
  child.once('exit', () => process.off('exit', orphaned))
  let stderr = ''
  // Log text is kept as it arrives and read into lines only when asked for, after a run: parsing each line as it came
  // was this process's work during the run, on the cores the server being measured shares.
  let unread: string[] = []
  let partial = ''
  const lines: ScanLine[] = []
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => unread.push(chunk))
  const readLines = () => {
    const complete = (partial + unread.join('')).split('\n')
    unread = []
    partial = complete.pop() ?? ''
    for (const line of complete) {
      // Every stdout line is a pino JSON line today; anything else is not a request's and is skipped.
      const entry = parsedLogLine(line)
      if (entry?.msg === 'request') lines.push({ durationMs: entry.durationMs ?? 0, nodeMs: entry.nodeMs ?? 0 })
    }
  }
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
      if (stderr.includes('listening on')) resolve()
    })
    child.once('exit', () => reject(new Error(`serve exited: ${stderr}`)))
  })
  const startMs = performance.now() - started
  const url = `http://127.0.0.1:${port}`
  const scanLines = async (count: number): Promise<ScanLine[]> => {
    readLines()
    for (let waited = 0; lines.length < count && waited < 5_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      readLines()
    }
    if (lines.length < count) throw new Error(`the server logged ${lines.length} requests of ${count}`)
    return lines.slice(0, count)
  }
  return { child, url, pid: child.pid as number, startMs, scanLines }
}

/** Sends SIGTERM and waits for the drain to end; says so if it takes longer than the scan timeout. */
async function stop(child: ChildProcess): Promise<void> {
  const started = performance.now()
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  const ms = performance.now() - started
  if (ms > 20_000) process.stdout.write(`  (the server took ${Math.round(ms)} ms to stop)\n`)
}

/** One run at one concurrency in a line: throughput, p50 and p99 (and their ratio), and the server's CPU per scan. */
/** p99/p50 of each window, how many are within 2×, and of all the windows' samples together. */
function tailSummary(windows: number[][], unit: string): string {
  const ratios = windows.map(tailRatio)
  const all = windows.flat()
  return `${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}× (${ratios.filter((ratio) => ratio <= 2).length} of ${ratios.length} within 2×; all ${all.length.toLocaleString('en')} ${unit} together ${tailRatio(all).toFixed(2)}×)`
}

function runSummary(latencies: number[], seconds: number, cpuMsPerScan: number): string {
  const [p50, p99] = [quantile(latencies, 0.5), quantile(latencies, 0.99)]
  return `${Math.round(latencies.length / seconds)} scans/s, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (${(p99 / p50).toFixed(2)}×), server CPU/scan ${cpuMsPerScan.toFixed(2)} ms`
}

/** True when `taskset` (util-linux) can pin a process to cores here. */
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--cpu-list', '0', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The one eth_simulateV1 body a scan sends, captured by running the engine once with a recording fetch. */
async function capture(rpcUrl: string, kind: 'transactions' | 'message', body: unknown): Promise<string> {
  let sent = ''
  const recording: typeof fetch = (input, init) => {
    const text = String(init?.body ?? '')
    if (text.includes('eth_simulateV1')) sent = text
    return fetch(input, init)
  }
  const options = { rpcUrl, fetch: recording }
  if (kind === 'transactions') await scanTransactions(body, options)
  else await scanMessage(body, options)
  return sent
}

async function main() {
  const devnet = await startDevnet({ port: await freePort() })
  const { fixtures } = devnet
  const rpcUrl = fixtures.rpcUrl
  const scenarios = buildScenarios(fixtures, [])
  const byName = (name: string) => {
    const found = scenarios.find((s) => s.name === name)
    if (found?.kind !== 'transactions') throw new Error(`no scenario ${name}`)
    return found.request
  }
  const [user] = fixtures.accounts.map((a) => a.address) as [Address]
  const permit = permitMessage(fixtures, user, fixtures.erc20.address, fixtures.accounts[5]?.address as Address)
  const targets: Target[] = []
  for (const [name, kind, body] of [
    ['plain transfer', 'transactions', byName('native transfer')],
    ['Safe execTransaction (preset)', 'transactions', byName('Safe exec: native transfer')],
    ['permit message', 'message', permit],
  ] as const) {
    targets.push({ name, path: `/ethereum/v0/devnet/scan/${kind}`, body, raw: await capture(rpcUrl, kind, body) })
  }

  const client = startLoadClient()
  type Server = Awaited<ReturnType<typeof startServer>>
  /** Requests each server has been sent, to find a run's log lines. */
  const sent = new Map<Server, number>()
  const scan = async (server: Server, target: Target, total: number, concurrency: number): Promise<LoadResult> => {
    const result = await client.send({
      url: `${server.url}${target.path}`,
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify(target.body),
      total,
      concurrency,
    })
    sent.set(server, (sent.get(server) ?? 0) + total)
    return result
  }
  const raw = (target: Target, total: number, concurrency: number) =>
    client.send({ url: rpcUrl, headers: { 'content-type': 'application/json' }, body: target.raw, total, concurrency })
  const p50p99 = (values: number[]) => `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.99).toFixed(1)}`

  const defaultThreads = Number(process.env.BENCH_THREADS ?? defaultScanThreads(availableParallelism()))
  const server = await startServer(rpcUrl, defaultThreads)
  const idleRss = rssMb(server.pid)

  // The runtime matters: Node 20's V8 and Node 24's differ in what they send to the old generation (docs/scan-api-load.md).
  process.stdout.write(
    `server (Node ${process.versions.node}): started in ${Math.round(server.startMs)} ms, idle RSS ${idleRss.toFixed(0)} MB\n`,
  )
  const paceDocument = (targets[0] as Target).raw
  process.stdout.write(
    `host pace: 5,000 JSON round trips of the plain scan's node call (${(paceDocument.length / 1024).toFixed(1)} KB) on one thread in ${hostPace(paceDocument).toFixed(0)} ms\n\n`,
  )
  process.stdout.write(
    '| scenario | c | scans/s | p50 ms | p99 ms | node wait p50 / p99 ms | server own p50 / p99 ms | server CPU/scan | raw simulate/s | raw p50 ms | raw p99 ms |\n',
  )
  process.stdout.write('|---|---|---|---|---|---|---|---|---|---|---|\n')
  const splits: string[] = []
  const waits: string[] = []
  const tails: string[] = []
  const anvil = childPid('anvil')
  const waited = [
    ['server', server.pid],
    ['node', anvil],
    ['load generator', client.pid],
  ] as const
  let plainSplit = { main: 0, scan: 0, rest: 0 }
  for (const target of targets) {
    await scan(server, target, WARMUP, 8)
    for (const concurrency of CONCURRENCY) {
      await scan(server, target, LEVEL_WARMUP, concurrency)
      // Runs do not overlap and every request logs one line, so a run's lines are the next PER_LEVEL after the count.
      const before = sent.get(server) ?? 0
      const cpuBefore = cpuSeconds(server.pid)
      const threadsBefore = threadCpuSeconds(server.pid)
      const waitingBefore = waited.map(([, pid]) => (pid === undefined ? 0 : waitingSeconds(pid)))
      const scans = await scan(server, target, PER_LEVEL, concurrency)
      const cpuMs = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / PER_LEVEL
      if (concurrency === TOP) {
        const readings = { before: threadsBefore, after: threadCpuSeconds(server.pid) }
        const split = cpuByThread(server.pid, readings, PER_LEVEL, defaultThreads)
        if (target === targets[0]) plainSplit = split
        const waitMs = waited.map(([label, pid], index) =>
          pid === undefined
            ? `${label} not read`
            : `${label} ${(((waitingSeconds(pid) - (waitingBefore[index] as number)) * 1000) / PER_LEVEL).toFixed(2)} ms`,
        )
        waits.push(`${target.name}: ${waitMs.join(', ')} (server CPU ${cpuMs.toFixed(2)} ms)`)
        splits.push(
          `${target.name} ${split.main.toFixed(2)} ms on the main thread, ${split.scan.toFixed(2)} on the scan thread(s), ${split.rest.toFixed(2)} on the others`,
        )
      }
      const logged = (await server.scanLines(before + PER_LEVEL)).slice(before)
      const direct = await raw(target, PER_LEVEL, concurrency)
      const row = [
        target.name,
        concurrency,
        Math.round(PER_LEVEL / scans.seconds),
        quantile(scans.latencies, 0.5).toFixed(2),
        quantile(scans.latencies, 0.99).toFixed(2),
        p50p99(logged.map((line) => line.nodeMs)),
        p50p99(logged.map((line) => line.durationMs - line.nodeMs)),
        `${cpuMs.toFixed(2)} ms`,
        Math.round(PER_LEVEL / direct.seconds),
        quantile(direct.latencies, 0.5).toFixed(2),
        quantile(direct.latencies, 0.99).toFixed(2),
      ]
      process.stdout.write(`| ${row.join(' | ')} |\n`)
      if (concurrency === TOP) {
        // The node alone in windows interleaved with the server's: every scan waits on it, so its own tail bounds theirs.
        const windows = [scans.latencies]
        const alone = [direct.latencies]
        while (windows.length < TAIL_WINDOWS) {
          windows.push((await scan(server, target, PER_LEVEL, TOP)).latencies)
          alone.push((await raw(target, PER_LEVEL, TOP)).latencies)
        }
        tails.push(
          `${target.name} ${tailSummary(windows, 'scans')}; its raw calls alone ${tailSummary(alone, 'calls')}`,
        )
      }
    }
  }

  process.stdout.write(`\nCPU per scan at c = ${TOP} by thread: ${splits.join('; ')}.\n`)
  process.stdout.write(`Waiting for a core at c = ${TOP}, per scan (all threads of each): ${waits.join('; ')}.\n`)
  process.stdout.write(
    `p99/p50 at c = ${TOP} in ${TAIL_WINDOWS} windows of ${PER_LEVEL.toLocaleString('en')} scans, each followed by as many raw calls (the first are the table's): ${tails.join('; ')}.\n`,
  )
  if (defaultThreads > 0 && plainSplit.main > 0) {
    // From CPU alone: the main thread serves every scan, so past the cores that keep it busy, more cores add nothing.
    const threadsToFill = Math.ceil(plainSplit.scan / plainSplit.main)
    process.stdout.write(
      `Plain transfers from CPU alone: the main thread caps a process at about ${(Math.round(10 / plainSplit.main) * 100).toLocaleString('en')} scans/s, which ${threadsToFill} scan thread(s) reach (${threadsToFill + 1} cores); past that, run more processes.\n`,
    )
  }

  const plain = targets[0] as Target
  // Read every SOAK_STEP scans: the heap's own saw-tooth (collections, young generation resizing) moves RSS by tens of
  // MB either way, so two readings alone can show a leak or hide one. A leak shows as the later half sitting higher.
  const rss = [rssMb(server.pid)]
  for (let done = 0; done < SOAK; done += SOAK_STEP) {
    await scan(server, plain, Math.min(SOAK_STEP, SOAK - done), 8)
    rss.push(rssMb(server.pid))
  }
  const half = Math.ceil(rss.length / 2)
  const [first, last] = [rss[0] as number, rss[rss.length - 1] as number]
  const percent = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)} %`
  process.stdout.write(
    `\nRSS over ${SOAK} plain scans, read every ${SOAK_STEP}: ${rss.map((mb) => mb.toFixed(0)).join(' ')} MB; ` +
      `first to last ${percent(first, last)}, mean of the later half against the earlier ` +
      `${percent(mean(rss.slice(0, half)), mean(rss.slice(half)))}\n`,
  )
  await stop(server.child)

  // The server pinned to its first k cores, with the scan threads a k-core machine gets by default; the node and the
  // load generator run where the scheduler puts them, on any core. Against anvil, the server and anvil share those
  // cores; the replaying node answers for almost no CPU, which leaves them to the server.
  const pinnable = hasTaskset()
  const replay = await startReplayNode(rpcUrl)
  const nodes = [
    ['anvil', rpcUrl, null],
    ["a node replaying anvil's answers", replay.url, replay.pid],
  ] as const
  for (const [label, node, nodePid] of nodes) {
    process.stdout.write(
      `\nplain transfer at c = ${TOP} against ${label}, by the cores the server may use (taskset):\n`,
    )
    if (!pinnable) process.stdout.write('  skipped: no taskset on this machine (util-linux)\n')
    for (let cores = 1; pinnable && cores <= availableParallelism(); cores += 1) {
      const threads = defaultScanThreads(cores)
      const one = await startServer(node, threads, [], { cores: `0-${cores - 1}` })
      await scan(one, plain, WARMUP, 8)
      await scan(one, plain, LEVEL_WARMUP, TOP)
      // What the load generator and the replaying node took of the same cores, per scan (anvil's CPU is not read).
      const others = nodePid === null ? [client.pid] : [client.pid, nodePid]
      const before = [one.pid, ...others].map(cpuSeconds)
      const run = await scan(one, plain, PER_LEVEL, TOP)
      const [cpuMs, generatorMs, nodeMs] = [one.pid, ...others].map(
        (pid, index) => ((cpuSeconds(pid) - (before[index] as number)) * 1000) / PER_LEVEL,
      )
      const helpers = `load generator ${generatorMs?.toFixed(2)} ms${nodeMs === undefined ? '' : `, node ${nodeMs.toFixed(2)} ms`}`
      process.stdout.write(
        `  ${cores} core(s), --threads ${threads}: ${runSummary(run.latencies, run.seconds, cpuMs as number)} (${helpers})\n`,
      )
      await stop(one.child)
    }
  }
  replay.close()

  // Side by side, rounds alternating, since the machine's pace drifts more within minutes than the difference.
  const alternating = async (servers: Server[], target: Target, rounds: number) => {
    const results = servers.map(() => ({ cpu: 0, seconds: 0, latencies: [] as number[] }))
    for (const one of servers) await scan(one, target, WARMUP, 8)
    for (const one of servers) await scan(one, target, LEVEL_WARMUP, TOP)
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, one] of servers.entries()) {
        const cpuBefore = cpuSeconds(one.pid)
        const run = await scan(one, target, PER_LEVEL / 2, TOP)
        const result = results[index] as (typeof results)[number]
        result.cpu += cpuSeconds(one.pid) - cpuBefore
        result.seconds += run.seconds
        result.latencies.push(...run.latencies)
      }
    }
    return results.map(({ cpu, seconds, latencies }) => runSummary(latencies, seconds, (cpu * 1000) / latencies.length))
  }

  process.stdout.write(
    `\nplain transfer at c = ${TOP} by --node-batch (default ${DEFAULT_NODE_BATCH}), rounds alternating:\n`,
  )
  const batches = [1, DEFAULT_NODE_BATCH]
  const batchServers = await Promise.all(
    batches.map((batch) => startServer(rpcUrl, defaultThreads, ['--node-batch', String(batch)])),
  )
  const byBatch = await alternating(batchServers, plain, ALTERNATING_ROUNDS)
  for (const [index, batch] of batches.entries()) process.stdout.write(`  --node-batch ${batch}: ${byBatch[index]}\n`)
  await Promise.all(batchServers.map((one) => stop(one.child)))

  // serve sizes its scan threads' young generation itself; the main thread's was sized when the process started, and
  // only NODE_OPTIONS reaches it (docs/scan-api-load.md, "Young objects kept young").
  const semiSpaces = [undefined, MAIN_SEMI_SPACE] as const
  const servers = await Promise.all(
    semiSpaces.map((nodeOptions) => startServer(rpcUrl, defaultThreads, [], { nodeOptions })),
  )
  process.stdout.write(`\nat c = ${TOP} by the main thread's young generation, rounds alternating:\n`)
  for (const target of targets) {
    const bySemiSpace = await alternating(servers, target, ALTERNATING_ROUNDS)
    for (const [index, nodeOptions] of semiSpaces.entries()) {
      const label = nodeOptions === undefined ? "V8's default" : `NODE_OPTIONS=${nodeOptions}`
      process.stdout.write(`  ${target.name}, ${label}: ${bySemiSpace[index]}\n`)
    }
  }
  await Promise.all(servers.map((one) => stop(one.child)))
  client.close()
  await devnet.stop()
}

await main()
