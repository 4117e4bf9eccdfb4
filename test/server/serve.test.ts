/** `preflight serve` as a process: flags, keys from the environment, a real scan, and a clean stop on SIGTERM. */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { ScanTransactionsResponse } from '../../src/engine/index.ts'
import { buildScenarios } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { startSlowNode } from '../support/slowNode.ts'
import { post } from './client.ts'
import { serve, stop } from './serveCommand.ts'

let devnet: Devnet

beforeAll(async () => {
  devnet = await startTestDevnet()
})

afterAll(async () => {
  await devnet?.stop()
})

const transfer = () => buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request

describe('preflight serve', () => {
  it('refuses to start without an --rpc or an API key, saying which', async () => {
    // Started together: each start pays tsx's compile time, and the four are independent.
    const noRpc = serve(['--port', '0', '--api-key', 'k'])
    const badRpc = serve(['--port', '0', '--rpc', 'ethereum-mainnet', '--api-key', 'k'])
    const noKey = serve(['--port', '0', '--rpc', `ethereum/devnet=${devnet.fixtures.rpcUrl}`], {
      PREFLIGHT_API_KEYS: '',
    })
    const badProxy = serve(
      ['--port', '0', '--rpc', `ethereum/devnet=${devnet.fixtures.rpcUrl}`, '--trust-proxy', 'balancer.local'],
      { PREFLIGHT_API_KEYS: 'k' },
    )
    expect(await Promise.all([noRpc.exited, badRpc.exited, noKey.exited, badProxy.exited])).toEqual([2, 2, 2, 2])
    expect(badProxy.output().stderr).toMatch(/--trust-proxy takes IP addresses and CIDR ranges/)
    expect(noRpc.output().stderr).toMatch(/--rpc/)
    expect(badRpc.output().stderr).toMatch(/CHAIN\/NETWORK=URL/)
    expect(noKey.output().stderr).toMatch(/--api-key/)
  })

  it('serves scans with keys from flags and PREFLIGHT_API_KEYS, and exits 0 on SIGTERM', async () => {
    const running = serve(
      ['--port', '0', '--rpc', `ethereum/devnet=${devnet.fixtures.rpcUrl}`, '--api-key', 'flag-key'],
      { PREFLIGHT_API_KEYS: 'env-key-1, env-key-2' },
    )
    try {
      const url = await running.ready
      expect(url, running.output().stderr).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/)
      const request = buildScenarios(devnet.fixtures, []).find((s) => s.kind === 'transactions')?.request
      const requestIds: string[] = []
      for (const key of ['flag-key', 'env-key-2']) {
        const answer = await post(`${url}/ethereum/v0/devnet/scan/transactions`, request, { 'X-Api-Key': key })
        expect(answer.status).toBe(200)
        requestIds.push((answer.body as { requestId: string }).requestId)
      }
      const wrong = await post(`${url}/ethereum/v0/devnet/scan/transactions`, request, { 'X-Api-Key': 'env-key-1,' })
      expect(wrong.status).toBe(401)
      requestIds.push((wrong.body as { requestId: string }).requestId)
      stop(running.child)
      expect(await running.exited).toBe(0)
      // Log lines are written in blocks; the ones still held when the signal came are written before the exit.
      const logged = running
        .output()
        .stdout.trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { requestId?: string }).requestId)
      expect(logged).toEqual(expect.arrayContaining(requestIds))
    } finally {
      stop(running.child)
    }
  })

  it('warns at start when a node serves another chain than its name says, and still serves', async () => {
    const running = serve(['--port', '0', '--rpc', `ethereum/mainnet=${devnet.fixtures.rpcUrl}`, '--api-key', 'k'])
    try {
      expect(await running.ready).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(running.output().stderr).toContain(
        `warning: the node at ${devnet.fixtures.rpcUrl} serves chain 31337, but ethereum/mainnet is chain 1`,
      )
    } finally {
      stop(running.child)
    }
  })

  it('takes keys as SHA-256 hashes from a file, keeps them out of the process list and logs neither keys nor bodies', async () => {
    const key = 'file-key-never-on-disk'
    const dir = mkdtempSync(join(tmpdir(), 'preflight-keys-'))
    const file = join(dir, 'keys.sha256')
    const hash = createHash('sha256').update(key).digest('hex')
    writeFileSync(file, `# team keys\n${hash}  -\n`)
    const running = serve([
      '--port',
      '0',
      '--rpc',
      `ethereum/devnet=${devnet.fixtures.rpcUrl}`,
      '--api-keys-file',
      file,
      '--api-key',
      'flag-key-secret',
    ])
    try {
      const url = await running.ready
      expect(url, running.output().stderr).toBeTruthy()
      const commandLine = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8')
      expect(commandLine).not.toContain('flag-key-secret')
      const request = transfer()
      const answer = await post(`${url}/ethereum/v0/devnet/scan/transactions`, request, { 'X-Api-Key': key })
      expect(answer.status).toBe(200)
      // The network's name gives the chain, so a scan thread's very first scan reads prices in its one call.
      const changes = (answer.body as ScanTransactionsResponse).simulationResults.aggregated.expectedStateChanges
      const sent = changes[request?.userAccount.toLowerCase() as Address]?.[0]?.rawInfo
      expect(sent?.kind === 'NATIVE_ASSET_TRANSFER' && sent.data.asset.price).toMatchObject({ source: 'Chainlink' })
      expect((await post(`${url}/ethereum/v0/devnet/scan/transactions`, request, { 'X-Api-Key': hash })).status).toBe(
        401,
      )
      // Lines are written in blocks, and at least every 250 ms.
      await expect
        .poll(() => running.output().stdout, { timeout: 5_000 })
        .toContain((answer.body as { requestId: string }).requestId)
      const lines = running
        .output()
        .stdout.trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      const scanLine = lines.find((line) => line.requestId === (answer.body as { requestId: string }).requestId)
      expect(scanLine).toMatchObject({
        keyId: hash.slice(0, 8),
        route: '/:chain/v0/:network/scan/transactions',
        network: 'ethereum/devnet',
        version: '2023-06-05',
        status: 200,
        rpcRoundTrips: 1,
      })
      expect(typeof scanLine?.durationMs).toBe('number')
      expect(scanLine?.nodeMs).toBeGreaterThan(0)
      const everything = running.output().stdout + running.output().stderr
      for (const secret of [key, 'flag-key-secret', request?.userAccount ?? 'none', devnet.fixtures.rpcUrl]) {
        expect(everything).not.toContain(secret)
      }
    } finally {
      stop(running.child)
    }
  })

  it('refuses a body nested past the depth limit naming the field, serves one within it, on a scan thread', async () => {
    const running = serve(['--port', '0', '--rpc', `ethereum/devnet=${devnet.fixtures.rpcUrl}`, '--threads', '1'], {
      PREFLIGHT_API_KEYS: 'k',
    })
    try {
      const url = await running.ready
      const request = transfer() as { metadata: Record<string, unknown> }
      // Deep JSON as text: 5,000 levels overflowed the stack copying the job to the scan thread (a 500 before).
      const deep = (levels: number) =>
        JSON.stringify({ ...request, metadata: { ...request.metadata, extra: 0 } }).replace(
          '"extra":0',
          `"extra":${'['.repeat(levels)}0${']'.repeat(levels)}`,
        )
      const send = (body: string) =>
        fetch(`${url}/ethereum/v0/devnet/scan/transactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
          body,
        })
      const refused = await send(deep(5_000))
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /^metadata\.extra\[0\]\[0\]…: nested deeper than 512 levels$/,
      )
      expect((await send(deep(300))).status).toBe(200)
    } finally {
      stop(running.child)
    }
  })

  it('on SIGTERM, finishes the scan in flight, refuses new ones, then exits 0', async () => {
    const slow = await startSlowNode(devnet.fixtures.rpcUrl, 1_500)
    const running = serve(['--port', '0', '--rpc', `ethereum/devnet=${slow.url}`, '--api-key', 'k'])
    try {
      const url = await running.ready
      const before = slow.received()
      const inFlight = post(`${url}/ethereum/v0/devnet/scan/transactions`, transfer(), { 'X-Api-Key': 'k' })
      // The scan's node call has reached the node: the scan is in flight.
      await expect.poll(slow.received, { timeout: 10_000 }).toBeGreaterThan(before)
      running.child.kill('SIGTERM')
      const answer = await inFlight
      expect(answer.status).toBe(200)
      expect(await running.exited).toBe(0)
    } finally {
      stop(running.child)
      await slow.close()
    }
  })

  it('on SIGTERM, a connection whose request never finished arriving does not hold the stop', async () => {
    const running = serve(['--port', '0', '--rpc', `ethereum/devnet=${devnet.fixtures.rpcUrl}`, '--api-key', 'k'])
    try {
      const url = new URL((await running.ready) ?? '')
      // Half a request's headers, as a slow or hostile client leaves them.
      const socket = connect(Number(url.port), '127.0.0.1')
      socket.on('error', () => {})
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write('POST /ethereum/v0/devnet/scan/transactions HTTP/1.1\r\nHost: x\r\nX-Api-')
      expect((await fetch(`${url.origin}/healthz`)).status).toBe(200)
      const stopping = performance.now()
      running.child.kill('SIGTERM')
      expect(await running.exited).toBe(0)
      // Well under the scan timeout (20 s) and its grace second, which it waited before.
      expect(performance.now() - stopping).toBeLessThan(5_000)
      socket.destroy()
    } finally {
      stop(running.child)
    }
  })

  it('on SIGTERM with a node that never answers, answers 504 by the scan timeout and exits instead of lingering', async () => {
    const stuck = await startSlowNode(devnet.fixtures.rpcUrl, Number.POSITIVE_INFINITY)
    const running = serve([
      '--port',
      '0',
      '--rpc',
      `ethereum/devnet=${stuck.url}`,
      '--api-key',
      'k',
      '--scan-timeout',
      '2',
    ])
    try {
      const url = await running.ready
      const before = stuck.received()
      const inFlight = post(`${url}/ethereum/v0/devnet/scan/transactions`, transfer(), { 'X-Api-Key': 'k' })
      await expect.poll(stuck.received, { timeout: 10_000 }).toBeGreaterThan(before)
      running.child.kill('SIGTERM')
      const answer = await inFlight
      expect(answer.status).toBe(504)
      expect((answer.body as { error: string }).error).toMatch(/did not finish within 2 seconds/)
      expect(await running.exited).toBe(0)
    } finally {
      stop(running.child)
      await stuck.close()
    }
  })
})
