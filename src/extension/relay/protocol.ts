/**
 * Messages between the page hook, the relay and the service worker. The hook talks to the relay over a private
 * MessagePort; the relay talks to the worker over a runtime.Port and receives decisions by tabs.sendMessage.
 *
 * The worker is where a request is made whole: the hook sends a detached copy of what the dapp passed and what the
 * wallet says (its accounts and chain); the worker normalises it, stores it, scans it and shows it, and on Continue
 * sends back the params it stored, which the hook forwards to the wallet. What the window showed is therefore byte for
 * byte what the wallet receives, and the page's objects never reach the wallet.
 */
import type { Decision, InterceptedMethod } from '../shared/pending.ts'

export const INTERCEPTED_METHODS: readonly InterceptedMethod[] = [
  'eth_sendTransaction',
  'wallet_sendTransaction',
  'eth_signTransaction',
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'wallet_sendCalls',
  'eth_signTypedData_v4',
  'eth_signTypedData_v3',
  'eth_signTypedData_v1',
  'eth_signTypedData',
  'eth_sign',
  'personal_sign',
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
]

/** Which wallet the hook holds for a call, as far as the page's own objects tell (for display only). */
export type WalletInfo = {
  /** The EIP-6963 name (or rdns) of the wallet, else a name from its flags, else "window.ethereum". */
  label: string
  /** The wallet appeared after the page's own scripts had started: the page may have reached it first. */
  late: boolean
}

/**
 * What the hook learned about an intercepted call: the method, a detached copy of the params as the dapp passed them,
 * and the answers of the wallet the hook holds to eth_accounts and eth_chainId (undefined when it did not answer).
 * Every field comes from the page's world, so the worker checks each before using it.
 */
export type HookCall = {
  method: InterceptedMethod
  params: unknown
  accounts: unknown
  chainId: unknown
  wallet: WalletInfo
}

/** An EIP-1193 error the hook throws to the dapp. */
export type ProviderError = { code: number; message: string }

export const USER_REJECTED: ProviderError = {
  code: 4001,
  message: 'User rejected the request: user denied it in Preflight.',
}

/** How a request ends for the hook: forward these params to the wallet, or throw an error. */
export type Outcome = { kind: 'forward'; params: unknown } | { kind: 'error'; error: ProviderError }

/**
 * Hook → relay. `rid` is the hook's own counter; it never leaves this frame. A prelude says a signing request is
 * probably coming, so the relay wakes the worker; `coming` says one is: the hook holds it and asks the wallet for its
 * accounts and chain before sending it.
 */
export type HookMessage = { type: 'scan'; rid: number; call: HookCall } | { type: 'prelude' } | { type: 'coming' }

/** Relay → hook. */
export type RelayToHook = { type: 'settle'; rid: number; outcome: Outcome }

/** Relay → worker over the runtime port. */
export type RelayToWorker =
  | { type: 'request'; rid: number; call: HookCall }
  /** After a reconnect: which of these request ids are still pending, and which settled while disconnected. */
  | { type: 'resume'; ids: string[] }
  /** A signing request is probably coming: start now (the connection alone wakes a stopped worker). */
  | { type: 'prelude' }
  /** The next request on this port is on its way: its window can open now (see requests.ts, announce). */
  | { type: 'coming' }
  /** The page is in use: receiving it restarts Chrome's idle timer; a worker it woke fetches its lists, as for a prelude. */
  | { type: 'keepalive' }

/** Worker → relay over the runtime port. */
export type WorkerToRelay =
  | { type: 'accepted'; rid: number; id: string }
  | { type: 'settle'; rid: number; outcome: Outcome }
  | { type: 'decided'; id: string; outcome: Outcome }

/** Worker → relay by tabs.sendMessage, so a decision reaches the frame even after the worker was restarted. */
export type DecisionDelivery = { type: 'preflight/decided'; id: string; outcome: Outcome }

/** The outcome the hook acts on for a user's decision on a request whose stored params are `params`. */
export function outcomeOf(decision: Decision | 'closed', params: unknown): Outcome {
  return decision === 'continue' ? { kind: 'forward', params } : { kind: 'error', error: USER_REJECTED }
}

export const RELAY_PORT_NAME = 'preflight-relay'

/** Relay → hook: a cancelable MessageEvent carrying the port; the hook cancels it to say "taken". */
export const PORT_EVENT = 'preflight:relay-port'
/** Hook → relay: "I am listening now": the relay, which runs first, then hands its port over. */
export const READY_EVENT = 'preflight:hook-ready'

/** How long the hook waits for the wallet to say its accounts and chain before it sends a request without them. */
export const WALLET_ANSWER_TIMEOUT_MS = 5_000

/** A page estimating gas in a loop tells the relay that a request is coming once a second at most. */
export const PRELUDE_INTERVAL_MS = 1_000
