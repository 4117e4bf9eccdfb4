/** `preflight scan transactions|message --rpc URL`: one request on stdin, the response (2023-06-05 shape) on stdout. */
import { type EngineError, type ScanOutcome, scanMessage, scanTransactions } from '../engine/index.ts'
import { redactUrl } from '../server/redactUrl.ts'
import { checkChain } from './chainCheck.ts'
import { parseCommandLine, withUsageErrors } from './options.ts'

const USAGE = 'usage: preflight scan transactions|message --rpc URL [--chain CHAIN/NETWORK] < request.json\n'

/** Reads all of stdin as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** One line a person can act on, naming the field when the request was at fault and the node when it was. */
function describeEngineError(error: EngineError, rpcUrl: string): string {
  if (error.kind === 'INVALID_REQUEST') return `invalid request: ${error.field}: ${error.message}`
  return error.kind === 'RPC_ERROR' ? `${error.message} (node: ${redactUrl(rpcUrl)})` : error.message
}

/** Runs the scan command; exit 0 with the response on stdout, 1 when the scan could not run, 2 on bad usage or input. */
export function runScan(argv: string[]): Promise<number> {
  return withUsageErrors('scan', USAGE, () => scan(argv))
}

async function scan(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine({
    args: argv,
    allowPositionals: true,
    options: { rpc: { type: 'string' }, chain: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [kind] = positionals
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  if (kind !== 'transactions' && kind !== 'message') {
    process.stderr.write(
      `preflight scan: expected "transactions" or "message", got ${kind ? `"${kind}"` : 'nothing'}\n${USAGE}`,
    )
    return 2
  }
  if (!values.rpc) {
    process.stderr.write(`preflight scan: --rpc URL is required\n${USAGE}`)
    return 2
  }
  const text = await readStdin()
  let request: unknown
  try {
    request = JSON.parse(text)
  } catch (error) {
    const why = text.trim() === '' ? 'stdin was empty' : (error as Error).message
    process.stderr.write(`preflight scan: the request on stdin is not valid JSON: ${why}\n`)
    return 2
  }
  let chainId: number | undefined
  if (values.chain !== undefined) {
    const check = await checkChain(values.chain, values.rpc)
    if (!check.ok) {
      process.stderr.write(`preflight scan: ${check.kind === 'UNKNOWN_NAME' ? '--chain ' : ''}${check.message}\n`)
      return check.kind === 'UNKNOWN_NAME' ? 2 : 1
    }
    chainId = check.chainId
  }
  const options = { rpcUrl: values.rpc, chainId }
  const outcome: ScanOutcome<unknown> =
    kind === 'transactions' ? await scanTransactions(request, options) : await scanMessage(request, options)
  if (!outcome.ok) {
    process.stderr.write(`preflight scan ${kind}: ${describeEngineError(outcome.error, values.rpc)}\n`)
    return outcome.error.kind === 'INVALID_REQUEST' ? 2 : 1
  }
  process.stdout.write(`${JSON.stringify(outcome.response, null, 2)}\n`)
  return 0
}
