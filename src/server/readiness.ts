/**
 * GET /readyz: whether every configured node answers and serves the chain its name says, and the shared counters
 * (Redis) answer. Checks are cached briefly so a load balancer polling many processes does not load the nodes.
 */
import { chainIdOf } from '../engine/index.ts'
import type { CounterStore } from './rateLimit.ts'

export type Problem = { dependency: string; problem: string }
export type Readiness = { ready: boolean; problems: Problem[] }

const CHECK_TIMEOUT_MS = 2_000
const CACHE_MS = 2_000

/** A readiness checker over the configured networks ("chain/network" → URL) and the counter store. */
export function readinessChecker(networks: ReadonlyMap<string, string>, store: CounterStore) {
  let cached: { at: number; value: Promise<Readiness> } | null = null
  const check = async (): Promise<Readiness> => {
    const problems = await Promise.all([
      ...[...networks].map(([pair, url]) => nodeProblem(pair, url)),
      store.ping().then((ok) => (ok ? null : { dependency: 'rate-limit store', problem: 'does not answer' })),
    ])
    const found = problems.filter((problem): problem is Problem => problem !== null)
    return { ready: found.length === 0, problems: found }
  }
  return (): Promise<Readiness> => {
    const now = Date.now()
    if (!cached || now - cached.at > CACHE_MS) cached = { at: now, value: check() }
    return cached.value
  }
}

/** Null when the node answers eth_chainId with the chain its name says; otherwise what is wrong, without its URL. */
async function nodeProblem(pair: string, url: string): Promise<Problem | null> {
  const dependency = `node for ${pair}`
  let answer: unknown
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
    if (!response.ok) return { dependency, problem: `answers HTTP ${response.status}` }
    answer = ((await response.json()) as { result?: unknown }).result
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError'
    return { dependency, problem: timedOut ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s` : 'unreachable' }
  }
  if (typeof answer !== 'string' || !/^0x[0-9a-f]+$/i.test(answer)) {
    return { dependency, problem: 'does not answer eth_chainId' }
  }
  const expected = chainIdOf(pair)
  const actual = Number(BigInt(answer))
  if (expected !== undefined && actual !== expected) {
    return { dependency, problem: `serves chain ${actual}, but ${pair} is chain ${expected}` }
  }
  return null
}
