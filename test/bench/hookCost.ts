/**
 * The hook's added cost on the calls it lets through (eth_chainId), in Node: a provider patched by the hook's own
 * patcher against an identical one it never saw, alternating rounds, per-call difference of the means. Run on its own
 * (tsx test/bench/hookCost.ts prints JSON) because the hook's modules need a few browser globals the engine's
 * benchmark must not see. `npm run bench` runs it as a child process.
 */
import '../extension/inpage/support/pageGlobals.ts'
import { createPatcher } from '../../src/extension/inpage/patchProvider.ts'
import { mean } from './stats.ts'

const CALLS = 100_000
const ROUNDS = 30

type Provider = { request(args: { method: string; params?: unknown[] }): unknown }

const make = (): Provider => ({ request: () => '0x7a69' })

function time(provider: Provider): number {
  const args = { method: 'eth_chainId', params: [] }
  const start = performance.now()
  for (let i = 0; i < CALLS; i++) provider.request(args)
  return performance.now() - start
}

const hooked = make()
createPatcher(
  () => {
    throw new Error('a pass-through call reached the gate')
  },
  () => false,
).register(hooked)
const plain = make()
const hookedMs: number[] = []
const plainMs: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  plainMs.push(time(plain))
  hookedMs.push(time(hooked))
}
const perCallMs = (mean(hookedMs) - mean(plainMs)) / CALLS
process.stdout.write(`${JSON.stringify({ calls: CALLS, rounds: ROUNDS, perCallMs })}\n`)
