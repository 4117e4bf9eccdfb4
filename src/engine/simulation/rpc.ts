/** JSON-RPC access to the node through viem's HTTP transport, counting round trips and requests for benchmarks. */
import { type EIP1193RequestFn, HttpRequestError, http, RpcError, TimeoutError } from 'viem'
import type { NodeFailureKind } from '../api/index.ts'

/** How much one scan talked to the node: sequential round trips and JSON-RPC requests (batch members count each). */
export type RpcStats = { roundTrips: number; requests: number }

export type RpcClient = {
  /** Sends one JSON-RPC request; concurrent calls made in the same tick travel as one JSON-RPC batch. */
  request: (method: string, params: unknown[]) => Promise<unknown>
  stats: RpcStats
}

/**
 * A failure to reach or use the node, as a value with a message a person can act on. The message never names the
 * node's URL: hosted nodes carry the customer's key in it, and the message can travel to a scan API client.
 */
export class RpcFailure extends Error {
  constructor(
    readonly kind: NodeFailureKind,
    message: string,
    /** JSON-RPC error code when the node answered with an error object. */
    readonly code: number | null,
  ) {
    super(message)
  }
}

/** One request waiting for the end of the tick, when the client decides whether it travels alone or in a batch. */
type Pending = {
  method: string
  params: unknown[]
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * Creates a client for one scan; its stats count only this scan's traffic. Requests made in the same tick are
 * gathered first: several travel as one JSON-RPC batch, a lone one as a plain request. viem's batch scheduler would
 * hold even a lone request for a timer turn, which costs CPU (and a millisecond) on every scan of a known chain.
 */
export function createRpcClient(rpcUrl: string, fetchFn: typeof fetch = globalThis.fetch): RpcClient {
  const stats: RpcStats = { roundTrips: 0, requests: 0 }
  let inFlight = 0
  const countingFetch: typeof fetch = async (input, init) => {
    // A fetch started while none is pending begins a new sequential round trip; parallel ones share it.
    if (inFlight === 0) stats.roundTrips += 1
    inFlight += 1
    const body = typeof init?.body === 'string' ? init.body : ''
    stats.requests += body.startsWith('[') ? (JSON.parse(body) as unknown[]).length : 1
    try {
      return await fetchFn(input, init)
    } finally {
      inFlight -= 1
    }
  }
  const transport = (batch: boolean) =>
    http(rpcUrl, { batch, fetchFn: countingFetch, retryCount: 0, timeout: 30_000 })({}).request as EIP1193RequestFn
  const single = transport(false)
  const batched = transport(true)
  let pending: Pending[] = []
  const flush = () => {
    const calls = pending
    pending = []
    const send = calls.length === 1 ? single : batched
    for (const call of calls) {
      send({ method: call.method as 'eth_chainId', params: call.params as never }).then(call.resolve, (error) =>
        call.reject(toRpcFailure(error, call.method)),
      )
    }
  }
  return {
    stats,
    request: (method, params) =>
      new Promise((resolve, reject) => {
        if (pending.push({ method, params, resolve, reject }) === 1) queueMicrotask(flush)
      }),
  }
}

function toRpcFailure(error: unknown, method: string): RpcFailure {
  if (error instanceof RpcError) {
    if (error.code === -32601 || /method not found|not supported|unsupported|does not exist/i.test(error.details)) {
      return new RpcFailure(
        'UNSUPPORTED_METHOD',
        `The node does not support ${method}; use a node that implements eth_simulateV1 (anvil, geth ≥ 1.14.9, reth, Nethermind).`,
        error.code,
      )
    }
    return new RpcFailure('REJECTED', `The node rejected ${method}: ${error.details}`, error.code)
  }
  if (error instanceof TimeoutError) {
    return new RpcFailure('TIMEOUT', `The node did not answer ${method} within 30 seconds; check that it is up.`, null)
  }
  if (isAbort(error)) return new RpcFailure('ABORTED', `The call to the node (${method}) was cancelled.`, null)
  if (error instanceof HttpRequestError && error.cause instanceof SyntaxError) {
    return new RpcFailure(
      'NOT_JSON_RPC',
      `The node's address answered ${method} with something that is not JSON-RPC; check that the RPC URL is a node's JSON-RPC endpoint.`,
      null,
    )
  }
  if (error instanceof HttpRequestError && error.status) {
    return new RpcFailure(
      'HTTP_ERROR',
      `The node answered ${method} with HTTP ${error.status}; check the RPC URL and the node's access settings.`,
      null,
    )
  }
  // viem's own messages quote the URL, so only the error's class travels on.
  const name = error instanceof Error ? error.name : typeof error
  return new RpcFailure(
    'UNREACHABLE',
    `Could not reach the node for ${method} (${name}); check the RPC URL and that the node is running.`,
    null,
  )
}

/** An abort the caller asked for (its AbortSignal), as fetch reports it directly or wrapped by viem. */
function isAbort(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth += 1) {
    if (cause.name === 'AbortError') return true
  }
  return false
}
