/** The server survives garbage and failures: a deterministic fuzz of bodies, and an engine that throws. */
import { createServer as createNetServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { API_VERSIONS } from '../../src/server/versions.ts'
import { buildScenarios, permitMessage } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { listenOnFreePort } from '../support/net.ts'
import { post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'fuzz-key'
const FUZZ_CASES = 300

let devnet: Devnet
let server: RunningServer

beforeAll(async () => {
  devnet = await startTestDevnet()
  server = await startScanServer({
    port: 0,
    networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
    apiKeys: [KEY],
    logStream: logSink().stream,
  })
})

afterAll(async () => {
  await server?.close()
  await devnet?.stop()
})

/** mulberry32: a tiny seeded generator, so every run sends the same garbage. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function fuzzer(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const strings = ['', '0x', '0xzz', '-1', '1e400', 'NaN', '0x'.padEnd(4000, 'f'), '💥', '__proto__', 'constructor']
  const value = (depth: number): Json => {
    const roll = random()
    if (depth > 4 || roll < 0.3) return pick<Json>([null, true, false, 0, -1, 2 ** 53 + 1, 1e308, 1.5, ...strings])
    if (roll < 0.55) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1))
    const object: { [key: string]: Json } = {}
    for (let i = Math.floor(random() * 4); i > 0; i -= 1)
      object[pick(['kind', 'data', 'txObjects', 'types', 'x', 'domains'])] = value(depth + 1)
    return object
  }
  /** Replaces one randomly chosen node of a valid request with garbage. */
  const mutate = (json: Json): Json => {
    if (json === null || typeof json !== 'object' || random() < 0.25) return value(2)
    const copy: Json = Array.isArray(json) ? [...json] : { ...json }
    const keys = Object.keys(copy)
    if (keys.length === 0) return value(2)
    const key = pick(keys)
    ;(copy as Record<string, Json>)[key] = mutate((copy as Record<string, Json>)[key] as Json)
    return copy
  }
  const bytes = () =>
    Array.from({ length: Math.floor(random() * 120) }, () => String.fromCharCode(Math.floor(random() * 256))).join('')
  return { pick, value, mutate, bytes }
}

describe('garbage in', () => {
  it(`answers ${FUZZ_CASES} garbage bodies without a 500 and keeps serving`, async () => {
    const random = seeded(0xc0ffee)
    const { pick, value, mutate, bytes } = fuzzer(random)
    const fixtures = devnet.fixtures
    const [user] = fixtures.accounts.map((a) => a.address)
    const valid: { path: string; body: Json }[] = [
      ...buildScenarios(fixtures, [])
        .filter((s) => s.kind === 'transactions')
        .map((s) => ({ path: '/ethereum/v0/devnet/scan/transactions', body: s.request as unknown as Json })),
      {
        path: '/ethereum/v0/devnet/scan/message',
        body: permitMessage(
          fixtures,
          user as `0x${string}`,
          fixtures.erc20.address,
          fixtures.safe.address,
        ) as unknown as Json,
      },
      { path: '/v0/domains', body: { domains: ['example.org'] } },
    ]
    const statuses = new Map<number, number>()
    for (let i = 0; i < FUZZ_CASES; i += 1) {
      const target = pick(valid)
      const roll = random()
      const body = roll < 0.2 ? bytes() : roll < 0.4 ? JSON.stringify(value(0)) : JSON.stringify(mutate(target.body))
      const headers = { 'X-Api-Key': KEY, 'X-Api-Version': pick([...API_VERSIONS, '2023-06-05']) }
      const answer = await post(`${server.url}${target.path}`, body, headers)
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      expect([200, 400], `case ${i}: ${body.slice(0, 300)} → ${JSON.stringify(answer.body).slice(0, 300)}`).toContain(
        answer.status,
      )
      if (answer.status === 400) expect((answer.body as { error: string }).error).toMatch(/^[\w.[\]-]+: |^[\w-]+: /)
    }
    expect(statuses.get(400) ?? 0).toBeGreaterThan(FUZZ_CASES / 3)
    const after = await post(`${server.url}${valid[0]?.path}`, valid[0]?.body, { 'X-Api-Key': KEY })
    expect(after.status).toBe(200)
  })
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
