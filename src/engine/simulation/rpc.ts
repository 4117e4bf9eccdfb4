/**
 * JSON-RPC access to the node over fetch: a channel that gathers requests into batches (each scan's own, or one that
 * a server's scans share) and a client per scan that counts its round trips and requests for logs and benchmarks.
 */
import type { NodeFailureKind, RpcChannel, ScanOptions } from '../api/index.ts'

/**
 * How much one scan talked to the node: sequential round trips, JSON-RPC requests (batch members count each), and the
 * milliseconds during which at least one of its calls waited for an answer, so a slow scan can be told from a slow node.
 */
export type RpcStats = { readonly roundTrips: number; readonly requests: number; readonly nodeMs: number }

/** The stats of a scan that never reached the node, or whose node failed it (the server counts those as node errors). */
export const NO_TRAFFIC: RpcStats = Object.freeze({ roundTrips: 0, requests: 0, nodeMs: 0 })

/** The traffic of two parts of one scan that ran one after the other. */
export function addStats(first: RpcStats, second: RpcStats): RpcStats {
  return {
    roundTrips: first.roundTrips + second.roundTrips,
    requests: first.requests + second.requests,
    nodeMs: first.nodeMs + second.nodeMs,
  }
}

export type RpcClient = {
  /** Sends one JSON-RPC request; concurrent calls made in the same tick travel as one JSON-RPC batch. */
  request: (method: string, params: unknown[]) => Promise<unknown>
  /** This scan's traffic so far, as a copy; a wait still open (a probe given up on) counts up to now. */
  readonly stats: RpcStats
}

export type RpcChannelOptions = {
  fetch?: typeof fetch
  /** How long the node may take to answer one exchange before its calls fail as TIMEOUT. */
  timeoutMs?: number
  /**
   * When gathered requests leave. By default once the microtasks queued now have run, which gathers one scan's
   * parallel calls; a server hands `setImmediate` so that the scans of one event-loop turn travel together.
   */
  schedule?: (flush: () => void) => void
  /** The most requests in one exchange; more start another. 1 sends every request alone. */
  maxBatch?: number
}

/** Where a scan's node calls go: its own channel to `rpcUrl` unless it is handed a shared one (ScanOptions). */
export type NodeAccess = Pick<ScanOptions, 'rpcUrl' | 'fetch' | 'rpc' | 'signal'>

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
    /** The node's own message when it answered with an error object. */
    readonly nodeMessage: string | null = null,
  ) {
    super(message)
  }
}

/** One request waiting for its exchange, and then for its answer. */
type Pending = {
  method: string
  params: unknown[]
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  /** Set once the call has its outcome (an answer, a failure, or its caller's abort); later outcomes are dropped. */
  done: boolean
  /** The exchange carrying the call, once it has left. */
  exchange: Flight | null
  /** Whose abort ends the call. */
  signal: AbortSignal | undefined
}

/** One POST in flight: it is cancelled when every call in it has been abandoned. */
type Flight = { controller: AbortController; waiting: number; timedOut: boolean }

/** How long the node may take to answer before the call fails as TIMEOUT, unless the channel is told otherwise. */
const TIMEOUT_MS = 30_000

/** A JSON-RPC answer as it arrives: nothing in it is trusted until checked. */
type Answer = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }

/** Why a whole HTTP exchange failed, before any single call's answer could be read. */
type Transport = { kind: Exclude<NodeFailureKind, 'REJECTED' | 'UNSUPPORTED_METHOD' | 'BAD_ANSWER'>; detail: string }

/** What one exchange came back with: the parsed body, or why there is none (with the HTTP status, when one came). */
type Exchange = { ok: true; body: unknown } | { ok: false; failure: Transport; status?: number }

/**
 * HTTP statuses with which nodes and gateways turn a batch away for its size (400 Bad Request, 413 Content Too Large).
 * 429 is not among them: a node that limits the rate would only get more requests from the batch sent in parts.
 */
const BATCH_REFUSED_STATUSES = new Set([400, 413])

/** JSON-RPC "Invalid Request": for a well-formed call in a batch, the node's word that the batch is too large (geth). */
const INVALID_REQUEST = -32600

