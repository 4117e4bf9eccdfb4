/**
 * A JSON-RPC proxy in front of a node (anvil, which enforces none of these) that refuses an eth_simulateV1 the way
 * geth or reth would, and runs a call out of gas where geth would, so a test proves the engine's requests stay within
 * their limits. The rules, as read in:
 * - go-ethereum internal/ethapi/api.go and simulate.go (commit 02b73d4): at most 256 blocks, 5,000 calls in a block
 *   and 10,000 in all (-38026); a call's declared gas must fit in what its block has left after the gas used before
 *   it (-38015), and a call without one gets what is left; the gas used by all calls of the request within the RPC
 *   gas cap, 50,000,000 by default.
 * - reth before v2.3.0 (crates/rpc/rpc-eth-api/src/helpers/call.rs before commit b8116b42b8): the gas the calls of a
 *   block declare, added up, must not exceed the block's gas limit (-38015), whatever they then use.
 * - geth's numbering (simulate.go sanitizeChain, as the execution-apis spec says): the first simulated block is the
 *   base block's number + 1, where anvil 1.7.1 gives it the base block's own number (and time, where geth's is 12 s
 *   later: left as anvil has it, so a scan here reads the same prices' times as on anvil).
 */
import { type RpcStandIn, serveJsonRpc } from './net.ts'

type Call = { gas?: string }
type Block = { calls?: Call[]; blockOverrides?: { number?: string } }
type CallResult = { gasUsed: string; status?: string }
type JsonRpcRequest = { id: number; method: string; params: unknown[] }
/** A refusal as a rule-keeping node answers it: a JSON-RPC error object. */
export type Refusal = { code: number; message: string }

/** Limits a node enforces; gasLimit is the block gas limit the simulated blocks inherit from the base block. */
export type SimulateLimits = { gasLimit: bigint; gasCap: bigint }

/** geth's defaults (RPCGasCap) over anvil's 30,000,000 block gas limit. */
export const GETH_DEFAULTS: SimulateLimits = { gasLimit: 30_000_000n, gasCap: 50_000_000n }

/** reth's refusal (before v2.3.0) of blocks whose calls declare more gas in all than `gasLimit`, or null. */
export function declaredGasRefusal(blocks: Block[], gasLimit: bigint): Refusal | null {
  for (const block of blocks) {
    const declared = (block.calls ?? []).reduce((sum, call) => sum + (call.gas ? BigInt(call.gas) : 0n), 0n)
    if (declared > gasLimit) return { code: -38015, message: "Block gas limit exceeded by the block's transactions" }
  }
  return null
}

/** What a rule-keeping node says of `request` before running it (reth's declared-gas rule, geth's counts), or null. */
function refuseRequest(blocks: Block[], limits: SimulateLimits): Refusal | null {
  if (blocks.length > 256) return { code: -38026, message: 'too many blocks' }
  let total = 0
  for (const block of blocks) {
    const calls = block.calls ?? []
    total += calls.length
    if (calls.length > 5000) return { code: -38026, message: `too many calls in block: ${calls.length} > 5000` }
  }
  if (total > 10_000) return { code: -38026, message: `too many calls: ${total} > 10000` }
  return declaredGasRefusal(blocks, limits.gasLimit)
}

/**
 * anvil's answer as geth would give it, or geth's refusal of it: a call's declared gas must fit what its block has
 * left, a call without one gets what is left and runs out of gas beyond it (anvil lets a block's calls use more than
 * its gas limit), and the gas used by all calls stays within the RPC gas cap.
 */
function asGeth(
  blocks: Block[],
  results: { calls: CallResult[] }[],
  limits: SimulateLimits,
  departures: Refusal[],
): Refusal | null {
  let budget = limits.gasCap
  for (const [index, block] of blocks.entries()) {
    let used = 0n
    for (const [at, call] of (block.calls ?? []).entries()) {
      const declared = call.gas ? BigInt(call.gas) : null
      const remaining = limits.gasLimit - used
      if (declared !== null && declared > remaining) {
        return { code: -38015, message: `block gas limit reached: remaining: ${remaining}, required: ${declared}` }
      }
      const result = results[index]?.calls[at]
      let gasUsed = BigInt(result?.gasUsed ?? '0x0')
      if (result && declared === null && gasUsed > remaining) {
        // anvil ran the call and later calls see what it did; geth would not have: a test must see this.
        departures.push({ code: -32015, message: `out of gas: used ${gasUsed}, ${remaining} left in the block` })
        Object.assign(result, {
          status: '0x0',
          returnData: '0x',
          gasUsed: `0x${remaining.toString(16)}`,
          logs: [],
          error: { code: -32015, message: 'out of gas' },
        })
        gasUsed = remaining
      }
      if (gasUsed > budget)
        return { code: -32000, message: `RPC gas cap exhausted: need ${gasUsed}, remaining ${budget}` }
      budget -= gasUsed
      used += gasUsed
    }
  }
  return null
}

/**
 * `blocks` numbered as geth numbers them on the base block `tag` of `upstream`: its first block, where the request does
 * not say, one after the base (anvil numbers the blocks after it on from there).
 */
async function asGethNumbers(upstream: string, blocks: Block[], tag: unknown): Promise<Block[]> {
  const [first, ...rest] = blocks
  if (!first) return blocks
  const response = await fetch(upstream, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_getBlockByNumber', params: [tag, false] }),
  })
  const base = ((await response.json()) as { result: { number: string } }).result
  const blockOverrides = { number: `0x${(BigInt(base.number) + 1n).toString(16)}`, ...first.blockOverrides }
  return [{ ...first, blockOverrides }, ...rest]
}

/**
 * A proxy to `upstream` that refuses eth_simulateV1 requests breaking `limits` and answers the rest as geth would, its
 * blocks numbered as geth numbers them; `refusals` lists what it refused, and the calls geth would have run out of gas
 * (their state anvil kept).
 */
export async function startRuleKeepingNode(
  upstream: string,
  limits: SimulateLimits,
): Promise<RpcStandIn & { refusals: Refusal[] }> {
  const refusals: Refusal[] = []
  const one = async (request: JsonRpcRequest): Promise<unknown> => {
    const blocks =
      request.method === 'eth_simulateV1' ? (request.params[0] as { blockStateCalls: Block[] }).blockStateCalls : null
    const early = blocks ? refuseRequest(blocks, limits) : null
    if (early) {
      refusals.push(early)
      return { jsonrpc: '2.0', id: request.id, error: early }
    }
    const sent = blocks
      ? {
          ...request,
          params: [
            {
              ...(request.params[0] as object),
              blockStateCalls: await asGethNumbers(upstream, blocks, request.params[1]),
            },
            ...request.params.slice(1),
          ],
        }
      : request
    const response = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sent),
    })
    const answer = (await response.json()) as { result?: { calls: CallResult[] }[] }
    const late = blocks && answer.result ? asGeth(blocks, answer.result, limits, refusals) : null
    if (late) {
      refusals.push(late)
      return { jsonrpc: '2.0', id: request.id, error: late }
    }
    return answer
  }
  const node = await serveJsonRpc(async (body, res) => {
    const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
    const answer = Array.isArray(parsed) ? await Promise.all(parsed.map(one)) : await one(parsed)
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(answer))
  })
  return { ...node, refusals }
}
