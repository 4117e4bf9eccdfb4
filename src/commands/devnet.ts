/** `preflight devnet --port P --fixtures FILE`: anvil with the fixtures deployed, until SIGINT/SIGTERM. */
import { DevnetError } from '../devnet/anvil.ts'
import { startDevnet } from '../devnet/devnet.ts'
import { parseCommandLine, portOption, stopSignal, withUsageErrors } from './options.ts'

const USAGE = 'preflight devnet [--port P (default 8545)] [--fixtures FILE]\n'

/** Runs the devnet command; 0 after a clean stop, 1 when the devnet cannot start (port in use, no anvil), 2 on bad usage. */
export function runDevnet(argv: string[]): Promise<number> {
  return withUsageErrors('devnet', USAGE, () => devnet(argv))
}

async function devnet(argv: string[]): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    options: { port: { type: 'string' }, fixtures: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const port = portOption('port', values.port, 8545)
  let running: Awaited<ReturnType<typeof startDevnet>>
  try {
    running = await startDevnet({ port, fixturesFile: values.fixtures })
  } catch (error) {
    if (!(error instanceof DevnetError)) throw error
    process.stderr.write(`preflight devnet: ${error.message}\n`)
    return 1
  }
  const { fixtures } = running
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
  await stopSignal()
  await running.stop()
  return 0
}
