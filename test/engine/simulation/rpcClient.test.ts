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
      const answer = (one: JsonRpcRequest) =>
        one.method === 'eth_fail'
          ? { jsonrpc: '2.0', id: one.id, error: { code: -32602, message: 'bad params' } }
          : { jsonrpc: '2.0', id: one.id, result: one.method }
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
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
})
