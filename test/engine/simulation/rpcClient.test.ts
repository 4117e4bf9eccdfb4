/**
 * The scan's JSON-RPC client and its channel on the wire: a lone request travels as a plain JSON-RPC request, requests
 * made in the same tick as one batch, and the stats count both; a channel shared by scans gathers their calls into
 * batches of a bounded size, and one scan giving up ends only its own calls. The node is a stand-in that records the
 * bodies it receives.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createRpcChannel, createRpcClient, type RpcChannelOptions } from '../../../src/engine/simulation/rpc.ts'
import { listenOnFreePort, readBody } from '../../support/net.ts'

type JsonRpcRequest = { id: number; method: string }

let server: Server
let url: string
let bodies: unknown[] = []
/** The calls of each exchange whose connection closed before the stand-in answered it. */
let cancelled: string[][] = []

/** Batch members of one recorded body, by method. */
const methodsOf = (body: unknown) => (Array.isArray(body) ? body : [body]).map((one: JsonRpcRequest) => one.method)

/** A scan's client over a channel of its own, as the engine makes it when it is handed none. */
const clientOf = (node: string, options?: RpcChannelOptions) => createRpcClient(createRpcChannel(node, options))

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
      bodies.push(parsed)
      const methods = (Array.isArray(parsed) ? parsed : [parsed]).map((one) => one.method)
      // Whole-exchange behaviours, named by a method in the request.
      if (methods.includes('eth_http500')) return response.writeHead(500).end('busy')
      if (methods.includes('eth_garbage')) return response.end('<html>a login page</html>')
      if (methods.includes('eth_slow')) {
        response.on('close', () => {
          if (!response.writableEnded) cancelled.push(methods)
        })
        return
      }
      // Batch limits as nodes and gateways enforce them, named by a prefix every call of the batch carries.
      if (Array.isArray(parsed) && parsed.length > 3 && methods.some((method) => method.startsWith('eth_limit3'))) {
        return response.writeHead(413).end('request entity too large')
      }
      if (Array.isArray(parsed) && parsed.length > 2 && methods.some((method) => method.startsWith('eth_gethLimit2'))) {
        const refusal = { jsonrpc: '2.0', id: parsed[0]?.id, error: { code: -32600, message: 'batch too large' } }
        return response.end(JSON.stringify([refusal]))
      }
      if (Array.isArray(parsed) && methods.some((method) => method.startsWith('eth_busy'))) {
        return response.writeHead(429).end('rate limited')
      }
      if (Array.isArray(parsed) && methods.includes('eth_batchError')) {
        return response.end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batches' } }),
        )
      }
      const answer = (one: JsonRpcRequest) =>
        one.method === 'eth_fail' || one.method === 'eth_delayedFail'
          ? { jsonrpc: '2.0', id: one.id, error: { code: -32602, message: 'bad params' } }
          : one.method === 'eth_unknown'
            ? { jsonrpc: '2.0', id: one.id, error: { code: -32601, message: 'the method eth_unknown does not exist' } }
            : one.method === 'eth_noResult'
              ? { jsonrpc: '2.0', id: one.id }
              : { jsonrpc: '2.0', id: one.id, result: one.method }
      response.setHeader('content-type', 'application/json')
      const delay = methods.some((method) => method.startsWith('eth_delayed')) ? 150 : 0
      // Batch answers come back in reverse order: JSON-RPC lets a node answer a batch in any order.
      const text = JSON.stringify(Array.isArray(parsed) ? parsed.map(answer).reverse() : answer(parsed))
      setTimeout(() => response.end(text), delay)
    })
  })
  url = `http://127.0.0.1:${await listenOnFreePort(server)}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  bodies = []
  cancelled = []
})

describe('createRpcClient', () => {
  it('sends a lone request as a plain JSON-RPC request: 1 round trip, 1 request', async () => {
    const client = clientOf(url)
    expect(await client.request('eth_blockNumber', [])).toBe('eth_blockNumber')
    expect(bodies).toHaveLength(1)
    expect(Array.isArray(bodies[0])).toBe(false)
    expect(client.stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('sends requests made in the same tick as one batch, each answered with its own result', async () => {
    const client = clientOf(url)
    const answers = await Promise.all([client.request('eth_chainId', []), client.request('eth_simulateV1', [])])
    expect(answers).toEqual(['eth_chainId', 'eth_simulateV1'])
    expect(bodies).toHaveLength(1)
    expect((bodies[0] as JsonRpcRequest[]).map((one) => one.method)).toEqual(['eth_chainId', 'eth_simulateV1'])
    expect(client.stats).toMatchObject({ roundTrips: 1, requests: 2 })
  })

  it('counts the time its calls waited for the node once however many waited together, a failed one too, not the time between', async () => {
    const client = clientOf(url)
    // The stand-in holds eth_delayed and eth_delayedFail for 150 ms; two in one batch wait the same 150 ms.
    const firstStart = performance.now()
    await Promise.all([client.request('eth_delayed', []), client.request('eth_delayed', [])])
    const firstWall = performance.now() - firstStart
    const afterFirst = client.stats.nodeMs
    expect(afterFirst).toBeGreaterThanOrEqual(145)
    // Counted per call, the two would make about twice the time they took together.
    expect(afterFirst).toBeLessThanOrEqual(firstWall)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const secondStart = performance.now()
    await expect(client.request('eth_delayedFail', [])).rejects.toMatchObject({ code: -32602 })
    const secondWall = performance.now() - secondStart
    expect(client.stats).toMatchObject({ roundTrips: 2, requests: 3 })
    expect(client.stats.nodeMs - afterFirst).toBeGreaterThanOrEqual(145)
    // The 300 ms between the two round trips are not node time.
    expect(client.stats.nodeMs).toBeLessThanOrEqual(firstWall + secondWall)
  })

  it('counts a wait still open up to the moment its stats are read, as a scan that gives up on a probe reads them', async () => {
    const client = clientOf(url)
    const answer = client.request('eth_delayed', [])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(client.stats.nodeMs).toBeGreaterThanOrEqual(95)
    await answer
    expect(client.stats.nodeMs).toBeGreaterThanOrEqual(145)
  })

  it('turns a node error into an RpcFailure with the code, alone or in a batch', async () => {
    const client = clientOf(url)
    await expect(client.request('eth_fail', [])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('rejected eth_fail'),
    })
    const [ok, failed] = await Promise.allSettled([client.request('eth_chainId', []), client.request('eth_fail', [])])
    expect(ok).toEqual({ status: 'fulfilled', value: 'eth_chainId' })
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: -32602 } })
  })

  it('matches the answers of a batch to its calls by id, whatever their order', async () => {
    const client = clientOf(url)
    const methods = ['eth_chainId', 'eth_blockNumber', 'eth_gasPrice']
    expect(await Promise.all(methods.map((method) => client.request(method, [])))).toEqual(methods)
  })

  it('sends the calls of a batch of two the node refused as a whole again alone, and every later call alone', async () => {
    const client = clientOf(url)
    const answers = await Promise.all([client.request('eth_chainId', []), client.request('eth_batchError', [])])
    expect(answers).toEqual(['eth_chainId', 'eth_batchError'])
    const later = await Promise.all([client.request('eth_gasPrice', []), client.request('eth_blockNumber', [])])
    expect(later).toEqual(['eth_gasPrice', 'eth_blockNumber'])
    expect(bodies.map(methodsOf)).toEqual([
      ['eth_chainId', 'eth_batchError'],
      ['eth_chainId'],
      ['eth_batchError'],
      ['eth_gasPrice'],
      ['eth_blockNumber'],
    ])
    expect(bodies.slice(1).every((body) => !Array.isArray(body))).toBe(true)
  })

  it("finds a node's batch limit by halving: a node that takes 3 calls and answers more with HTTP 413", async () => {
    const client = clientOf(url, { maxBatch: 8 })
    const methods = Array.from({ length: 8 }, (_, index) => `eth_limit3_${index}`)
    expect(await Promise.all(methods.map((method) => client.request(method, [])))).toEqual(methods)
    expect(bodies.map((body) => methodsOf(body).length)).toEqual([8, 4, 4, 2, 2, 2, 2])
    // Later calls start at the size that was taken.
    const later = methods.slice(0, 4).map((method) => `${method}_later`)
    expect(await Promise.all(later.map((method) => client.request(method, [])))).toEqual(later)
    expect(bodies.slice(7).map((body) => methodsOf(body).length)).toEqual([2, 2])
  })

  it('takes a batch answer that refuses the batch on its first call only (geth over its limit) as a refusal', async () => {
    const client = clientOf(url)
    const methods = Array.from({ length: 4 }, (_, index) => `eth_gethLimit2_${index}`)
    expect(await Promise.all(methods.map((method) => client.request(method, [])))).toEqual(methods)
    expect(bodies.map((body) => methodsOf(body).length)).toEqual([4, 2, 2])
  })

  it('does not split a batch the node rate-limits (HTTP 429): its calls fail, sent once', async () => {
    const client = clientOf(url)
    const outcomes = await Promise.allSettled([client.request('eth_busy_a', []), client.request('eth_busy_b', [])])
    expect(outcomes).toMatchObject([
      { status: 'rejected', reason: { kind: 'HTTP_ERROR', message: expect.stringContaining('HTTP 429') } },
      { status: 'rejected', reason: { kind: 'HTTP_ERROR' } },
    ])
    expect(bodies).toHaveLength(1)
  })

  it('names a method the node lacks as UNSUPPORTED_METHOD', async () => {
    await expect(clientOf(url).request('eth_unknown', [])).rejects.toMatchObject({
      kind: 'UNSUPPORTED_METHOD',
      code: -32601,
    })
  })

  it('says what kind of answer it got when it was not a JSON-RPC result', async () => {
    const client = clientOf(url)
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
    await expect(clientOf(url, { timeoutMs: 50 }).request('eth_slow', [])).rejects.toMatchObject({
      kind: 'TIMEOUT',
      message: 'The node did not answer eth_slow within 0.05 seconds; check that it is up.',
    })
    const slow = clientOf(url, { fetch: cancellable }).request('eth_slow', [])
    setTimeout(() => controller.abort(), 20)
    await expect(slow).rejects.toMatchObject({ kind: 'ABORTED' })

    const secret = 'http://127.0.0.1:9/v3/secret-key'
    const failed = clientOf(secret).request('eth_chainId', [])
    const error = (await failed.then(
      () => undefined,
      (reason: unknown) => reason,
    )) as Error & { kind: string }
    expect(error.kind).toBe('UNREACHABLE')
    expect(error.message).toMatch(/^Could not reach the node for eth_chainId \(\w+\)/)
    expect(error.message).not.toContain('secret-key')
  })

  it('ends a call whose params cannot be written as JSON with the reason, and sends nothing', async () => {
    const client = clientOf(url)
    await expect(client.request('eth_call', [1n])).rejects.toThrow(TypeError)
    expect(bodies).toEqual([])
    // The scan made the request, although nothing of it could leave.
    expect(client.stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })
})

describe('createRpcChannel shared by scans', () => {
  it("gathers the calls of several scans made in one event-loop turn into one batch; each scan's stats count its own", async () => {
    const channel = createRpcChannel(url, { schedule: setImmediate })
    const [first, second] = [createRpcClient(channel), createRpcClient(channel)]
    const answers = Promise.all([
      first.request('eth_chainId', []),
      Promise.resolve().then(() => second.request('eth_blockNumber', [])),
    ])
    expect(await answers).toEqual(['eth_chainId', 'eth_blockNumber'])
    expect(bodies.map(methodsOf)).toEqual([['eth_chainId', 'eth_blockNumber']])
    expect([first.stats, second.stats]).toMatchObject([
      { roundTrips: 1, requests: 1 },
      { roundTrips: 1, requests: 1 },
    ])
    // A call made once the turn's batch has left travels in the next one.
    const late = await new Promise((resolve) => setImmediate(() => resolve(second.request('eth_gasPrice', []))))
    expect(late).toBe('eth_gasPrice')
    expect(bodies.map(methodsOf)).toEqual([['eth_chainId', 'eth_blockNumber'], ['eth_gasPrice']])
  })

  it('sends at most maxBatch calls per exchange, and with maxBatch 1 every call alone', async () => {
    const methods = ['eth_a', 'eth_b', 'eth_c', 'eth_d', 'eth_e']
    const twos = createRpcClient(createRpcChannel(url, { maxBatch: 2 }))
    expect(await Promise.all(methods.map((method) => twos.request(method, [])))).toEqual(methods)
    expect(bodies.map(methodsOf)).toEqual([['eth_a', 'eth_b'], ['eth_c', 'eth_d'], ['eth_e']])
    expect(twos.stats).toMatchObject({ roundTrips: 1, requests: 5 })
    bodies = []
    const ones = createRpcClient(createRpcChannel(url, { maxBatch: 1 }))
    expect(await Promise.all(methods.slice(0, 2).map((method) => ones.request(method, [])))).toEqual(
      methods.slice(0, 2),
    )
    expect(bodies.every((body) => !Array.isArray(body))).toBe(true)
    expect(bodies).toHaveLength(2)
  })

  it('ends a scan that gives up at once, leaves the calls it travelled with to their answers, and cancels nothing they wait for', async () => {
    const channel = createRpcChannel(url, { schedule: setImmediate })
    const scan = new AbortController()
    const leavingScan = createRpcClient(channel, scan.signal)
    const leaving = [leavingScan.request('eth_delayed', []), leavingScan.request('eth_gasPrice', [])]
    const staying = createRpcClient(channel).request('eth_chainId', [])
    setTimeout(() => scan.abort(), 20)
    const started = performance.now()
    await expect(leaving[0]).rejects.toMatchObject({ kind: 'ABORTED', message: expect.stringContaining('eth_delayed') })
    await expect(leaving[1]).rejects.toMatchObject({
      kind: 'ABORTED',
      message: expect.stringContaining('eth_gasPrice'),
    })
    expect(performance.now() - started).toBeLessThan(140)
    expect(await staying).toBe('eth_chainId')
    expect(bodies.map(methodsOf)).toEqual([['eth_delayed', 'eth_gasPrice', 'eth_chainId']])
    expect(cancelled).toEqual([])
  })

  it('cancels an exchange once every scan in it has given up, and sends nothing for a scan that gave up before', async () => {
    const channel = createRpcChannel(url, { schedule: setImmediate })
    const scans = [new AbortController(), new AbortController()]
    const calls = scans.map((scan) => createRpcClient(channel, scan.signal).request('eth_slow', []))
    await new Promise((resolve) => setTimeout(resolve, 30))
    scans[0]?.abort()
    await expect(calls[0]).rejects.toMatchObject({ kind: 'ABORTED' })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(cancelled).toEqual([])
    scans[1]?.abort()
    await expect(calls[1]).rejects.toMatchObject({ kind: 'ABORTED' })
    await expect.poll(() => cancelled).toEqual([['eth_slow', 'eth_slow']])

    const before = new AbortController()
    before.abort()
    const gone = createRpcClient(channel, before.signal)
    await expect(gone.request('eth_chainId', [])).rejects.toMatchObject({ kind: 'ABORTED' })
    const stops = new AbortController()
    const stopped = createRpcClient(channel, stops.signal).request('eth_chainId', [])
    stops.abort()
    await expect(stopped).rejects.toMatchObject({ kind: 'ABORTED' })
    await new Promise((resolve) => setImmediate(resolve))
    expect(bodies).toHaveLength(1)
  })

  it("fails only the call whose params cannot be written as JSON; another scan's call in the same turn is sent", async () => {
    const channel = createRpcChannel(url, { schedule: setImmediate })
    const broken = createRpcClient(channel)
    const [bad, good] = await Promise.allSettled([
      broken.request('eth_call', [1n]),
      createRpcClient(channel).request('eth_chainId', []),
    ])
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.any(TypeError) })
    expect(good).toEqual({ status: 'fulfilled', value: 'eth_chainId' })
    expect(bodies).toEqual([{ jsonrpc: '2.0', id: expect.any(Number), method: 'eth_chainId', params: [] }])
  })
})