/** A client for one scan over `channel`; its stats count only this scan's traffic. */
export function createRpcClient(channel: RpcChannel, signal?: AbortSignal): RpcClient {
  let roundTrips = 0
  let requests = 0
  let inFlight = 0
  let waitingSince = 0
  let nodeMs = 0
  const release = () => {
    inFlight -= 1
    if (inFlight === 0) nodeMs += performance.now() - waitingSince
  }
  return {
    get stats() {
      const open = inFlight > 0 ? performance.now() - waitingSince : 0
      return { roundTrips, requests, nodeMs: nodeMs + open }
    },
    request: (method, params) => {
      const answer = channel.call(method, params, signal)
      // A call made while none of this scan's is in flight begins a new sequential round trip; parallel ones share it.
      if (inFlight === 0) {
        roundTrips += 1
        waitingSince = performance.now()
      }
      inFlight += 1
      requests += 1
      answer.then(release, release)
      return answer
    },
  }
}

/** The client a scan's node calls go through: over the shared channel it was handed, or over its own. */
export function rpcClientFor(access: NodeAccess): RpcClient {
  return createRpcClient(access.rpc ?? createRpcChannel(access.rpcUrl, { fetch: access.fetch }), access.signal)
}

/**
 * A channel to the node at `rpcUrl`. Requests gathered until the schedule flushes them travel as one JSON-RPC batch
 * (a lone one as a plain request). Each exchange is one POST read whole, with no retries (a scan that failed says so),
 * but for one case: a node that turns a batch away (a status, one error for the whole batch, or none for its calls)
 * gets its calls again in smaller batches (sendSmaller).
 */
