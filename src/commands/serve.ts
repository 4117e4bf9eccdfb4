/** `preflight serve`: the HTTP scan API on a port, until SIGINT or SIGTERM (which drain it first). */
import { existsSync } from 'node:fs'
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { applyHeapSettings } from '../server/heapSettings.ts'
import { readKeysFile } from '../server/keys.ts'
import { parseNetworks } from '../server/networks.ts'
import { DEFAULT_NODE_BATCH } from '../server/scanJob.ts'
import { defaultScanThreads } from '../server/scanRunner.ts'
import { DEFAULT_MAX_CONNECTIONS, startScanServer } from '../server/server.ts'
import { checkChain } from './chainCheck.ts'
import { listenForStop, parseCommandLine, portOption, UsageError, withUsageErrors } from './options.ts'

const USAGE = `preflight serve --port Q --rpc CHAIN/NETWORK=URL … --api-key KEY … [--rate-limit N] [--redis URL]

  --port Q                     TCP port (default 8080); 0 picks a free one
  --host H                     interface to listen on (default 127.0.0.1)
  --rpc CHAIN/NETWORK=URL      node for one chain/network, e.g. ethereum/mainnet=https://… (repeatable)
  --api-key KEY                an accepted X-Api-Key value (repeatable); visible in the process list until the
                               server starts, so prefer PREFLIGHT_API_KEYS=a,b or --api-keys-file
  --api-keys-file FILE         accepted keys as hex SHA-256 hashes, one per line (printf %s KEY | sha256sum)
  --rate-limit N               scan requests per minute per key (default 600)
  --redis URL                  keep rate-limit counters in Redis (redis://host:6379), shared by several processes
  --threads N                  scan threads (default: one per core but the main thread's, ${defaultScanThreads(availableParallelism())} here);
                               0 scans on the main thread
  --node-batch N               the most node calls that scans made in the same moment send as one JSON-RPC batch
                               (default ${DEFAULT_NODE_BATCH}); 1 sends each call alone, for a node that runs a batch's
                               calls one after another (geth); a node that refuses a batch gets its calls again in
                               batches half as large, and every later call in batches of that size
  --scan-timeout S             seconds before a scan is answered 504 and its node calls cancelled (default 20)
  --max-connections N          open connections kept at most; more are closed as they arrive (default ${DEFAULT_MAX_CONNECTIONS})
  --trust-proxy LIST           load balancers or proxies trusted to name the client in X-Forwarded-For, as addresses
                               and CIDR ranges (10.0.0.0/8,127.0.0.1); without it, every client behind one is the
                               balancer, and one client's wrong keys get the balancer's address refused
  --probe-environment          also run each transaction scan's transactions as a block runs them (a real gas price
                               and base fee, a wallet's gas, the next block's number and time, fresh randomness) and
                               warn SIMULATION_EVASION when that leaves the user worse off than the simulation
                               shows: one more node call per scan that runs code
`

/** The compiled scan worker beside the compiled command (build/); absent when running from the TypeScript sources. */
const WORKER_FILE = new URL('./scanWorker.mjs', import.meta.url)

/** Parses argv, starts the server and blocks until a stop signal; 0 after a clean stop, 2 on bad usage. */
export function runServe(argv: string[]): Promise<number> {
  return withUsageErrors('serve', USAGE, () => serve(argv))
}

