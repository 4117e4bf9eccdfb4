/** The `preflight` command: devnet | serve | scan | demo. Returns the process exit code. */

const HELP = `preflight — simulate transactions and signatures before you sign them

Usage:
  preflight devnet --port P --fixtures FILE   anvil on 127.0.0.1:P with the fixture contracts; writes FILE when ready
            [--fork-url URL [--fork-block-number N]]   … on top of the chain behind URL (anvil fork mode)
  preflight serve --port Q --rpc CHAIN/NETWORK=URL … --api-key KEY [--rate-limit N] [--redis URL]
                                              the HTTP scan API (seed spec), e.g. --rpc ethereum/devnet=http://127.0.0.1:8545
  preflight scan transactions|message --rpc URL [--chain CHAIN/NETWORK]
                                              scan one request read from stdin, print the response
  preflight demo [--port P] [--dapp-port Q] [--open] [--out-dir DIR] [--fixtures FILE]
                                              devnet + built extension + demo dapp (what npm start runs)
  preflight --help                            this text

Each command takes --help.
`

type Command = (argv: string[]) => Promise<number>

// Each command is loaded when it runs, so `serve` starts without loading the devnet, the demo or vite.
const commands: Record<string, () => Promise<Command>> = {
  devnet: async () => (await import('./commands/devnet.ts')).runDevnet,
  serve: async () => (await import('./commands/serve.ts')).runServe,
  scan: async () => (await import('./commands/scan.ts')).runScan,
  demo: async () => (await import('./commands/demo.ts')).runDemo,
}

/** Dispatches argv (without node and script) to a command; unknown input prints help to stderr and returns 2. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP)
    return 0
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!load) {
    process.stderr.write(`preflight: unknown command "${name}"\n\n${HELP}`)
    return 2
  }
  try {
    return await (await load())(rest)
  } catch (error) {
    process.stderr.write(`preflight ${name}: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}
