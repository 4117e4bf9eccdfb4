/**
 * geth's eth_simulateV1 answers, as execution-apis recorded them (fixtures/gethSimulateAnswers.json), read by the
 * engine: a stand-in node replays geth's results for the transaction block and answers the engine's reads with empty
 * successes. The recorded requests send 0x3e8 wei from 0xc0…00 to 0xc1…00, so the scan sends the same.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scanTransactions } from '../../../src/engine/index.ts'
import { listenOnFreePort, readBody } from '../../support/net.ts'
import recorded from './fixtures/gethSimulateAnswers.json' with { type: 'json' }

type JsonRpcRequest = { id: number; method: string; params: unknown[] }
type Block = { calls: { from?: string }[] }
type Recorded = { calls?: unknown[][]; error?: { code: number; message: string } }

const SENDER = '0xc000000000000000000000000000000000000000'
const RECIPIENT = '0xc100000000000000000000000000000000000000'

let server: Server
let base: string

/** geth's answer to the scan's simulation: the recorded last call for the transaction's, or the recorded error. */
function answer(fixture: Recorded, request: JsonRpcRequest): { result: unknown } | { error: unknown } {
  if (request.method === 'eth_chainId') return { result: '0x1' }
  if (request.method === 'eth_getBlockByNumber') return { result: { number: '0x10', baseFeePerGas: '0x1' } }
  if (fixture.error) return { error: fixture.error }
  const payload = request.params[0] as { blockStateCalls: Block[] }
  const recordedCall = fixture.calls?.at(-1)?.at(-1)
  return {
    result: payload.blockStateCalls.map((block) => ({
      timestamp: '0x228',
      // The engine's reads come from the zero address, some in the transaction's block ahead of the sender's call.
      calls: block.calls.map((call) =>
        call.from?.toLowerCase() === SENDER
          ? recordedCall
          : { status: '0x1', returnData: '0x', gasUsed: '0x5208', logs: [] },
      ),
    })),
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const fixture = (recorded as unknown as Record<string, Recorded>)[(request.url ?? '').slice(1)]
      if (!fixture) {
        response.statusCode = 404
        response.end()
        return
      }
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
      const one = (call: JsonRpcRequest) => ({ jsonrpc: '2.0', id: call.id, ...answer(fixture, call) })
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed)))
    })
  })
  base = `http://127.0.0.1:${await listenOnFreePort(server)}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Scans the recorded transfer against the stand-in node replaying `fixture`. */
async function scanWith(fixture: string) {
  const request = {
    txObjects: [{ from: SENDER, to: RECIPIENT, value: '1000' }],
    userAccount: SENDER,
    metadata: { origin: 'https://app.example.org' },
  }
  const outcome = await scanTransactions(request, { rpcUrl: `${base}/${fixture}`, chainId: 1 })
  if (!outcome.ok) throw new Error(`scan failed: ${outcome.error.message}`)
  return outcome.response
}

/** The scan's aggregated error against the stand-in node replaying the refusal in `fixture`. */
async function refusalOf(fixture: string) {
  return (await scanWith(fixture)).simulationResults.aggregated.error
}

describe("geth's call results", () => {
  it('a revert reason geth puts in error.data (returnData is empty) is decoded', async () => {
    const response = await scanWith('ethSimulate-eth-send-should-not-produce-logs-on-revert')
    expect(response.simulationResults.perTransaction[0]?.error).toMatchObject({
      kind: 'TRANSACTION_REVERTED',
      revertReason: 'execution reverted: Always reverting contract',
      humanReadableError: 'The transaction would fail: Always reverting contract.',
    })
  })

  it('a call out of gas (code -32015, no data) is a failure for want of gas, not a revert', async () => {
    const response = await scanWith('ethSimulate-run-out-of-gas-in-block-38015')
    expect(response.simulationResults.perTransaction[0]?.error).toEqual({
      kind: 'TRANSACTION_ERROR',
      humanReadableError: 'The transaction would fail: out of gas.',
      errorType: 'OutOfGas',
    })
  })
})

describe("geth's refusals of a whole simulation", () => {
  it('-38014, a sender without the ETH it sends: the window says so and what to change', async () => {
    const error = await refusalOf('ethSimulate-simple-no-funds')
    expect(error?.humanReadableError).toMatch(
      /^The transactions could not be simulated: An account sends more ETH than it holds, .*lower the value or fund the account/,
    )
    // The node's own words travel too: they name the account and the amounts.
    expect(error?.humanReadableError).toContain('have 0 want 1000')
  })

  it('-38026, over the node’s limits: says to send fewer transactions per request', async () => {
    const error = await refusalOf('ethSimulate-big-block-state-calls-array')
    expect(error?.humanReadableError).toMatch(/more than this node simulates at once.*send fewer transactions/)
  })
})

describe("geth's traceTransfers logs", () => {
  it('ETH the called contract forwards is two pseudo-logs from 0xeeee…: the user sends what the first says', async () => {
    const response = await scanWith('ethSimulate-eth-send-should-produce-more-logs-on-forward')
    const changes = response.simulationResults.aggregated.expectedStateChanges[SENDER] ?? []
    expect(changes.map((change) => [change.rawInfo.kind, change.humanReadableDiff])).toEqual([
      ['NATIVE_ASSET_TRANSFER', 'Send <0.000001 ETH'],
    ])
    // Pseudo-logs feed the state changes; no contract emitted them.
    expect(response.simulationResults.perTransaction[0]?.logs).toEqual([])
  })
})
