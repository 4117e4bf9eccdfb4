/**
 * The server under hostile but valid requests and failing nodes: big requests are served within the scan timeout or
 * refused naming the limit while others keep being served; a node that hangs, errors or drops the connection is a
 * 502 or 504 within the timeout; a scan that throws is a 500 that harms no other request.
 */

import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { connect, createServer as createNetServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { buildScenarios } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { listenOnFreePort, readBody } from '../support/net.ts'
import { errorOf, post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'fuzz-key'

let devnet: Devnet
let server: RunningServer

beforeAll(async () => {
  devnet = await startTestDevnet()
  server = await startScanServer({
    port: 0,
    networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
    apiKeys: [KEY],
    rateLimit: 100_000,
    logStream: logSink().stream,
  })
})

afterAll(async () => {
  await server?.close()
  await devnet?.stop()
})

describe('a node that never answers', () => {
  it('answers 504 after the scan deadline instead of hanging', async () => {
    // A real TCP listener that accepts and then stays silent, as a stuck node would.
    const sockets = new Set<Socket>()
    const silent = createNetServer((socket) => sockets.add(socket))
    const port = await listenOnFreePort(silent)
    const slow = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/stuck=http://127.0.0.1:${port}`]),
      apiKeys: [KEY],
      scanTimeoutMs: 300,
      logStream: logSink().stream,
    })
    try {
      const scenario = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')
      const answer = await post(`${slow.url}/ethereum/v0/stuck/scan/transactions`, scenario?.request, {
        'X-Api-Key': KEY,
      })
      expect(answer.status).toBe(504)
      expect((answer.body as { error: string }).error).toMatch(/did not finish within 0.3 seconds/)
      const metrics = await (await fetch(`${slow.url}/metrics`)).text()
      expect(metrics).toContain('preflight_node_errors_total{network="ethereum/stuck",kind="TIMEOUT"} 1')
      expect(metrics).not.toContain('preflight_scan_node_wait_seconds_count{network="ethereum/stuck"}')
    } finally {
      await slow.close()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})

describe('a scan that throws', () => {
  it('answers 500 with a request id, logs the detail and still serves the next request', async () => {
    let calls = 0
    const logs = logSink()
    const failing = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
      apiKeys: [KEY],
      logStream: logs.stream,
      // A boundary stand-in: the real engine never throws on input, so a bug is simulated to test the server's net.
      runner: {
        threads: 0,
        close: async () => {},
        run: async () => {
          calls += 1
          throw new Error('bug in the engine')
        },
      },
    })
    try {
      const scenario = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')
      const first = await post(`${failing.url}/ethereum/v0/devnet/scan/transactions`, scenario?.request, {
        'X-Api-Key': KEY,
      })
      expect(first.status).toBe(500)
      const body = first.body as { error: string; requestId: string }
      expect(body.error).toBe('Internal Server Error')
      expect(body.requestId).toMatch(/^[0-9a-f]{32}$/)
      expect(logs.text()).toContain(body.requestId)
      expect(logs.text()).toContain('bug in the engine')
      const second = await post(`${failing.url}/v0/domains`, { domains: ['example.org'] }, { 'X-Api-Key': KEY })
      expect(second.status).toBe(200)
      expect(calls).toBe(1)
    } finally {
      await failing.close()
    }
  })
})

const SCAN_TIMEOUT_S = 20

describe('hostile but valid requests', () => {
  it('are served within the scan timeout or refused naming the limit, while health checks keep being answered', async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[0]?.address as string
    const base = { userAccount: user, metadata: { origin: 'https://a.org' } }
    const tx = (data = '0x') => ({ from: user, to: fixtures.accounts[1]?.address, value: '1', data })
    const overrides = (count: number) => ({
      stateOverrides: {
        storage: Array.from({ length: count }, (_, i) => ({
          address: fixtures.erc20.address,
          slot: `0x${(i + 1).toString(16)}`,
          value: '0x1',
        })),
      },
    })
    // A chain of 200 nested struct types, each holding the next: deep typed data within the 256-type bound.
    const depth = 200
    const types: Record<string, { name: string; type: string }[]> = {
      EIP712Domain: [{ name: 'name', type: 'string' }],
    }
    let message: Record<string, unknown> = { leaf: 'x' }
    types[`T${depth}`] = [{ name: 'leaf', type: 'string' }]
    for (let level = depth - 1; level >= 0; level -= 1) {
      types[`T${level}`] = [{ name: 'inner', type: `T${level + 1}` }]
      message = { inner: message }
    }
    const cases: [string, string, unknown, RegExp | null][] = [
      ['100 transactions', 'transactions', { ...base, txObjects: Array.from({ length: 100 }, () => tx()) }, null],
      [
        '101 transactions',
        'transactions',
        { ...base, txObjects: Array.from({ length: 101 }, () => tx()) },
        /^txObjects: has 101 entries; at most 100/,
      ],
      ['500 KB of calldata', 'transactions', { ...base, txObjects: [tx(`0x${'ab'.repeat(250_000)}`)] }, null],
      [
        '1,000 storage overrides',
        'transactions',
        { ...base, txObjects: [tx()], simulatorConfig: overrides(1000) },
        null,
      ],
      [
        '12,000 storage overrides',
        'transactions',
        { ...base, txObjects: [tx()], simulatorConfig: overrides(12_000) },
        /^simulatorConfig\.stateOverrides\.storage: has 12000 entries; at most 1000/,
      ],
      [
        'a 2 MiB body',
        'transactions',
        { ...base, txObjects: [tx(`0x${'ab'.repeat(1_000_000)}`)] },
        /^body: larger than/,
      ],
      [
        'typed data 200 structs deep',
        'message',
        {
          ...base,
          message: { kind: 'SIGN_TYPED_DATA', data: { types, primaryType: 'T0', domain: { name: 'deep' }, message } },
        },
        null,
      ],
    ]
    let pings = 0
    let pinging = true
    const pinger = (async () => {
      while (pinging) {
        const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(SCAN_TIMEOUT_S * 1000) })
        expect(health.status).toBe(200)
        pings += 1
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const answers = await Promise.all(
      cases.map(async ([name, kind, body, refusal]) => {
        const answer = await post(`${server.url}/ethereum/v0/devnet/scan/${kind}`, body, { 'X-Api-Key': KEY })
        return { name, answer, refusal }
      }),
    )
    pinging = false
    await pinger
    for (const { name, answer, refusal } of answers) {
      if (refusal === null) {
        expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200)
      } else {
        expect([400, 413], name).toContain(answer.status)
        expect(errorOf(answer), name).toMatch(refusal)
      }
    }
    expect(pings).toBeGreaterThan(0)
  }, 120_000)
})

