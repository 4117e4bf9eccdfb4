/**
 * Property-based fuzzing of the scan API over real HTTP (fast-check): random and mutated bodies, headers, methods and
 * paths. Whatever arrives, the answer is never a 5xx, always JSON with a request id, and the server keeps serving.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { API_VERSIONS } from '../../src/server/versions.ts'
import { buildScenarios, permitMessage, safeTxMessage } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { logSink } from './logSink.ts'

const KEY = 'fuzz-key'
const RUNS = 10_000

let devnet: Devnet
let server: RunningServer

beforeAll(async () => {
  devnet = await startTestDevnet()
  server = await startScanServer({
    port: 0,
    networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
    apiKeys: [KEY],
    // Limits are tested elsewhere; here every request should reach as deep into the server as its input allows.
    rateLimit: 1_000_000,
    authFailureLimit: 1_000_000,
    logStream: logSink().stream,
  })
})

afterAll(async () => {
  await server?.close()
  await devnet?.stop()
})

/** Replaces one node of a JSON value (chosen by the path of indices) with another value. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement
  const [step = 0, ...rest] = path
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement
    const index = step % value.length
    return value.map((item, i) => (i === index ? mutate(item, rest, replacement) : item))
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return replacement
  const key = keys[step % keys.length] as string
  return { ...value, [key]: mutate((value as Record<string, unknown>)[key], rest, replacement) }
}

describe('fuzz', () => {
  it(`${RUNS} random and mutated requests: no 5xx, always JSON with a request id`, async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[0]?.address as `0x${string}`
    const valid = [
      ...buildScenarios(fixtures, [])
        .filter((s) => s.kind === 'transactions')
        .map((s) => ({ path: '/ethereum/v0/devnet/scan/transactions', body: s.request as unknown })),
      { path: '/ethereum/v0/devnet/scan/message', body: permitMessage(fixtures, user, fixtures.erc20.address, user) },
      { path: '/ethereum/v0/devnet/scan/message', body: safeTxMessage(fixtures, user, fixtures.safe.address) },
      { path: '/v0/domains', body: { domains: ['example.org', 'https://etherscan.io'] } },
    ]
    const nasty = fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      '',
      '0x',
      `0x${'f'.repeat(4001)}`,
      '-1',
      '1e400',
      '💥',
      '\u0000',
      2 ** 53 + 2,
      -0,
      1e308,
      [],
      {},
      null,
    )
    const bodyArb = fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(...valid)
          .map((target) => ({ path: target.path, text: JSON.stringify(target.body) })),
      },
      {
        weight: 5,
        arbitrary: fc
          .record({
            target: fc.constantFrom(...valid),
            path: fc.array(fc.nat(50), { maxLength: 6 }),
            replacement: fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 })),
          })
          .map(({ target, path, replacement }) => ({
            path: target.path,
            text: JSON.stringify(mutate(target.body, path, replacement)) ?? 'null',
          })),
      },
      { weight: 1, arbitrary: fc.record({ path: fc.constantFrom(...valid.map((v) => v.path)), text: fc.json() }) },
      { weight: 1, arbitrary: fc.record({ path: fc.constantFrom(...valid.map((v) => v.path)), text: fc.string() }) },
    )
    const pathArb = fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('/', '/v0', '/ethereum/v0/nowhere/scan/message', '/x/v0/y/scan/transactions/extra'),
      },
      { weight: 1, arbitrary: fc.webPath() },
      {
        weight: 1,
        arbitrary: fc
          .string({ maxLength: 60 })
          .map((text) => `/${encodeURIComponent(text)}/v0/${encodeURIComponent(text)}/scan/transactions`),
      },
    )
    const requestArb = fc.record({
      body: bodyArb,
      path: pathArb,
      method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      key: fc.oneof(fc.constant(KEY), fc.constant(KEY), fc.constant(undefined), fc.string({ maxLength: 40 })),
      version: fc.oneof(fc.constantFrom(...API_VERSIONS), fc.constant(undefined), fc.string({ maxLength: 20 })),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      ),
      query: fc.constantFrom('', '?language=fr', '?language=', `?${'a'.repeat(300)}=1`),
    })
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const headers: Record<string, string> = {}
        // fetch refuses header values with control characters; those never reach a server through it anyway.
        const safe = (value: string) => value.replace(/[^\x20-\x7e]/g, '')
        if (request.key !== undefined) headers['x-api-key'] = safe(request.key)
        if (request.version !== undefined) headers['x-api-version'] = safe(request.version)
        if (request.contentType !== undefined) headers['content-type'] = request.contentType
        const path = request.path ?? request.body.path
        const withBody = request.method !== 'GET' && request.method !== 'OPTIONS'
        const response = await fetch(`${server.url}${path}${request.query}`, {
          method: request.method,
          headers,
          ...(withBody ? { body: request.body.text } : {}),
        })
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const text = await response.text()
        expect(response.status, `${request.method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(500)
        if (response.status === 204) return
        expect(response.headers.get('content-type')).toMatch(/^application\/json/)
        const body = JSON.parse(text) as unknown
        const requestId = response.headers.get('x-request-id')
        expect(requestId).toMatch(/^[0-9a-f]{32}$/)
        // The domains answer is a list (the reference's shape): its id travels in X-Request-Id only.
        if (!Array.isArray(body)) expect((body as { requestId?: unknown }).requestId).toBe(requestId)
      }),
      { numRuns: RUNS, seed: 11_000 },
    )
    // The fuzz reached past validation into real scans, and refused plenty.
    expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(RUNS / 100)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 5)
    const after = await fetch(`${server.url}/healthz`)
    expect(after.status).toBe(200)
  }, 600_000)
})
