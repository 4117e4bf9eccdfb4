/** The server survives failures: a node that never answers, and a scan that throws. */
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
