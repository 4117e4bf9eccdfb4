/** JSON-RPC access to the node over fetch, counting round trips and requests for benchmarks. */
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

/** How long the node may take to answer before the call fails as TIMEOUT, unless the client is told otherwise. */
const TIMEOUT_MS = 30_000

/** A JSON-RPC answer as it arrives: nothing in it is trusted until checked. */
type Answer = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }

/** Why a whole HTTP exchange failed, before any single call's answer could be read. */
type Transport = { kind: Exclude<NodeFailureKind, 'REJECTED' | 'UNSUPPORTED_METHOD' | 'BAD_ANSWER'>; detail: string }

/** What one exchange came back with: the parsed body, or why there is none. */
type Exchange = { ok: true; body: unknown } | { ok: false; failure: Transport }

/**
 * Creates a client for one scan; its stats count only this scan's traffic. Requests made in the same tick are
 * gathered first: several travel as one JSON-RPC batch, a lone one as a plain request. Each exchange is one POST read
 * whole: no retries (a scan that failed says so) and no timer turn before sending.
 */
export function createRpcClient(
  rpcUrl: string,
  fetchFn: typeof fetch = globalThis.fetch,
  timeoutMs = TIMEOUT_MS,
): RpcClient {
  const stats: RpcStats = { roundTrips: 0, requests: 0 }
  let inFlight = 0
  let nextId = 1
  let pending: Pending[] = []

  /** One POST: the parsed JSON body, or the Transport failure that stopped it. */
  const exchange = async (body: string, count: number): Promise<Exchange> => {
    // An exchange started while none is pending begins a new sequential round trip; parallel ones share it.
    if (inFlight === 0) stats.roundTrips += 1
    inFlight += 1
    stats.requests += count
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(), timeoutMs)
    try {
      const response = await fetchFn(rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        signal: timeout.signal,
      })
      if (!response.ok) return failed('HTTP_ERROR', `HTTP ${response.status}`)
      const text = await response.text()
      try {
        return { ok: true, body: JSON.parse(text) }
      } catch {
        return failed('NOT_JSON_RPC', 'not JSON')
      }
    } catch (error) {
      if (timeout.signal.aborted) return failed('TIMEOUT', `${timeoutMs / 1000} seconds`)
      if (isAbort(error)) return failed('ABORTED', 'cancelled')
      // A fetch's own messages can quote the URL, so only the error's class travels on.
      return failed('UNREACHABLE', error instanceof Error ? error.name : typeof error)
    } finally {
      clearTimeout(timer)
      inFlight -= 1
    }
  }

  const settle = (call: Pending, answer: unknown) => {
    try {
      call.resolve(resultOf(answer, call.method))
    } catch (error) {
      call.reject(error)
    }
  }

  const flush = () => {
    const calls = pending
    pending = []
    const ids = calls.map(() => nextId++)
    const payload = calls.map((call, index) => ({
      jsonrpc: '2.0',
      id: ids[index],
      method: call.method,
      params: call.params,
    }))
    const lone = calls.length === 1
    let body: string
    try {
      body = JSON.stringify(lone ? payload[0] : payload)
    } catch (error) {
      // Params that cannot be sent (a bigint, a cycle) are the engine's bug; each call still ends, with the reason.
      for (const call of calls) call.reject(error)
      return
    }
    void exchange(body, calls.length).then((outcome) => {
      if (!outcome.ok) {
        for (const call of calls) call.reject(transportFailure(outcome.failure, call.method))
        return
      }
      const answer = outcome.body
      if (lone) return settle(calls[0] as Pending, answer)
      // A node answers a batch with an array in any order, or with one error object for the whole batch.
      const byId = new Map<unknown, unknown>(Array.isArray(answer) ? answer.map((one: Answer) => [one?.id, one]) : [])
      calls.forEach((call, index) => {
        settle(call, Array.isArray(answer) ? byId.get(ids[index]) : answer)
      })
    })
  }

  return {
    stats,
    request: (method, params) =>
      new Promise((resolve, reject) => {
        if (pending.push({ method, params, resolve, reject }) === 1) queueMicrotask(flush)
      }),
  }
}

const failed = (kind: Transport['kind'], detail: string): Exchange => ({ ok: false, failure: { kind, detail } })

/** The result of one JSON-RPC answer, or the RpcFailure it stands for. */
function resultOf(answer: unknown, method: string): unknown {
  const one = answer as Answer | null | undefined
  if (one && typeof one === 'object' && one.error && typeof one.error === 'object') {
    const code = typeof one.error.code === 'number' ? one.error.code : null
    const message = typeof one.error.message === 'string' ? one.error.message : 'no message'
    if (code === -32601 || /method not found|not supported|unsupported|does not exist/i.test(message)) {
      throw new RpcFailure(
        'UNSUPPORTED_METHOD',
        `The node does not support ${method}; use a node that implements eth_simulateV1 (anvil, geth ≥ 1.14.9, reth, Nethermind).`,
        code,
      )
    }
    throw new RpcFailure('REJECTED', `The node rejected ${method}: ${message}`, code)
  }
  if (!one || typeof one !== 'object' || !('result' in one)) {
    throw transportFailure({ kind: 'NOT_JSON_RPC', detail: 'no result' }, method)
  }
  return one.result
}

/** A failed exchange as the RpcFailure of one call in it. */
function transportFailure(error: Transport, method: string): RpcFailure {
  switch (error.kind) {
    case 'TIMEOUT':
      return new RpcFailure(
        'TIMEOUT',
        `The node did not answer ${method} within ${error.detail}; check that it is up.`,
        null,
      )
    case 'ABORTED':
      return new RpcFailure('ABORTED', `The call to the node (${method}) was cancelled.`, null)
    case 'NOT_JSON_RPC':
      return new RpcFailure(
        'NOT_JSON_RPC',
        `The node's address answered ${method} with something that is not JSON-RPC; check that the RPC URL is a node's JSON-RPC endpoint.`,
        null,
      )
    case 'HTTP_ERROR':
      return new RpcFailure(
        'HTTP_ERROR',
        `The node answered ${method} with ${error.detail}; check the RPC URL and the node's access settings.`,
        null,
      )
    default:
      return new RpcFailure(
        'UNREACHABLE',
        `Could not reach the node for ${method} (${error.detail}); check the RPC URL and that the node is running.`,
        null,
      )
  }
}

/** An abort the caller asked for (its AbortSignal), as fetch reports it directly or wrapped. */
function isAbort(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth += 1) {
    if (cause.name === 'AbortError') return true
  }
  return false
}
