/**
 * The scan's JSON-RPC client on the wire: a lone request travels as a plain JSON-RPC request, requests made in the
 * same tick as one batch, and the stats count both. The node is a stand-in that records the bodies it receives.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createRpcClient } from '../../../src/engine/simulation/rpc.ts'
import { listenOnFreePort, readBody } from '../../support/net.ts'

type JsonRpcRequest = { id: number; method: string }

let server: Server
let url: string
let bodies: unknown[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
      bodies.push(parsed)
      const methods = (Array.isArray(parsed) ? parsed : [parsed]).map((one) => one.method)
      // Whole-exchange behaviours, named by a method in the request.
      if (methods.includes('eth_http500')) return response.writeHead(500).end('busy')
      if (methods.includes('eth_garbage')) return response.end('<html>a login page</html>')
      if (methods.includes('eth_slow')) return
      if (methods.includes('eth_batchError')) {
        return response.end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batches' } }),
        )
      }
      const answer = (one: JsonRpcRequest) =>
        one.method === 'eth_fail'
          ? { jsonrpc: '2.0', id: one.id, error: { code: -32602, message: 'bad params' } }
          : one.method === 'eth_unknown'
            ? { jsonrpc: '2.0', id: one.id, error: { code: -32601, message: 'the method eth_unknown does not exist' } }
            : one.method === 'eth_noResult'
              ? { jsonrpc: '2.0', id: one.id }
              : { jsonrpc: '2.0', id: one.id, result: one.method }
      response.setHeader('content-type', 'application/json')
      // Batch answers come back in reverse order: JSON-RPC lets a node answer a batch in any order.
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer).reverse() : answer(parsed)))
    })
  })
  url = `http://127.0.0.1:${await listenOnFreePort(server)}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  bodies = []
})

describe('createRpcClient', () => {
  it('sends a lone request as a plain JSON-RPC request: 1 round trip, 1 request', async () => {
    const client = createRpcClient(url)
    expect(await client.request('eth_blockNumber', [])).toBe('eth_blockNumber')
    expect(bodies).toHaveLength(1)
    expect(Array.isArray(bodies[0])).toBe(false)
    expect(client.stats).toEqual({ roundTrips: 1, requests: 1 })
  })

  it('sends requests made in the same tick as one batch, each answered with its own result', async () => {
    const client = createRpcClient(url)
    const answers = await Promise.all([client.request('eth_chainId', []), client.request('eth_simulateV1', [])])
    expect(answers).toEqual(['eth_chainId', 'eth_simulateV1'])
    expect(bodies).toHaveLength(1)
    expect((bodies[0] as JsonRpcRequest[]).map((one) => one.method)).toEqual(['eth_chainId', 'eth_simulateV1'])
    expect(client.stats).toEqual({ roundTrips: 1, requests: 2 })
  })

  it('turns a node error into an RpcFailure with the code, alone or in a batch', async () => {
    const client = createRpcClient(url)
    await expect(client.request('eth_fail', [])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('rejected eth_fail'),
    })
    const [ok, failed] = await Promise.allSettled([client.request('eth_chainId', []), client.request('eth_fail', [])])
    expect(ok).toEqual({ status: 'fulfilled', value: 'eth_chainId' })
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: -32602 } })
  })

  it('matches the answers of a batch to its calls by id, whatever their order', async () => {
    const client = createRpcClient(url)
    const methods = ['eth_chainId', 'eth_blockNumber', 'eth_gasPrice']
    expect(await Promise.all(methods.map((method) => client.request(method, [])))).toEqual(methods)
  })

  it('fails every call of a batch the node refused as a whole, in the words of the node', async () => {
    const client = createRpcClient(url)
    const outcomes = await Promise.allSettled([client.request('eth_chainId', []), client.request('eth_batchError', [])])
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: 'rejected',
        reason: { kind: 'REJECTED', message: expect.stringContaining('no batches') },
      })
    }
  })

  it('names a method the node lacks as UNSUPPORTED_METHOD', async () => {
    await expect(createRpcClient(url).request('eth_unknown', [])).rejects.toMatchObject({
      kind: 'UNSUPPORTED_METHOD',
      code: -32601,
    })
  })

  it('says what kind of answer it got when it was not a JSON-RPC result', async () => {
    const client = createRpcClient(url)
    await expect(client.request('eth_http500', [])).rejects.toMatchObject({
      kind: 'HTTP_ERROR',
      message: expect.stringContaining('HTTP 500'),
    })
    await expect(client.request('eth_garbage', [])).rejects.toMatchObject({ kind: 'NOT_JSON_RPC' })
    await expect(client.request('eth_noResult', [])).rejects.toMatchObject({ kind: 'NOT_JSON_RPC' })
  })

  it('reports a slow node as TIMEOUT, a cancelled call as ABORTED, an unreachable node as UNREACHABLE without its URL', async () => {
    const controller = new AbortController()
    const cancellable: typeof fetch = (input, init) => {
      const own = init?.signal
      own?.addEventListener('abort', () => controller.abort())
      return fetch(input, { ...init, signal: controller.signal })
    }
    await expect(createRpcClient(url, fetch, 50).request('eth_slow', [])).rejects.toMatchObject({
      kind: 'TIMEOUT',
      message: 'The node did not answer eth_slow within 0.05 seconds; check that it is up.',
    })
    const slow = createRpcClient(url, cancellable).request('eth_slow', [])
    setTimeout(() => controller.abort(), 20)
    await expect(slow).rejects.toMatchObject({ kind: 'ABORTED' })

    const secret = 'http://127.0.0.1:9/v3/secret-key'
    const failed = createRpcClient(secret).request('eth_chainId', [])
    const error = (await failed.then(
      () => undefined,
      (reason: unknown) => reason,
    )) as Error & { kind: string }
    expect(error.kind).toBe('UNREACHABLE')
    expect(error.message).toMatch(/^Could not reach the node for eth_chainId \(\w+\)/)
    expect(error.message).not.toContain('secret-key')
  })

  it('ends a call whose params cannot be written as JSON with the reason, and sends nothing', async () => {
    const client = createRpcClient(url)
    await expect(client.request('eth_call', [1n])).rejects.toThrow(TypeError)
    expect(bodies).toEqual([])
    expect(client.stats).toEqual({ roundTrips: 0, requests: 0 })
  })
})
