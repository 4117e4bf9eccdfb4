/**
 * `npm run bench:server`: the compiled scan API under load on loopback against the devnet. For a plain transfer, a
 * Safe execTransaction under the MULTISIG_WALLET preset and a permit message: scans/s and p50/p99 latency at
 * concurrency 1, 8 and 32, beside the raw eth_simulateV1 calls those scans make, sent straight to the node; the
 * server's CPU per scan (all its threads); start time and idle RSS; RSS over 10,000 scans; throughput by thread count;
 * the plain transfer with each scan's node call sent alone (--node-batch 1) and batched (the default), side by side.
 * Each scenario is measured after BENCH_SERVER_WARMUP scans (default 3,000) of it, once the server's code is compiled,
 * and each concurrency after BENCH_LEVEL_WARMUP scans (default 1,000) at it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { startDevnet } from '../../src/devnet/devnet.ts'
import { scanMessage, scanTransactions } from '../../src/engine/index.ts'
import { DEFAULT_NODE_BATCH } from '../../src/server/scanJob.ts'
import { defaultScanThreads } from '../../src/server/scanRunner.ts'
import { freePort } from '../support/devnet.ts'
import { buildScenarios, permitMessage } from './scenarios.ts'
import { quantile } from './stats.ts'

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
/** Alternating rounds of half a level each, per node batch size. */
const BATCH_ROUNDS = 4
const TICKS_PER_SECOND = 100

type Target = { name: string; path: string; body: unknown; raw: string }

/** CPU seconds the process has used so far, all threads (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return Number(line?.[1] ?? 0) / 1024
}

/** Sends `total` requests with `concurrency` in flight; latencies in ms and the wall time. */
async function load(send: () => Promise<void>, total: number, concurrency: number) {
  const latencies: number[] = []
  let started = 0
  const begin = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1
        const t0 = performance.now()
        await send()
        latencies.push(performance.now() - t0)
      }
    }),
  )
  return { latencies, seconds: (performance.now() - begin) / 1000 }
}

