/** `preflight demo`: the devnet, the built extension and the demo dapp, running together until Ctrl+C. */

import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { isPortInUse } from '../devnet/anvil.ts'
import { serveDapp } from '../devnet/dapp/server.ts'
import { startDevnet } from '../devnet/devnet.ts'
import { parseNetworks } from '../server/networks.ts'
import { startScanServer } from '../server/server.ts'
import { listenForStop, parseCommandLine, portOption, UsageError, withUsageErrors } from './options.ts'

const USAGE = `preflight demo [--port P] [--dapp-port Q] [--api-port R] [--open] [--out-dir DIR] [--fixtures FILE]
  --port P        devnet RPC port on 127.0.0.1 (default 8545, the extension's default RPC for chain 31337)
  --dapp-port Q   demo dapp port on 127.0.0.1 (default 5173)
  --api-port R    scan API port on 127.0.0.1 (default 8080), serving ethereum/devnet with a development key
  --open          launch Chromium with the extension loaded and the dapp open (needs a display)
  --out-dir DIR   where to build the extension (default dist)
  --fixtures FILE where to write the devnet fixtures (default .preflight/fixtures.json)
`

const REPO_ROOT = join(import.meta.dirname, '../..')

type DemoOptions = {
  port: number
  dappPort: number
  apiPort: number
  open: boolean
  outDir: string
  fixturesFile: string
}

function parseDemoArgs(argv: string[]): DemoOptions | 'help' {
  const { values } = parseCommandLine({
    args: argv,
    options: {
      port: { type: 'string' },
      'dapp-port': { type: 'string' },
      'api-port': { type: 'string' },
      open: { type: 'boolean', default: false },
      'out-dir': { type: 'string' },
      fixtures: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  const options = {
    port: portOption('port', values.port, 8545),
    dappPort: portOption('dapp-port', values['dapp-port'], 5173),
    apiPort: portOption('api-port', values['api-port'], 8080),
    open: values.open ?? false,
    outDir: resolve(values['out-dir'] ?? 'dist'),
    fixturesFile: values.fixtures ?? join('.preflight', 'fixtures.json'),
  }
  if (new Set([options.port, options.dappPort, options.apiPort]).size < 3) {
    throw new UsageError('--port, --dapp-port and --api-port must differ')
  }
  return options
}

/** Builds the extension with the project's vite config into `outDir`. */
async function buildExtension(outDir: string): Promise<void> {
  const { build } = await import('vite')
  await build({
    root: REPO_ROOT,
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    // Build problems surface as a thrown error; routine warnings would bury the addresses the demo prints.
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  })
}

async function openBrowser(extensionDir: string, url: string): Promise<() => Promise<void>> {
  // playwright-core is a development dependency: load it only when asked to open a browser.
  const { launchChromium } = await import('../devnet/chromium.ts')
  const { context, close } = await launchChromium({ extensionDir, headless: false })
  const page = context.pages()[0] ?? (await context.newPage())
  await page.goto(url)
  return close
}

/** Runs the demo; returns the exit code (0 after Ctrl+C, 1 when something could not start, 2 for bad arguments). */
export function runDemo(argv: string[]): Promise<number> {
  return withUsageErrors('demo', USAGE, () => demo(argv))
}

async function demo(argv: string[]): Promise<number> {
  const options = parseDemoArgs(argv)
  if (options === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  const { port, dappPort, apiPort, open, outDir, fixturesFile } = options
  for (const [flag, value] of [
    ['--port', port],
    ['--dapp-port', dappPort],
    ['--api-port', apiPort],
  ] as const) {
    if (await isPortInUse(value)) {
      process.stderr.write(
        `preflight demo: port ${value} on 127.0.0.1 is already in use; choose another with ${flag}\n`,
      )
      return 1
    }
  }

  const stops: (() => Promise<void>)[] = []
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
  const stopRequest = listenForStop()
  try {
    process.stdout.write(`Building the extension into ${outDir} …\n`)
    const buildStarted = performance.now()
    await buildExtension(outDir)
    const buildMs = Math.round(performance.now() - buildStarted)
    // The build takes seconds: a Ctrl+C during it should not go on to start the devnet only to stop it.
    if (stopRequest.received()) return 0

    mkdirSync(dirname(fixturesFile), { recursive: true })
    const devnet = await startDevnet({ port, fixturesFile })
    stops.push(devnet.stop)
    const { fixtures } = devnet

    const dapp = await serveDapp({ port: dappPort, fixtures })
    stops.push(dapp.close)

    // The scan API on the devnet, so the extension can be switched to a remote backend in its options page.
    const apiKey = `dev-${randomBytes(12).toString('hex')}`
    const api = await startScanServer({
      port: apiPort,
      networks: parseNetworks([`ethereum/devnet=${fixtures.rpcUrl}`]),
      apiKeys: [apiKey],
      logStream: createWriteStream(join(dirname(fixturesFile), 'scan-api.log')),
    })
    stops.push(api.close)
    if (stopRequest.received()) {
      await stopAll()
      return 0
    }

    process.stdout.write(
      [
        '',
        `Preflight demo is running.`,
        `  devnet      ${fixtures.rpcUrl} (chain ${fixtures.chainId}), ready in ${fixtures.startupMs} ms; fixtures in ${fixturesFile}`,
        `  Safe        ${fixtures.safe.address} (${fixtures.safe.threshold} of ${fixtures.safe.owners.length} owners: dev accounts 0–2)`,
        `  extension   built in ${buildMs} ms into ${outDir}`,
        `  demo dapp   ${dapp.url}`,
        `  scan API    ${api.url} (docs at ${api.url}/docs), development key ${apiKey}`,
        `              logs in ${join(dirname(fixturesFile), 'scan-api.log')}`,
        '',
        'Load the extension: open chrome://extensions, turn on Developer mode, click "Load unpacked" and choose',
        `  ${outDir}`,
        `then open ${dapp.url} and click the buttons.`,
        `To scan through the API instead of locally, set scan API URL ${api.url} and key ${apiKey} in the extension's options.`,
        ...(port === 8545
          ? []
          : [
              `The extension's RPC for chain 31337 defaults to http://127.0.0.1:8545: set it to ${fixtures.rpcUrl} in its settings.`,
            ]),
        'Ctrl+C stops everything.',
        '',
      ].join('\n'),
    )

    if (open) {
      if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
        process.stdout.write('--open: no display found (DISPLAY is not set); open the dapp in your own browser.\n')
      } else {
        stops.push(await openBrowser(outDir, dapp.url))
        process.stdout.write('Chromium is open with the extension loaded.\n')
      }
    }

    await stopRequest.signal
    process.stdout.write('Stopping…\n')
    await stopAll()
    return 0
  } catch (error) {
    stopRequest.close()
    await stopAll()
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`preflight demo: ${message}\n`)
    return 1
  }
}
