/**
 * The engine's own types around the wire shapes (not in the seed spec): how a scan is asked for (ScanOptions) and what
 * it returns (ScanOutcome: the response, or an EngineError saying why there is none). Bad input never crashes a scan;
 * it becomes one of these values.
 */

/** A request the engine cannot scan: which field is wrong and why. */
export type InvalidRequest = { kind: 'INVALID_REQUEST'; field: string; message: string }

/** What went wrong with the node: it could not be reached, answered with an error, or answered nonsense. */
export type NodeFailureKind =
  | 'UNREACHABLE'
  | 'HTTP_ERROR'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'REJECTED'
  | 'UNSUPPORTED_METHOD'
  | 'NOT_JSON_RPC'
  | 'BAD_ANSWER'

/**
 * Why a scan could not run at all: bad input (which field, why), an unreachable/failed node, or a bug in Preflight.
 * An RPC_ERROR's message never names the node's URL, which may hold a key.
 */
export type EngineError =
  | InvalidRequest
  | { kind: 'RPC_ERROR'; reason: NodeFailureKind; message: string }
  | { kind: 'UNSUPPORTED_CHAIN'; message: string }
  | { kind: 'INTERNAL'; message: string }

/** What every scan returns: the response, or an error value — never a thrown exception for bad input. */
export type ScanOutcome<T> = { ok: true; response: T } | { ok: false; error: EngineError }

/**
 * The way to one node: gathers the requests made close together (by one scan, or by every scan of a server) into
 * exchanges, one POST each, and answers each request on its own (createRpcChannel).
 */
export type RpcChannel = {
  /**
   * Sends one request; `signal` aborting ends this call (ABORTED) without touching the others it travels with. A call
   * whose params cannot be written as JSON (a bigint, a cycle: the engine's bug) fails alone, and nothing of it is sent.
   */
  call: (method: string, params: unknown[], signal?: AbortSignal) => Promise<unknown>
}

/** How the engine reaches the chain and what it may reuse between scans. */
export type ScanOptions = {
  /** JSON-RPC endpoint of a node that supports eth_simulateV1 (anvil, geth, reth, …). */
  rpcUrl: string
  /** Chain id when already known (skips a round trip); otherwise asked from the node once and cached. */
  chainId?: number
  /** Language code of the human-readable text (seed §4 `language`); English is the only one shipped. */
  language?: string
  /** Clock in Unix seconds, for deadlines and expiries; defaults to the current time. */
  now?: () => number
  /** Custom fetch, e.g. to count requests in benchmarks; defaults to globalThis.fetch. */
  fetch?: typeof fetch
  /** A channel to the node shared by scans (a server's, batching their calls together); `fetch` is then unused. */
  rpc?: RpcChannel
  /** Cancels the scan's node calls; the scan then ends with an RPC_ERROR of reason ABORTED. */
  signal?: AbortSignal
  /**
   * Transaction scans: also run the transactions as a block runs them (a real gas price and base fee, a wallet's gas,
   * the next block's time and randomness) and warn (SIMULATION_EVASION) when that leaves the user worse off. One more
   * call, at most one more round trip.
   */
  probeEnvironment?: boolean
}
