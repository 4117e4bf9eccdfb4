/** The `preflight` command: devnet | serve | scan | demo. Returns the process exit code. */
import { mkdirSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { runScan } from './commands/scan.ts'
import { DevnetError } from './devnet/anvil.ts'
import { startDevnet } from './devnet/devnet.ts'

const HELP = `preflight — simulate transactions and signatures before you sign them

Usage:
  preflight devnet --port P --fixtures FILE   anvil on 127.0.0.1:P with the fixture contracts; writes FILE when ready
  preflight serve --port Q --rpc CHAIN/NETWORK=URL … --api-key KEY
                                              the HTTP scan API
  preflight scan transactions|message --rpc URL
                                              scan one request read from stdin, print the response
  preflight demo [--open]                     devnet + built extension + demo dapp (what npm start runs)
  preflight --help                            this text
`

type Command = (args: string[]) => Promise<number>

const commands: Record<string, Command> = {
  devnet: runDevnet,
  demo: runDemo,
  scan: runScan,
}

/** Dispatches argv (without node and script) to a command; unknown input prints help to stderr and returns 2. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP)
    return 0
  }
  const command = commands[name]
  if (!command) {
    process.stderr.write(`preflight: unknown command "${name}"\n\n${HELP}`)
    return 2
  }
  try {
    return await command(rest)
  } catch (error) {
    process.stderr.write(`preflight ${name}: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

/** Parses a --port value, rejecting anything that is not a TCP port number. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`--port must be an integer between 1 and 65535, got "${value}"`)
  }
  return port
}

/** Blocks until SIGINT or SIGTERM, then runs `onStop`. */
function untilSignal(onStop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const handler = () => {
      process.off('SIGINT', handler)
      process.off('SIGTERM', handler)
      onStop().then(() => resolve(0))
    }
    process.on('SIGINT', handler)
    process.on('SIGTERM', handler)
  })
}

async function runDemo(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } } })
  const fixturesFile = '.preflight/fixtures.json'
  mkdirSync('.preflight', { recursive: true })
  process.stdout.write('The demo dapp and the extension build arrive with the extension issue; starting the devnet.\n')
  return runDevnet(['--port', values.port ?? '8545', '--fixtures', fixturesFile])
}

async function runDevnet(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, fixtures: { type: 'string' }, help: { type: 'boolean' } },
  })
  if (values.help) {
    process.stdout.write('preflight devnet --port P --fixtures FILE\n')
    return 0
  }
  const port = parsePort(values.port, 8545)
  try {
    const devnet = await startDevnet({ port, fixturesFile: values.fixtures })
    const { fixtures } = devnet
    process.stdout.write(
      [
        `devnet ready in ${fixtures.startupMs} ms on ${fixtures.rpcUrl} (chain ${fixtures.chainId})`,
        `  Safe ${fixtures.safe.address} (${fixtures.safe.threshold}-of-${fixtures.safe.owners.length}, v${fixtures.safe.version})`,
        `  ${fixtures.erc20.symbol} ${fixtures.erc20.address}   ${fixtures.weth.symbol} ${fixtures.weth.address}`,
        `  ERC-721 ${fixtures.erc721.address}   ERC-1155 ${fixtures.erc1155.address}`,
        `  drainer ${fixtures.drainer.address}`,
        values.fixtures ? `  fixtures written to ${values.fixtures}` : '  (no --fixtures file requested)',
        'Ctrl+C stops it.',
        '',
      ].join('\n'),
    )
    return await untilSignal(devnet.stop)
  } catch (error) {
    if (error instanceof DevnetError) {
      process.stderr.write(`preflight devnet: ${error.message}\n`)
      return 1
    }
    throw error
  }
}
