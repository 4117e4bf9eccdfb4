/** `preflight serve`: the HTTP scan API on a port, until SIGINT or SIGTERM. */
import { parseNetworks } from '../server/networks.ts'
import { startScanServer } from '../server/server.ts'
import { checkChain } from './chainCheck.ts'
import { parseCommandLine, portOption, stopSignal, UsageError, withUsageErrors } from './options.ts'

const USAGE = `preflight serve --port Q --rpc CHAIN/NETWORK=URL … --api-key KEY …

  --port Q                     TCP port (default 8080); 0 picks a free one
  --host H                     interface to listen on (default 127.0.0.1)
  --rpc CHAIN/NETWORK=URL      node for one chain/network, e.g. ethereum/mainnet=https://… (repeatable)
  --api-key KEY                an accepted X-Api-Key value (repeatable); PREFLIGHT_API_KEYS adds a comma list
`

/** Parses argv, starts the server and blocks until a stop signal; 0 after a clean stop, 2 on bad usage. */
export function runServe(argv: string[]): Promise<number> {
  return withUsageErrors('serve', USAGE, () => serve(argv))
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      rpc: { type: 'string', multiple: true },
      'api-key': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  })
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
  if (apiKeys.length === 0) {
    process.stderr.write(`preflight serve: give at least one --api-key KEY (or PREFLIGHT_API_KEYS)\n\n${USAGE}`)
    return 2
  }

  // A wrong node is a mistake worth shouting about, but not fatal: the node may just be down for now.
  const checks = await Promise.all([...networks].map(([pair, url]) => checkChain(pair, url, true)))
  for (const check of checks) {
    if (!check.ok) process.stderr.write(`preflight serve: warning: ${check.message}\n`)
  }

  const server = await startScanServer({
    port,
    host: values.host ?? '127.0.0.1',
    networks,
    apiKeys,
  })
  process.stdout.write(
    [
      `scan API listening on ${server.url}`,
      ...[...networks].map(([pair, url]) => `  ${server.url}/${pair.replace('/', '/v0/')}/scan/transactions → ${url}`),
      `  ${apiKeys.length} API key(s) accepted; Ctrl+C stops it.`,
      '',
    ].join('\n'),
  )
  await stopSignal()
  await server.close()
  return 0
}
