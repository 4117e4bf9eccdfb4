/**
 * The hook's added cost on the calls it lets through (eth_chainId), in Node: a provider patched by the hook's own
 * patcher against an identical one it never saw, alternating rounds, per-call difference of the means; and what its
 * watch of the window globals wallets publish themselves under costs at start, which every page pays at
 * document_start (on a window without wallets, as most pages are; Node's global stands for it). Run on its own
 * (tsx test/bench/hookCost.ts prints JSON) because the hook's modules need a few browser globals the engine's
 * benchmark must not see. `npm run bench` runs it as a child process.
 */
import '../extension/inpage/support/pageGlobals.ts'
import { watchWindowProviders } from '../../src/extension/inpage/discover.ts'
import { createPatcher } from '../../src/extension/inpage/patchProvider.ts'
import { mean } from './stats.ts'

const CALLS = 100_000
const ROUNDS = 30
const STARTS = 1_000

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

/** The window watch's start (its checks included) STARTS times, each on a global without the accessors it adds. */
function timeStarts(): number {
  const scope = globalThis as Record<PropertyKey, unknown>
  const before = new Set(Reflect.ownKeys(scope))
  let total = 0
  for (let i = 0; i < STARTS; i++) {
    const { register } = createPatcher(
      () => {
        throw new Error('no request is made')
      },
      () => false,
    )
    const start = performance.now()
    watchWindowProviders(register).all()
    total += performance.now() - start
    for (const key of Reflect.ownKeys(scope)) if (!before.has(key)) delete scope[key]
  }
  return total / STARTS
}
const startMs = mean(Array.from({ length: ROUNDS }, timeStarts))
process.stdout.write(`${JSON.stringify({ calls: CALLS, rounds: ROUNDS, perCallMs, starts: STARTS, startMs })}\n`)
