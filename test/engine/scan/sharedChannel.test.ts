/**
 * Scans that share one channel to the node (as a scan server's do) answer exactly what each answers alone: the calls
 * of every scan started in one event-loop turn travel in batches of at most the channel's size, and each answer finds
 * its scan. Real anvil, the bench's scenarios (Safe presets, swaps, bundles, permits, Safe messages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { createRpcChannel, type ScanOptions, scanMessage, scanTransactions } from '../../../src/engine/index.ts'
import { buildScenarios } from '../../bench/scenarios.ts'
import { sum } from '../../bench/stats.ts'
import { startTestDevnet } from '../../support/devnet.ts'

let devnet: Devnet

beforeAll(async () => {
  devnet = await startTestDevnet()
})

afterAll(async () => {
  await devnet?.stop()
})

/** A fetch that records how many JSON-RPC calls each POST carried. */
function countingFetch(): { fetch: typeof fetch; posts: number[] } {
  const posts: number[] = []
  return {
    posts,
    fetch: (input, init) => {
      const body = JSON.parse(String(init?.body)) as unknown
      posts.push(Array.isArray(body) ? body.length : 1)
      return fetch(input, init)
    },
  }
}

/** A response with every decoded `signatures` argument (a call's, a log's) blanked. */
function withoutPresetSignatures<T>(response: T): T {
  return JSON.parse(
    JSON.stringify(response, (key, value) =>
      (key === 'params' || key === 'arguments') && Array.isArray(value)
        ? value.map((param) => (param?.name === 'signatures' ? { ...param, value: null } : param))
        : value,
    ),
  ) as T
}

describe('scans sharing a channel', () => {
  it('answer what each answers alone, their calls gathered into batches of at most the channel size', async () => {
    const now = Math.floor(Date.now() / 1000)
    const scenarios = buildScenarios(devnet.fixtures, []).filter((scenario) => !scenario.name.includes('cold cache'))
    const requests = scenarios.map((scenario) =>
      scenario.kind === 'transactions' ? scenario.request : scenario.request(0),
    )
    const scan = (index: number, options: ScanOptions) => {
      const request = requests[index]
      return scenarios[index]?.kind === 'transactions'
        ? scanTransactions(request, options)
        : scanMessage(request, options)
    }
    const base = { rpcUrl: devnet.fixtures.rpcUrl, chainId: devnet.fixtures.chainId, now: () => now }

    // Once each first, so both runs below find the same caches (token metadata, a preset Safe's threshold, which sets
    // how many signers the preset makes and so the gas reported).
    for (const index of requests.keys()) await scan(index, base)
    const shared = countingFetch()
    const channel = createRpcChannel(base.rpcUrl, { fetch: shared.fetch, schedule: setImmediate, maxBatch: 8 })
    const together = await Promise.all(requests.map((_, index) => scan(index, { ...base, rpc: channel })))
    const alone = []
    for (const index of requests.keys()) alone.push(await scan(index, base))

    // Every response carries a fresh random request id, and a Safe preset's signers are drawn for each scan (the
    // simulated execTransaction and SafeL2's SafeMultiSigTransaction log carry their signatures); the rest must match.
    const withoutId = (outcome: (typeof together)[number]) =>
      outcome.ok ? withoutPresetSignatures({ ...outcome.response, requestId: null }) : outcome.error
    for (const [index, outcome] of together.entries()) {
      expect(outcome.ok, scenarios[index]?.name).toBe(true)
      expect(withoutId(outcome), scenarios[index]?.name).toEqual(withoutId(alone[index] as typeof outcome))
    }
    const calls = sum(shared.posts)
    expect(requests.length).toBeGreaterThan(8)
    expect(Math.max(...shared.posts)).toBe(8)
    expect(shared.posts.length).toBeLessThan(calls / 2)
  })
})