function positiveInteger(flag: string, value: string | undefined, fallback: number, lowest = 1): number {
  if (value === undefined) return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < lowest) {
    throw new UsageError(`--${flag} must be an integer of at least ${lowest}, got "${value}"`)
  }
  return number
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      rpc: { type: 'string', multiple: true },
      'api-key': { type: 'string', multiple: true },
      'api-keys-file': { type: 'string' },
      'rate-limit': { type: 'string' },
      redis: { type: 'string' },
      threads: { type: 'string' },
      'scan-timeout': { type: 'string' },
      'max-connections': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'node-batch': { type: 'string' },
      'probe-environment': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  // Keys given on the command line stay in the process list for as long as it runs: overwrite it.
  process.title = 'preflight serve'
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const port = portOption('port', values.port, 8080, 0)
  let networks: Map<string, string>
  try {
    networks = parseNetworks(values.rpc ?? [])
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  if (networks.size === 0) {
    process.stderr.write(`preflight serve: give at least one --rpc CHAIN/NETWORK=URL\n\n${USAGE}`)
    return 2
  }
  const apiKeys = [...(values['api-key'] ?? []), ...(process.env.PREFLIGHT_API_KEYS ?? '').split(',')]
    .map((key) => key.trim())
    .filter((key) => key !== '')
  let apiKeyHashes: string[] = []
  if (values['api-keys-file'] !== undefined) {
    const file = readKeysFile(values['api-keys-file'])
    if (!file.ok) throw new UsageError(file.error)
    apiKeyHashes = file.hashes
  }
  if (apiKeys.length + apiKeyHashes.length === 0) {
    process.stderr.write(
      `preflight serve: give at least one --api-key KEY, PREFLIGHT_API_KEYS or --api-keys-file FILE\n\n${USAGE}`,
    )
    return 2
  }
  if (values.redis !== undefined && !/^rediss?:\/\//.test(values.redis)) {
    throw new UsageError(`--redis must be a redis:// or rediss:// URL, got "${values.redis}"`)
  }
  const rateLimit = positiveInteger('rate-limit', values['rate-limit'], 600)
  const scanTimeoutMs = positiveInteger('scan-timeout', values['scan-timeout'], 20) * 1000
  const nodeBatch = positiveInteger('node-batch', values['node-batch'], DEFAULT_NODE_BATCH)
  const maxConnections = positiveInteger('max-connections', values['max-connections'], DEFAULT_MAX_CONNECTIONS)
  const trustProxy = values['trust-proxy']
  if (trustProxy !== undefined && !isAddressList(trustProxy)) {
    throw new UsageError(
      `--trust-proxy takes IP addresses and CIDR ranges separated by commas (10.0.0.0/8,127.0.0.1), got "${trustProxy.slice(0, 80)}"`,
    )
  }
  const compiled = existsSync(fileURLToPath(WORKER_FILE))
  const threads = compiled
    ? positiveInteger('threads', values.threads, defaultScanThreads(availableParallelism()), 0)
    : 0

  // A wrong node is a mistake worth shouting about, but not fatal: the node may just be down for now.
  const checks = await Promise.all([...networks].map(([pair, url]) => checkChain(pair, url, true)))
  for (const check of checks) {
    if (!check.ok) process.stderr.write(`preflight serve: warning: ${check.message}\n`)
  }
  if ((values['api-key'] ?? []).length > 0) {
    process.stderr.write(
      'preflight serve: warning: --api-key puts the key in your shell history; prefer PREFLIGHT_API_KEYS or --api-keys-file\n',
    )
  }

  // Before the scan threads start, so their heaps are set up with it.
  applyHeapSettings()
  // Nothing needs stopping before this point, so a signal during the chain checks just ends the process.
  const stop = listenForStop()
  let server: Awaited<ReturnType<typeof startScanServer>>
  try {
    server = await startScanServer({
      port,
      host: values.host ?? '127.0.0.1',
      networks,
      apiKeys,
      apiKeyHashes,
      rateLimit,
      scanTimeoutMs,
      threads,
      workerFile: WORKER_FILE,
      nodeBatch,
      maxConnections,
      ...(trustProxy === undefined ? {} : { trustProxy }),
      ...(values.redis ? { redisUrl: values.redis } : {}),
      ...(values['probe-environment'] ? { probeEnvironment: true } : {}),
    })
  } catch (error) {
    stop.close()
    throw error
  }
  if (stop.received()) {
    await server.close()
    return 0
  }
  process.stderr.write(
    [
      `scan API listening on ${server.url} (${threads === 0 ? 'scans on the main thread' : `${threads} scan threads`}, rate limit ${rateLimit}/min per key, counters ${values.redis ? 'in Redis' : 'in memory'}${values['probe-environment'] ? ', environment probe on' : ''})`,
      ...[...networks.keys()].map((pair) => `  ${server.url}/${pair.replace('/', '/v0/')}/scan/transactions`),
      `  ${apiKeys.length + apiKeyHashes.length} API key(s) accepted; docs at ${server.url}/docs; Ctrl+C stops it.`,
      '',
    ].join('\n'),
  )
  await stop.signal
  await server.close()
  return 0
}

/** Whether `text` lists IP addresses or CIDR ranges, separated by commas. */
function isAddressList(text: string): boolean {
  return text.split(',').every((entry) => {
    const [address = '', bits, ...rest] = entry.trim().split('/')
    const version = isIP(address)
    if (version === 0 || rest.length > 0) return false
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
  })
}
