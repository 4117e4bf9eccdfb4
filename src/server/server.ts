/**
 * Starts and stops the scan API: the Fastify app listening on a port, its scan threads and its counter store, and a
 * drain on stop that lets the scans in flight finish (each bounded by the scan timeout) before the process lets go.
 */
import { buildApp, MAX_BODY_BYTES } from './app.ts'
import { type KeySet, keySet } from './keys.ts'
import { type CounterStore, memoryStore, redisStore } from './rateLimit.ts'
import { inlineRunner, type ScanRunner, threadRunner } from './scanRunner.ts'

export type ServerConfig = {
  /** "chain/network" (lowercase) → JSON-RPC URL of a node that supports eth_simulateV1. */
  networks: ReadonlyMap<string, string>
  /** Accepted `X-Api-Key` values, in plaintext (tests, --api-key, PREFLIGHT_API_KEYS). */
  apiKeys?: readonly string[]
  /** Accepted keys by their hex SHA-256 (--api-keys-file). */
  apiKeyHashes?: readonly string[]
  /** Scan requests per key per minute (default 600). */
  rateLimit?: number
  /** Wrong keys per client address per minute before the address is refused for the rest of the minute (default 20). */
  authFailureLimit?: number
  /** Redis URL for counters shared by several processes; in memory when absent. */
  redisUrl?: string
  /** Scan threads: 0 scans on the main thread. Threads need the compiled server (`build/`), see scanThreadsFile. */
  threads?: number
  /** The compiled scan worker; required when `threads` > 0. */
  workerFile?: URL
  /** Longest a scan may take before the client gets 504 (default 20 s). */
  scanTimeoutMs?: number
  bodyTimeoutMs?: number
  maxBodyBytes?: number
  /** Longest a client may take to send a request's headers (default 10 s). */
  headersTimeoutMs?: number
  /**
   * Open connections the server keeps at most (default DEFAULT_MAX_CONNECTIONS); more are closed as they arrive, so
   * that idle or slow clients cannot take every file descriptor the node calls and the logs need.
   */
  maxConnections?: number
  /** Proxies trusted to name the client (`--trust-proxy`), see AppConfig.trustProxy. */
  trustProxy?: string
  /** Where JSON log lines go (stdout by default). */
  logStream?: NodeJS.WritableStream
  /** Runs the scans instead of the engine: a test's stand-in for a failing engine. */
  runner?: ScanRunner
  /**
   * Transaction scans also run the transactions as a block runs them and warn SIMULATION_EVASION when that leaves the
   * user worse off: one more node call per scan that runs code (`--probe-environment`).
   */
  probeEnvironment?: boolean
  /** The most node calls of a thread's scans that travel in one JSON-RPC batch (default DEFAULT_NODE_BATCH). */
  nodeBatch?: number
}

export type RunningServer = {
  url: string
  port: number
  /** Drains: refuses new scans, lets those in flight finish (or cancels them at the scan timeout), then closes. */
  close: () => Promise<void>
}

/** Open connections kept at most unless told otherwise: far more than a scan API's clients hold, far fewer than 20,000 descriptors. */
export const DEFAULT_MAX_CONNECTIONS = 5_000

/** Creates the server and listens on host:port (port 0 picks a free one). */
export async function startScanServer(config: ServerConfig & { port: number; host?: string }): Promise<RunningServer> {
  const keys: KeySet = keySet(config.apiKeys ?? [], config.apiKeyHashes ?? [])
  if (keys.hashes.size === 0) throw new Error('the scan API needs at least one API key')
  const store: CounterStore = config.redisUrl ? redisStore(config.redisUrl) : memoryStore()
  const threads = config.threads ?? 0
  if (threads > 0 && !config.workerFile) throw new Error('scan threads need the compiled worker file')
  const runner: ScanRunner =
    config.runner ?? (threads > 0 && config.workerFile ? threadRunner(threads, config.workerFile) : inlineRunner())
  const scanTimeoutMs = config.scanTimeoutMs ?? 20_000
  const { app, startDraining, cancelScans, requestsAnswered } = buildApp({
    networks: config.networks,
    keys,
    runner,
    store,
    rateLimit: config.rateLimit ?? 600,
    authFailureLimit: config.authFailureLimit ?? 20,
    scanTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs ?? 10_000,
    maxBodyBytes: config.maxBodyBytes ?? MAX_BODY_BYTES,
    ...(config.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: config.headersTimeoutMs }),
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    ...(config.logStream ? { logStream: config.logStream } : {}),
    ...(config.probeEnvironment ? { probeEnvironment: true } : {}),
    ...(config.nodeBatch === undefined ? {} : { nodeBatch: config.nodeBatch }),
  })
  if (!(await store.ready(2_000)))
    app.log.warn({ msg: 'the rate-limit store is not reachable yet; requests are let through until it is' })
  const host = config.host ?? '127.0.0.1'
  app.server.maxConnections = config.maxConnections ?? DEFAULT_MAX_CONNECTIONS
  await app.listen({ port: config.port, host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  let closing: Promise<void> | null = null
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closing ??= (async () => {
        startDraining()
        // Scans end by themselves within the scan timeout; past it (and a grace second) they are cancelled.
        const cutoff = setTimeout(() => {
          cancelScans()
          app.server.closeAllConnections()
        }, scanTimeoutMs + 1_000)
        const closed = app.close()
        // Once every request has its answer, a connection still open holds only one that never finished arriving
        // (headers or a body sent slowly): it would have held the stop until the cutoff.
        await requestsAnswered()
        app.server.closeAllConnections()
        await closed
        clearTimeout(cutoff)
        await runner.close()
        await store.close()
      })()
      return closing
    },
  }
}
