/** The `preflight` command: devnet | serve | scan | demo. Returns the process exit code. */
import { runDemo } from './commands/demo.ts'
import { runDevnet } from './commands/devnet.ts'
import { runScan } from './commands/scan.ts'
import { runServe } from './commands/serve.ts'

const HELP = `preflight — simulate transactions and signatures before you sign them

Usage:
  preflight devnet --port P --fixtures FILE   anvil on 127.0.0.1:P with the fixture contracts; writes FILE when ready
            [--fork-url URL [--fork-block-number N]]   … on top of the chain behind URL (anvil fork mode)
  preflight serve --port Q --rpc CHAIN/NETWORK=URL … --api-key KEY
                                              the HTTP scan API (seed spec), e.g. --rpc ethereum/devnet=http://127.0.0.1:8545
  preflight scan transactions|message --rpc URL [--chain CHAIN/NETWORK]
                                              scan one request read from stdin, print the response
  preflight demo [--port P] [--dapp-port Q] [--open] [--out-dir DIR] [--fixtures FILE]
                                              devnet + built extension + demo dapp (what npm start runs)
  preflight --help                            this text

Each command takes --help.
`

type Command = (argv: string[]) => Promise<number>

const commands: Record<string, Command> = { devnet: runDevnet, serve: runServe, scan: runScan, demo: runDemo }

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
