/**
 * `preflight devnet --port P --fixtures FILE [--fork-url URL [--fork-block-number N]]`: anvil with the fixtures
 * deployed (on top of a real chain's state with --fork-url), until SIGINT/SIGTERM.
 */
import { DevnetError, type ForkOptions } from '../devnet/anvil.ts'
import { startDevnet } from '../devnet/devnet.ts'
import { listenForStop, parseCommandLine, portOption, UsageError, withUsageErrors } from './options.ts'

const USAGE =
  'preflight devnet [--port P (default 8545)] [--fixtures FILE] [--fork-url URL [--fork-block-number N]]\n' +
  '  --fork-url URL            start from the state of the chain behind URL (anvil fork mode), e.g. your mainnet node\n' +
  '  --fork-block-number N     fork at block N instead of the latest\n'

/** Runs the devnet command; 0 after a clean stop, 1 when the devnet cannot start (port in use, no anvil), 2 on bad usage. */
export function runDevnet(argv: string[]): Promise<number> {
  return withUsageErrors('devnet', USAGE, () => devnet(argv))
}

async function devnet(argv: string[]): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    options: {
      port: { type: 'string' },
      fixtures: { type: 'string' },
      'fork-url': { type: 'string' },
      'fork-block-number': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const port = portOption('port', values.port, 8545)
  const fork = forkOption(values['fork-url'], values['fork-block-number'])
  const stop = listenForStop()
  let running: Awaited<ReturnType<typeof startDevnet>>
  try {
    running = await startDevnet({ port, fixturesFile: values.fixtures, fork })
  } catch (error) {
    stop.close()
    if (!(error instanceof DevnetError)) throw error
    process.stderr.write(`preflight devnet: ${error.message}\n`)
    return 1
  }
  if (stop.received()) {
    await running.stop()
    return 0
  }
  const { fixtures } = running
  process.stdout.write(
    [
      `devnet ready in ${fixtures.startupMs} ms on ${fixtures.rpcUrl} (chain ${fixtures.chainId})`,
      ...(fork
        ? [
            `  forked from ${redactUrl(fork.url)}${fork.blockNumber === undefined ? '' : ` at block ${fork.blockNumber}`}`,
          ]
        : []),
      `  Safe ${fixtures.safe.address} (${fixtures.safe.threshold}-of-${fixtures.safe.owners.length}, v${fixtures.safe.version})`,
      `  ${fixtures.erc20.symbol} ${fixtures.erc20.address}   ${fixtures.weth.symbol} ${fixtures.weth.address}`,
      `  ERC-721 ${fixtures.erc721.address}   ERC-1155 ${fixtures.erc1155.address}`,
      `  drainer ${fixtures.drainer.address}`,
      `  Uniswap V2 router ${fixtures.uniswapV2.router}   V3 swap router ${fixtures.uniswapV3.swapRouter}`,
      `  Chainlink-interface feeds ETH/USD ${fixtures.chainlink.ethUsd}   USDC/USD ${fixtures.chainlink.usdcUsd}`,
      values.fixtures ? `  fixtures written to ${values.fixtures}` : '  (no --fixtures file requested)',
      'Ctrl+C stops it.',
      '',
    ].join('\n'),
  )
  await stop.signal
  await running.stop()
  return 0
}

/** --fork-url and --fork-block-number, checked: an http(s) or ws(s) URL, and a block number only with a URL. */
function forkOption(url: string | undefined, blockNumber: string | undefined): ForkOptions | undefined {
  if (url === undefined) {
    if (blockNumber !== undefined) throw new UsageError('--fork-block-number needs --fork-url')
    return undefined
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`--fork-url must be a node's URL (http, https, ws or wss), got "${url}"`)
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) {
    throw new UsageError(`--fork-url must be an http, https, ws or wss URL, got "${parsed.protocol}"`)
  }
  if (blockNumber === undefined) return { url }
  if (!/^\d+$/.test(blockNumber)) {
    throw new UsageError(`--fork-block-number must be a block number (a whole number), got "${blockNumber}"`)
  }
  return { url, blockNumber: BigInt(blockNumber) }
}

/** The URL without its path, query or credentials: node URLs often carry an API key, which must not reach a log. */
function redactUrl(url: string): string {
  const { protocol, host } = new URL(url)
  return `${protocol}//${host}/…`
}