async function startServer(rpcUrl: string, threads: number, extraArgs: string[] = []) {
  const port = await freePort()
  const started = performance.now()
  const child: ChildProcess = spawn(
    process.execPath,
    [
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
    ],
    { env: { ...process.env, PREFLIGHT_API_KEYS: KEY }, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
      if (stderr.includes('listening on')) resolve()
    })
    child.once('exit', () => reject(new Error(`serve exited: ${stderr}`)))
  })
  const startMs = performance.now() - started
  const url = `http://127.0.0.1:${port}`
  return { child, url, pid: child.pid as number, startMs }
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

  const defaultThreads = Number(process.env.BENCH_THREADS ?? defaultScanThreads(availableParallelism()))
  const server = await startServer(rpcUrl, defaultThreads)
  const idleRss = rssMb(server.pid)
  const post =
    (target: Target, url = server.url) =>
    async () => {
      const response = await fetch(`${url}${target.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify(target.body),
      })
      if (response.status !== 200) throw new Error(`${target.name}: ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
    }
  const raw = (target: Target) => async () => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: target.raw,
    })
    await response.arrayBuffer()
  }

  process.stdout.write(`server: started in ${Math.round(server.startMs)} ms, idle RSS ${idleRss.toFixed(0)} MB\n\n`)
  process.stdout.write(
    '| scenario | c | scans/s | p50 ms | p99 ms | server CPU/scan | raw simulate/s | raw p50 ms | raw p99 ms |\n',
  )
  process.stdout.write('|---|---|---|---|---|---|---|---|---|\n')
  for (const target of targets) {
    await load(post(target), WARMUP, 8)
    for (const concurrency of CONCURRENCY) {
      await load(post(target), LEVEL_WARMUP, concurrency)
      const cpuBefore = cpuSeconds(server.pid)
      const scans = await load(post(target), PER_LEVEL, concurrency)
      const cpuMs = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / PER_LEVEL
      const direct = await load(raw(target), PER_LEVEL, concurrency)
      const row = [
        target.name,
        concurrency,
        Math.round(PER_LEVEL / scans.seconds),
        quantile(scans.latencies, 0.5).toFixed(2),
        quantile(scans.latencies, 0.99).toFixed(2),
        `${cpuMs.toFixed(2)} ms`,
        Math.round(PER_LEVEL / direct.seconds),
        quantile(direct.latencies, 0.5).toFixed(2),
        quantile(direct.latencies, 0.99).toFixed(2),
      ]
      process.stdout.write(`| ${row.join(' | ')} |\n`)
    }
  }

  const plain = targets[0] as Target
  // Read every SOAK_STEP scans: the heap's own saw-tooth (collections, young generation resizing) moves RSS by tens of
  // MB either way, so two readings alone can show a leak or hide one. A leak shows as the later half sitting higher.
  const rss = [rssMb(server.pid)]
  for (let done = 0; done < SOAK; done += SOAK_STEP) {
    await load(post(plain), Math.min(SOAK_STEP, SOAK - done), 8)
    rss.push(rssMb(server.pid))
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
  const half = Math.ceil(rss.length / 2)
  const [first, last] = [rss[0] as number, rss[rss.length - 1] as number]
  const percent = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)} %`
  process.stdout.write(
    `\nRSS over ${SOAK} plain scans, read every ${SOAK_STEP}: ${rss.map((mb) => mb.toFixed(0)).join(' ')} MB; ` +
      `first to last ${percent(first, last)}, mean of the later half against the earlier ` +
      `${percent(mean(rss.slice(0, half)), mean(rss.slice(half)))}\n`,
  )
  await stop(server.child)

  process.stdout.write('\nplain transfer at c = 32 by scan threads:\n')
  // Up to one thread per core, so a bigger machine shows how throughput grows with its cores.
  for (let threads = 0; threads <= availableParallelism(); threads += 1) {
    const one = await startServer(rpcUrl, threads)
    await load(post(plain, one.url), WARMUP, 8)
    const run = await load(post(plain, one.url), PER_LEVEL, 32)
    process.stdout.write(
      `  --threads ${threads}: ${Math.round(PER_LEVEL / run.seconds)} scans/s, p50 ${quantile(run.latencies, 0.5).toFixed(2)} ms, p99 ${quantile(run.latencies, 0.99).toFixed(2)} ms\n`,
    )
    await stop(one.child)
  }

  // Side by side, rounds alternating, since the machine's pace drifts more within minutes than the difference.
  process.stdout.write(
    `\nplain transfer at c = 32 by --node-batch (default ${DEFAULT_NODE_BATCH}), rounds alternating:\n`,
  )
  const batches = [1, DEFAULT_NODE_BATCH]
  const servers = await Promise.all(
    batches.map((batch) => startServer(rpcUrl, defaultThreads, ['--node-batch', String(batch)])),
  )
  const results = servers.map(() => ({ cpu: 0, seconds: 0, latencies: [] as number[] }))
  for (const one of servers) await load(post(plain, one.url), WARMUP, 8)
  for (let round = 0; round < BATCH_ROUNDS; round += 1) {
    for (const [index, one] of servers.entries()) {
      const cpuBefore = cpuSeconds(one.pid)
      const run = await load(post(plain, one.url), PER_LEVEL / 2, 32)
      const result = results[index] as (typeof results)[number]
      result.cpu += cpuSeconds(one.pid) - cpuBefore
      result.seconds += run.seconds
      result.latencies.push(...run.latencies)
    }
  }
  for (const [index, batch] of batches.entries()) {
    const { cpu, seconds, latencies } = results[index] as (typeof results)[number]
    const scans = latencies.length
    process.stdout.write(
      `  --node-batch ${batch}: ${Math.round(scans / seconds)} scans/s, p50 ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms, server CPU/scan ${((cpu * 1000) / scans).toFixed(2)} ms\n`,
    )
  }
  await Promise.all(servers.map((one) => stop(one.child)))
  await devnet.stop()
}

await main()
