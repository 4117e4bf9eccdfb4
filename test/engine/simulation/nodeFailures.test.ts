/**
 * A broken or impostor node: HTML, truncated JSON, a null or short eth_simulateV1 result, a nonsense chain id. Each is
 * an RPC_ERROR whose message says what the node did wrong — never a TypeError, never a result missing transactions.
 * The node is a stand-in JSON-RPC server: the boundary under test.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scanTransactions } from '../../../src/engine/index.ts'
import { listenOnFreePort, readBody } from '../../support/net.ts'

type JsonRpcRequest = { id: number; method: string; params: unknown[] }
type Block = { calls: unknown[] }
type SentBlock = { calls: { from?: string }[] }

/** How the stand-in node answers: a raw HTTP body, or a JSON-RPC result per request. */
type Behaviour = { raw: string; contentType: string } | { result: (request: JsonRpcRequest) => unknown }

/** One successful call result for every call the request sent, block by block (what a real node returns). */
function echoBlocks(request: JsonRpcRequest): Block[] {
  const payload = request.params[0] as { blockStateCalls: Block[] }
  return payload.blockStateCalls.map((block) => ({
    calls: block.calls.map(() => ({ status: '0x1', returnData: '0x', gasUsed: '0x5208', logs: [] })),
  }))
}

/** Where the transaction's call is: its block (the first, where the reads before it run too) and its place there. */
function transactionAt(request: JsonRpcRequest): { block: number; call: number } {
  const sent = (request.params[0] as { blockStateCalls: SentBlock[] }).blockStateCalls
  const block = sent.findIndex((each) => each.calls.some((call) => call.from?.toLowerCase() === ACCOUNT))
  return { block, call: (sent[block] as SentBlock).calls.findIndex((call) => call.from?.toLowerCase() === ACCOUNT) }
}

/** echoBlocks with the transaction's result replaced by `result`. */
function withTransactionResult(request: JsonRpcRequest, result: unknown): Block[] {
  const at = transactionAt(request)
  return echoBlocks(request).map((block, index) =>
    index === at.block ? { calls: block.calls.map((call, place) => (place === at.call ? result : call)) } : block,
  )
}

const behaviours: Record<string, Behaviour> = {
  html: { raw: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' },
  truncated: { raw: '{"jsonrpc":"2.0","id":', contentType: 'application/json' },
  nullResult: { result: (request) => (request.method === 'eth_chainId' ? '0x7a69' : null) },
  missingTransactions: {
    result: (request) =>
      request.method === 'eth_chainId'
        ? '0x7a69'
        : echoBlocks(request).map((block, index) => (index === transactionAt(request).block ? { calls: [] } : block)),
  },
  badLogs: {
    result: (request) =>
      request.method === 'eth_chainId'
        ? '0x7a69'
        : withTransactionResult(request, {
            status: '0x1',
            returnData: '0x',
            gasUsed: '0x1',
            logs: [{ address: 'bad' }],
          }),
  },
  shortTopic: {
    result: (request) =>
      request.method === 'eth_chainId'
        ? '0x7a69'
        : withTransactionResult(request, {
            status: '0x1',
            returnData: '0x',
            gasUsed: '0x1',
            logs: [{ address: `0x${'11'.repeat(20)}`, topics: ['0x1234'], data: '0x' }],
          }),
  },
  badChainId: { result: (request) => (request.method === 'eth_chainId' ? 'zzz' : echoBlocks(request)) },
}

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const behaviour = behaviours[(request.url ?? '').slice(1)]
      if (!behaviour) {
        response.statusCode = 404
        response.end()
        return
      }
      if ('raw' in behaviour) {
        response.setHeader('content-type', behaviour.contentType)
        response.end(behaviour.raw)
        return
      }
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
      const answer = (one: JsonRpcRequest) => ({ jsonrpc: '2.0', id: one.id, result: behaviour.result(one) })
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
    })
  })
  base = `http://127.0.0.1:${await listenOnFreePort(server)}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const ACCOUNT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const request = {
  txObjects: [{ from: ACCOUNT, to: '0x1111111111111111111111111111111111111111', value: '1' }],
  userAccount: ACCOUNT,
  metadata: { origin: 'https://app.example.org' },
}

describe('a node that answers with nonsense', () => {
  const cases: [string, RegExp][] = [
    ['html', /answered eth_simulateV1 with something that is not JSON-RPC/],
    ['truncated', /answered eth_simulateV1 with something that is not JSON-RPC/],
    ['nullResult', /malformed eth_simulateV1 result: the result is not a list of blocks/],
    ['missingTransactions', /malformed eth_simulateV1 result: block 1 has 0 call results for the \d+ calls sent/],
    ['badLogs', /malformed eth_simulateV1 result: call \d+ of block 1 is malformed/],
    // A topic is a 32-byte word; a shorter one is the node's fault, not a bug in Preflight.
    ['shortTopic', /malformed eth_simulateV1 result: call \d+ of block 1 is malformed/],
    ['badChainId', /answered eth_chainId with "zzz", not a chain id/],
  ]
  it.each(cases)('%s → RPC_ERROR saying what the node did wrong', async (behaviour, message) => {
    const outcome = await scanTransactions(request, { rpcUrl: `${base}/${behaviour}` })
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.kind).toBe('RPC_ERROR')
    expect(outcome.error.message).toMatch(message)
  })
})