describe('node faults', () => {
  /** A JSON-RPC endpoint that misbehaves in one way for every request. */
  async function faultyNode(fault: 'http500' | 'rpcError' | 'dropMidway' | 'garbage' | 'echo') {
    let url = ''
    const node = createHttpServer(async (request, response) => {
      await readBody(request)
      if (fault === 'dropMidway') {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write('{"jsonrpc":"2.0","id":0,"res')
        response.destroy()
        return
      }
      if (fault === 'http500') return response.writeHead(500).end('upstream exploded')
      if (fault === 'garbage') return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>')
      // As gateways word a refusal: the key alone, the request's path, and the URL percent-encoded.
      const message =
        fault === 'echo'
          ? `key secret-key-0123 over quota for POST ${request.url} (${encodeURIComponent(url)}); token Q1-token-secret`
          : 'header not found'
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32000, message } }))
    })
    const port = await listenOnFreePort(node)
    url = `http://127.0.0.1:${port}/v3/secret-key-0123?apikey=Q1-token-secret`
    return { url, close: () => new Promise((resolve) => node.close(resolve)) }
  }

  it.each([
    ['http500', 'HTTP_ERROR'],
    ['dropMidway', 'UNREACHABLE'],
    ['garbage', 'NOT_JSON_RPC'],
  ] as const)('a node that answers %s → 502 naming the kind, never its URL', async (fault, kind) => {
    const node = await faultyNode(fault)
    const faulty = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/sepolia=${node.url}`]),
      apiKeys: [KEY],
      scanTimeoutMs: 5_000,
      logStream: logSink().stream,
    })
    try {
      const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
      const answer = await post(`${faulty.url}/ethereum/v0/sepolia/scan/transactions`, request, { 'X-Api-Key': KEY })
      expect(answer.status, JSON.stringify(answer.body)).toBe(502)
      expect(errorOf(answer)).toBe(`the node for ethereum/sepolia failed: ${kind}`)
      expect(JSON.stringify(answer.body)).not.toContain('secret-key')
    } finally {
      await faulty.close()
      await node.close()
    }
  })

  it.each(['rpcError', 'echo'] as const)(
    'a node that refuses the simulation (%s): the reason is passed on, never its URL or key',
    async (fault) => {
      const node = await faultyNode(fault)
      const faulty = await startScanServer({
        port: 0,
        networks: parseNetworks([`ethereum/sepolia=${node.url}`]),
        apiKeys: [KEY],
        logStream: logSink().stream,
      })
      try {
        const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
        const answer = await post(`${faulty.url}/ethereum/v0/sepolia/scan/transactions`, request, { 'X-Api-Key': KEY })
        // The chain id is asked in the same batch and refused too: the node failed, which is a 502.
        expect([200, 502]).toContain(answer.status)
        const text = JSON.stringify(answer.body)
        expect(text).not.toContain('secret-key')
        expect(text).not.toContain('Q1-token-secret')
        if (fault === 'echo') expect(text).toMatch(/key \[node\] over quota for POST \/v3\/\[node\]/)
      } finally {
        await faulty.close()
        await node.close()
      }
    },
  )
})

describe('a client that sends its body too slowly', () => {
  it('gets 408 naming the deadline, as JSON with a request id, and the server serves others meanwhile', async () => {
    const impatient = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
      apiKeys: [KEY],
      bodyTimeoutMs: 500,
      logStream: logSink().stream,
    })
    const { port } = new URL(impatient.url)
    try {
      const socket = connect(Number(port), '127.0.0.1')
      let answer = ''
      socket.on('data', (chunk) => {
        answer += chunk
      })
      const closed = new Promise((resolve) => socket.on('close', resolve))
      socket.write(
        'POST /v0/domains HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          `X-Api-Key: ${KEY}\r\nContent-Length: 100\r\n\r\n{"domains": [`,
      )
      expect((await fetch(`${impatient.url}/healthz`)).status).toBe(200)
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))])
      socket.destroy()
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string; requestId: string }
      expect(body.error).toBe('body: not received within 0.5 seconds')
      expect(body.requestId).toMatch(/^[0-9a-f]{32}$/)
    } finally {
      await impatient.close()
    }
  })
})

describe('a body the server answers without reading', () => {
  it('ends its deadline and its connection with the answer: the process outlives it, serves on and closes at once', async () => {
    const quick = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
      apiKeys: [KEY],
      bodyTimeoutMs: 300,
      maxBodyBytes: 50_000,
      logStream: logSink().stream,
    })
    // An error escaping a stream nobody listens to is thrown out of the event loop; vitest would only report it later.
    const escaped: unknown[] = []
    const record = (error: unknown) => escaped.push(error)
    process.on('uncaughtException', record)
    const { port } = new URL(quick.url)
    // Over the socket buffers, so most of each body stays unread when the answer goes.
    const body = 'a'.repeat(200_000)
    const send = (method: string, path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const sent = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        // The server may close its side before the whole body is written.
        sent.on('error', () => resolve(0))
        sent.end(body)
      })
    try {
      const statuses = await Promise.all([
        send('GET', '/healthz', { 'content-type': 'text/plain' }),
        send('OPTIONS', '/anything', {}),
        send('POST', '/nothing', { 'content-type': 'text/plain' }),
        send('POST', '/ethereum/v0/devnet/scan/transactions', { 'content-type': 'application/json', 'x-api-key': KEY }),
      ])
      expect(statuses[3]).toBe(413)
      await new Promise((resolve) => setTimeout(resolve, 900))
      expect(escaped).toEqual([])
      expect((await fetch(`${quick.url}/healthz`)).status).toBe(200)
    } finally {
      process.off('uncaughtException', record)
      // No connection waits on a body nobody reads: closing does not sit out the scan timeout (20 s).
      const closing = performance.now()
      await quick.close()
      expect(performance.now() - closing).toBeLessThan(5_000)
    }
  })
})

describe('requests turned away before any route sees them', () => {
  /** Writes `text` on a fresh connection and resolves with everything the server answered. */
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
      let answer = ''
      socket.on('data', (chunk) => {
        answer += chunk
      })
      socket.on('close', () => resolve(answer))
      socket.on('error', () => {})
      socket.write(text)
      setTimeout(() => socket.end(), 300)
    })

  it.each([
    ['a malformed percent-encoding', 'GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n', 400, /^path: not a valid URL/],
    [
      'a path segment past 100 characters',
      `POST /${'e'.repeat(150)}/v0/devnet/scan/transactions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`,
      414,
      /^path: a segment is longer than 100 characters$/,
    ],
    [
      'headers past 16 KiB',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      /^headers: larger than/,
    ],
    ['no HTTP at all', 'GARBAGE\r\n\r\n', 400, /^request: not valid HTTP/],
  ])('%s: JSON with a request id, as every answer', async (_what, text, status, error) => {
    const answer = await raw(text)
    expect(answer.split('\r\n', 1)[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase()
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string; requestId: string }
    expect(body.error).toMatch(error)
    expect(body.requestId).toMatch(/^[0-9a-f]{32}$/)
    expect(head).toContain(`x-request-id: ${body.requestId}`)
    expect(head).toContain('access-control-allow-origin: *')
  })
})

describe('a client that leaves before its answer', () => {
  it("cancels its scan and the scan's node call, and is logged and counted as 499", async () => {
    // A node that reads the call and never answers; it notes when the server gives up the connection.
    const connections: { received: boolean; closed: boolean }[] = []
    const node = createNetServer((socket) => {
      const seen = { received: false, closed: false }
      connections.push(seen)
      socket.on('data', () => {
        seen.received = true
      })
      socket.on('close', () => {
        seen.closed = true
      })
    })
    const port = await listenOnFreePort(node)
    const logs = logSink()
    const patient = await startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/sepolia=http://127.0.0.1:${port}`]),
      apiKeys: [KEY],
      logStream: logs.stream,
    })
    try {
      const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
      const leaving = new AbortController()
      const answer = fetch(`${patient.url}/ethereum/v0/sepolia/scan/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify(request),
        signal: leaving.signal,
      }).catch(() => 'left')
      await expect.poll(() => connections.some((one) => one.received), { timeout: 5_000 }).toBe(true)
      leaving.abort()
      expect(await answer).toBe('left')
      // Within the scan timeout's 20 s by far: the node call ends with the client.
      await expect.poll(() => connections.every((one) => one.closed), { timeout: 5_000 }).toBe(true)
      await expect
        .poll(() => logs.lines().filter((line) => line.msg === 'request'), { timeout: 5_000 })
        .toEqual([expect.objectContaining({ status: 499, route: '/:chain/v0/:network/scan/transactions' })])
      const metrics = await (await fetch(`${patient.url}/metrics`)).text()
      expect(metrics).toMatch(
        /preflight_http_requests_total\{route="\/:chain\/v0\/:network\/scan\/transactions",status="499"\} 1/,
      )
    } finally {
      await patient.close()
      node.close()
    }
  })
})
