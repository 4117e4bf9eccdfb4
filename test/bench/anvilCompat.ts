/**
 * A compatibility shim for viem's simulateCalls on anvil 1.7.1, applied in the benchmark proxy.
 *
 * With `traceAssetChanges`, viem reads the ETH balance inside eth_simulateV1 with a "deployless" call: a call without
 * `to` whose data is init code. anvil 1.7.1 refuses any call without `to` in eth_simulateV1 ("missing keys: to"), so
 * the shim points such calls at a tiny runner contract (placed by a state override in the same block) that CREATEs the
 * init code and returns what the constructor returned. The shim adds no request and no round trip, so viem's traffic
 * and latency are measured as viem sends them.
 */
import type { Hex } from 'viem'

/** An address no fixture uses, for the runner's code override. */
export const RUNNER_ADDRESS = '0x00000000000000000000000000000000c0de0001'

/**
 * Runtime code: CALLDATACOPY(0, 0, size); addr = CREATE(0, 0, size); n = EXTCODESIZE(addr);
 * EXTCODECOPY(addr, 0, 0, n); RETURN(0, n). A constructor's return data becomes the new contract's code, so this
 * returns exactly what a deployless call returns.
 */
export const RUNNER_CODE: Hex = '0x365f5f37365f5ff0803b805f5f843c5ff3'

type Call = { to?: string | null; [key: string]: unknown }
type Block = { calls?: Call[]; stateOverrides?: Record<string, unknown>; [key: string]: unknown }
type RpcRequest = { method?: string; params?: unknown[] }

/** Rewrites calls without `to` in eth_simulateV1 requests (single or batched); anything else passes unchanged. */
export function rewriteDeploylessCalls(body: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return body
  }
  const requests = (Array.isArray(parsed) ? parsed : [parsed]) as RpcRequest[]
  let changed = false
  for (const request of requests) {
    if (request?.method !== 'eth_simulateV1') continue
    const blocks = (request.params?.[0] as { blockStateCalls?: Block[] } | undefined)?.blockStateCalls ?? []
    for (const block of blocks) {
      if (!block.calls?.some((call) => !call.to)) continue
      block.calls = block.calls.map((call) => (call.to ? call : { ...call, to: RUNNER_ADDRESS }))
      block.stateOverrides = { ...block.stateOverrides, [RUNNER_ADDRESS]: { code: RUNNER_CODE } }
      changed = true
    }
  }
  return changed ? JSON.stringify(parsed) : body
}
