/**
 * Operating the scan API: per-key rate limits in memory and in a real Redis shared by two servers, wrong-key brute
 * force, health and readiness, Prometheus metrics and the node's URL kept out of answers.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { buildScenarios } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { startUnreachableEndpoint, type UnreachableEndpoint } from '../support/net.ts'
import { type RedisServer, startRedis } from '../support/redis.ts'
import { startSlowNode } from '../support/slowNode.ts'
import { errorOf, post } from './client.ts'
import { logSink } from './logSink.ts'

let devnet: Devnet
let redis: RedisServer
let offline: UnreachableEndpoint
const servers: RunningServer[] = []

beforeAll(async () => {
  ;[devnet, redis, offline] = await Promise.all([startTestDevnet(), startRedis(), startUnreachableEndpoint()])
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await Promise.all([devnet?.stop(), redis?.stop(), offline?.close()])
})

async function start(options: Partial<Parameters<typeof startScanServer>[0]> = {}) {
  const logs = logSink()
  const server = await startScanServer({
    port: 0,
    networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
    apiKeys: ['key-a', 'key-b'],
    logStream: logs.stream,
    ...options,
  })
  servers.push(server)
  return { server, logs }
}

const domains = (server: RunningServer, key: string) =>
  post(`${server.url}/v0/domains`, { domains: ['example.org'] }, { 'X-Api-Key': key })

describe('rate limits', () => {
  // Limits count in windows aligned to the clock's minutes: each test starts where its requests all fall in one.
  beforeEach(async () => {
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 30_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50))
  })

  it('counts per key in memory: over the limit is 429 with Retry-After and a request id; other keys go on', async () => {
    const { server } = await start({ rateLimit: 5 })
    const statuses = []
    for (let i = 0; i < 7; i += 1) statuses.push((await domains(server, 'key-a')).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    const refused = await domains(server, 'key-a')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    expect(refused.body).toEqual({
      error: expect.stringMatching(/5 requests per minute/),
      requestId: expect.any(String),
    })
    expect((await domains(server, 'key-b')).status).toBe(200)
  })

  it('with --redis, two servers share one count per key', async () => {
    const first = await start({ rateLimit: 6, redisUrl: redis.url })
    const second = await start({ rateLimit: 6, redisUrl: redis.url })
    const statuses = []
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await domains(first.server, 'key-a')).status, (await domains(second.server, 'key-a')).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
    expect((await domains(second.server, 'key-b')).status).toBe(200)
  })

  it('refuses an address after 20 wrong keys, even its right key, for the rest of the minute', async () => {
    const { server } = await start({ authFailureLimit: 20 })
    const wrong = await Promise.all(Array.from({ length: 320 }, (_, i) => domains(server, `guess-${i}`)))
    const counts = new Map<number, number>()
    for (const answer of wrong) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1)
    expect(counts.get(401)).toBe(20)
    expect(counts.get(429)).toBe(300)
    const right = await domains(server, 'key-a')
    expect(right.status).toBe(429)
    expect(errorOf(right)).toMatch(/wrong X-Api-Key/)
  })

  const fromClient = (server: RunningServer, key: string, client: string) =>
    post(`${server.url}/v0/domains`, { domains: ['example.org'] }, { 'X-Api-Key': key, 'X-Forwarded-For': client })

  it("with --trust-proxy, one client's wrong keys refuse that client, not every client behind the balancer", async () => {
    const trusting = (await start({ authFailureLimit: 3, trustProxy: '127.0.0.1' })).server
    const plain = (await start({ authFailureLimit: 3 })).server
    for (const server of [trusting, plain]) {
      for (let i = 0; i < 4; i += 1) await fromClient(server, `guess-${i}`, '10.0.0.1')
      expect((await fromClient(server, 'key-a', '10.0.0.1')).status).toBe(429)
    }
    expect((await fromClient(trusting, 'key-a', '10.9.9.9')).status).toBe(200)
    // Without it the balancer (here the loopback peer) is the one client, refused for all.
    expect((await fromClient(plain, 'key-a', '10.9.9.9')).status).toBe(429)
  })
})

describe('clients that hold connections', () => {
  it('closes a connection whose headers do not arrive in time, answering 408 with a request id', async () => {
    const { server } = await start({ headersTimeoutMs: 500 })
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
    })
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write('POST /v0/domains HTTP/1.1\r\nHost: x\r\nX-Api-')
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).toMatch(/"requestId":"[0-9a-f]{32}"/)
  })

  it('keeps at most --max-connections open: the next is closed as it arrives, and accepted once one ends', async () => {
    const { server } = await start({ maxConnections: 3 })
    const port = Number(new URL(server.url).port)
    const held = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const socket = connect(port, '127.0.0.1')
        await new Promise((resolve) => socket.once('connect', resolve))
        return socket
      }),
    )
    const refused = await fetch(`${server.url}/healthz`).then(
      (response) => response.status,
      () => 'closed',
    )
    expect(refused).toBe('closed')
    const ended = held.pop()
    ended?.destroy()
    await expect
      .poll(() =>
        fetch(`${server.url}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      )
      .toBe(200)
    for (const socket of held) socket.destroy()
  })
})

describe('health, readiness and metrics', () => {
  it('/healthz answers without a key; /readyz names the node that is down, without its URL', async () => {
    const { server } = await start({
      networks: parseNetworks([
        `ethereum/devnet=${devnet.fixtures.rpcUrl}`,
        `ethereum/sepolia=${offline.url}/v3/secret`,
      ]),
    })
    const health = await fetch(`${server.url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok' })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    const text = await ready.text()
    expect(JSON.parse(text)).toMatchObject({
      status: 'not ready',
      problems: [{ dependency: 'node for ethereum/sepolia', problem: 'unreachable' }],
    })
    expect(text).not.toContain('secret')
    const fine = await start()
    expect((await fetch(`${fine.server.url}/readyz`)).status).toBe(200)
  })

  it('/readyz is 503 for a node that serves another chain than its name', async () => {
    const { server } = await start({ networks: parseNetworks([`ethereum/mainnet=${devnet.fixtures.rpcUrl}`]) })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({
      problems: [
        { dependency: 'node for ethereum/mainnet', problem: 'serves chain 31337, but ethereum/mainnet is chain 1' },
      ],
    })
  })

  it('a failing node: 502 naming the chain/network and the kind, its URL only in the log and redacted; counted', async () => {
    const { server, logs } = await start({
      networks: parseNetworks([`ethereum/sepolia=${offline.url}/v3/customer-key-123?token=abc`]),
    })
    const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
    const answer = await post(`${server.url}/ethereum/v0/sepolia/scan/transactions`, request, { 'X-Api-Key': 'key-a' })
    expect(answer.status).toBe(502)
    expect(errorOf(answer)).toBe('the node for ethereum/sepolia failed: UNREACHABLE')
    expect(JSON.stringify(answer.body)).not.toMatch(/customer-key-123|token=abc|127\.0\.0\.1/)
    const logged = logs.lines().find((line) => line.msg === 'node failed')
    expect(logged).toMatchObject({ network: 'ethereum/sepolia', reason: 'UNREACHABLE', node: `${offline.url}/…` })
    expect(logs.text()).not.toMatch(/customer-key-123|token=abc|key-a/)
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    expect(metrics).toContain('preflight_node_errors_total{network="ethereum/sepolia",kind="UNREACHABLE"} 1')
    expect(metrics).toMatch(
      /preflight_http_requests_total\{route="\/:chain\/v0\/:network\/scan\/transactions",status="502"\} 1/,
    )
    expect(metrics).toMatch(
      /preflight_scan_duration_seconds_count\{route="\/:chain\/v0\/:network\/scan\/transactions"\} 1/,
    )
  })

  it("tells the node's part of a scan: nodeMs in its log line and the node-wait histogram, by network", async () => {
    const slow = await startSlowNode(devnet.fixtures.rpcUrl, 300)
    try {
      const { server, logs } = await start({ networks: parseNetworks([`ethereum/devnet=${slow.url}`]) })
      const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
      const answer = await post(`${server.url}/ethereum/v0/devnet/scan/transactions`, request, { 'X-Api-Key': 'key-a' })
      expect(answer.status).toBe(200)
      const line = logs.lines().find((one) => one.requestId === (answer.body as { requestId: string }).requestId)
      const { durationMs, nodeMs, rpcRoundTrips } = line as {
        durationMs: number
        nodeMs: number
        rpcRoundTrips: number
      }
      expect(rpcRoundTrips).toBe(1)
      expect(nodeMs).toBeGreaterThanOrEqual(300)
      expect(durationMs).toBeGreaterThanOrEqual(nodeMs)
      const metrics = await (await fetch(`${server.url}/metrics`)).text()
      expect(metrics).toContain('preflight_scan_node_wait_seconds_bucket{le="0.25",network="ethereum/devnet"} 0')
      expect(metrics).toContain('preflight_scan_node_wait_seconds_count{network="ethereum/devnet"} 1')
      const sum = metrics.match(/preflight_scan_node_wait_seconds_sum\{network="ethereum\/devnet"\} ([\d.]+)/)?.[1]
      expect(Number(sum)).toBeCloseTo(nodeMs / 1000, 2)
    } finally {
      await slow.close()
    }
  })

  it('/openapi.json refuses an unknown version and /docs serves a page with its scripts', async () => {
    const { server } = await start()
    expect((await fetch(`${server.url}/openapi.json?version=2020-01-01`)).status).toBe(400)
    const page = await fetch(`${server.url}/docs`)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain("'/openapi.json?version=' + version")
    const script = await fetch(`${server.url}/docs/swagger-ui-bundle.js`)
    expect(script.status).toBe(200)
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000)
    expect((await fetch(`${server.url}/docs/..%2fpackage.json`)).status).toBe(404)
  })
})
