/** A bug inside the real engine is the server's fault (500, detail logged), never blamed on the node (502). */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { type ScanOptions, scanMessageWithStats } from '../../src/engine/index.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { permitMessage } from '../bench/scenarios.ts'
import { freePort, startTestDevnet } from '../support/devnet.ts'
import { post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'internal-key'

/** The clock is an engine input; one that throws makes the real engine hit an unexpected exception mid-scan. */
const brokenClock = (options: ScanOptions): ScanOptions => ({
  ...options,
  now: () => {
    throw new Error('clock exploded at permits.ts')
  },
})

let devnet: Devnet
let server: RunningServer
const logs = logSink()

beforeAll(async () => {
  devnet = await startTestDevnet()
  server = await startScanServer({
    port: await freePort(),
    networks: parseNetworks([`ethereum/devnet=${devnet.fixtures.rpcUrl}`]),
    apiKeys: [KEY],
    logStream: logs.stream,
    // The real engine, with a clock that throws: the scan job as the server runs it, but with that one input broken.
    runner: {
      threads: 0,
      close: async () => {},
      run: async (job) => {
        const { outcome, stats } = await scanMessageWithStats(job.body, brokenClock({ rpcUrl: job.rpcUrl }))
        return outcome.ok
          ? { ok: true, json: JSON.stringify(outcome.response), stats }
          : { ok: false, error: outcome.error, stats }
      },
    },
  })
})

afterAll(async () => {
  await server?.close()
  await devnet?.stop()
})

describe('an engine bug', () => {
  it('is an INTERNAL error value from the engine, not an RPC error', async () => {
    const { fixtures } = devnet
    const [owner, spender] = fixtures.accounts.map((account) => account.address) as [Address, Address]
    const request = permitMessage(fixtures, owner, fixtures.erc20.address, spender)
    const { outcome } = await scanMessageWithStats(request, brokenClock({ rpcUrl: fixtures.rpcUrl }))
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'INTERNAL' } })
  })

  it('answers 500 Internal Server Error, logs the detail and does not leak it', async () => {
    const { fixtures } = devnet
    const [owner, spender] = fixtures.accounts.map((account) => account.address) as [Address, Address]
    const request = permitMessage(fixtures, owner, fixtures.erc20.address, spender)
    const answer = await post(`${server.url}/ethereum/v0/devnet/scan/message`, request, { 'X-Api-Key': KEY })
    expect(answer.status).toBe(500)
    const body = answer.body as { error: string; requestId: string }
    expect(body).toEqual({ error: 'Internal Server Error', requestId: expect.stringMatching(/^[0-9a-f]{32}$/) })
    const line = logs.lines().find((entry) => entry.requestId === body.requestId && entry.level === 50)
    expect(String(line?.error)).toContain('clock exploded at permits.ts')
  })
})