export function createRpcChannel(rpcUrl: string, options: RpcChannelOptions = {}): RpcChannel {
  const fetchFn = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS
  const schedule = options.schedule ?? queueMicrotask
  // Halves, for good, each time the node refuses a batch (sendSmaller).
  let maxBatch = Math.max(1, options.maxBatch ?? Number.POSITIVE_INFINITY)
  let nextId = 1
  let pending: Pending[] = []

  /** One POST: the parsed JSON body, or the Transport failure that stopped it. */
  const exchange = async (body: string, flight: Flight): Promise<Exchange> => {
    const timer = setTimeout(() => {
      flight.timedOut = true
      flight.controller.abort()
    }, timeoutMs)
    try {
      const response = await fetchFn(rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        signal: flight.controller.signal,
      })
      if (!response.ok) return failed('HTTP_ERROR', `HTTP ${response.status}`, response.status)
      const text = await response.text()
      try {
        return { ok: true, body: JSON.parse(text) }
      } catch {
        return failed('NOT_JSON_RPC', 'not JSON')
      }
    } catch (error) {
      if (flight.timedOut) return failed('TIMEOUT', `${timeoutMs / 1000} seconds`)
      if (isAbort(error)) return failed('ABORTED', 'cancelled')
      // A fetch's own messages can quote the URL, so only the error's class travels on.
      return failed('UNREACHABLE', error instanceof Error ? error.name : typeof error)
    } finally {
      clearTimeout(timer)
    }
  }

  /** Each signal's calls still waiting: one abort listener per signal (per scan) instead of one per call. */
  const waitingOn = new WeakMap<AbortSignal, Set<Pending>>()

  /** Ends `call` with its outcome, once: a call its caller gave up on ignores the answer that comes later. */
  const finish = (call: Pending, ok: boolean, outcome: unknown) => {
    if (call.done) return
    call.done = true
    if (call.signal) waitingOn.get(call.signal)?.delete(call)
    if (ok) call.resolve(outcome)
    else call.reject(outcome)
  }

  const settle = (call: Pending, answer: unknown) => {
    let result: unknown
    try {
      result = resultOf(answer, call.method)
    } catch (error) {
      return finish(call, false, error)
    }
    finish(call, true, result)
  }

  /** The caller gave up on `call`: it ends now, and its exchange ends once no call in it is waiting. */
  const abandon = (call: Pending) => {
    if (call.done) return
    finish(call, false, new RpcFailure('ABORTED', `The call to the node (${call.method}) was cancelled.`, null))
    const flight = call.exchange
    if (!flight) return
    flight.waiting -= 1
    if (flight.waiting === 0) flight.controller.abort()
  }

  /** Ends `call` when `signal` aborts; the signal's first call registers its listener. */
  const watch = (signal: AbortSignal, call: Pending) => {
    let calls = waitingOn.get(signal)
    if (!calls) {
      const watched = new Set<Pending>()
      calls = watched
      waitingOn.set(signal, watched)
      signal.addEventListener(
        'abort',
        () => {
          for (const each of watched) abandon(each)
        },
        { once: true },
      )
    }
    calls.add(call)
  }

  const send = (calls: Pending[]) => {
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
      // One pass over the whole body: writing each call's params apart and joining them cost more than a third more
      // CPU per call, in copies and in collector work.
      body = JSON.stringify(lone ? payload[0] : payload)
    } catch (error) {
      // Params that cannot be sent (a bigint, a cycle) are the engine's bug: those calls end with the reason, the
      // other scans' calls still go.
      const sendable = calls.filter((call) => writable(call.params))
      for (const call of calls) if (!sendable.includes(call)) finish(call, false, error)
      if (sendable.length > 0 && sendable.length < calls.length) send(sendable)
      else for (const call of sendable) finish(call, false, error)
      return
    }
    const flight: Flight = { controller: new AbortController(), waiting: calls.length, timedOut: false }
    for (const call of calls) call.exchange = flight
    void exchange(body, flight).then((outcome) => {
      if (!outcome.ok) {
        if (!lone && outcome.status !== undefined && BATCH_REFUSED_STATUSES.has(outcome.status))
          return sendSmaller(calls)
        for (const call of calls) finish(call, false, transportFailure(outcome.failure, call.method))
        return
      }
      const answer = outcome.body
      if (lone) return settle(calls[0] as Pending, answer)
      // One answer for the whole batch: a node that takes no batches, or none this large.
      if (!Array.isArray(answer)) return sendSmaller(calls)
      // A node answers a batch with an array, in any order.
      const byId = new Map<unknown, unknown>(answer.map((one: Answer) => [one?.id, one]))
      const answers = ids.map((id) => byId.get(id))
      if (answers.every(refusesBatch)) return sendSmaller(calls)
      calls.forEach((call, index) => {
        settle(call, answers[index])
      })
    })
  }

  /**
   * The node refused `calls` as a batch: they go again in batches half as large, and so does every later call, down to
   * one call per POST, rather than failing calls that would have been served. Halving finds a node's limit (some
   * gateways take 3 or 5 calls, most 100 or more) in a few refusals.
   */
  const sendSmaller = (calls: Pending[]) => {
    maxBatch = Math.max(1, Math.min(maxBatch, Math.floor(calls.length / 2)))
    const waiting = calls.filter((call) => !call.done)
    for (let start = 0; start < waiting.length; start += maxBatch) send(waiting.slice(start, start + maxBatch))
  }

  const flush = () => {
    const calls = pending
    pending = []
    let batch: Pending[] = []
    for (const call of calls) {
      if (call.done) continue
      batch.push(call)
      if (batch.length === maxBatch) {
        send(batch)
        batch = []
      }
    }
    if (batch.length > 0) send(batch)
  }

  return {
    call: (method, params, signal) =>
      new Promise((resolve, reject) => {
        const call: Pending = { method, params, resolve, reject, done: false, exchange: null, signal }
        if (signal?.aborted) return abandon(call)
        if (signal) watch(signal, call)
        if (pending.push(call) === 1) schedule(flush)
        else if (pending.length >= maxBatch) flush()
      }),
  }
}

const failed = (kind: Transport['kind'], detail: string, status?: number): Exchange =>
  status === undefined ? { ok: false, failure: { kind, detail } } : { ok: false, failure: { kind, detail }, status }

/**
 * Whether one call's entry in a batch answer turns the batch away rather than answering the call: missing (geth puts
 * its refusal on the first call only), or an Invalid Request error, which a well-formed call gets only for its batch.
 */
function refusesBatch(answer: unknown): boolean {
  if (answer === undefined) return true
  const error = (answer as Answer | null)?.error
  return typeof error === 'object' && error !== null && error.code === INVALID_REQUEST
}

/** Whether `params` can be written as JSON. */
function writable(params: unknown[]): boolean {
  try {
    JSON.stringify(params)
    return true
  } catch {
    return false
  }
}

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
    throw new RpcFailure('REJECTED', `The node rejected ${method}: ${message}`, code, message)
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
