/**
 * Messages between the page hook, the relay and the service worker. The hook talks to the relay over a private
 * MessagePort; the relay talks to the worker over a runtime.Port and receives decisions by tabs.sendMessage.
 */
import type { Decision, InterceptedMethod } from '../shared/pending.ts'

export const INTERCEPTED_METHODS: readonly InterceptedMethod[] = [
  'eth_sendTransaction',
  'eth_signTypedData_v4',
  'eth_signTypedData_v3',
  'eth_sign',
  'personal_sign',
  'wallet_sendCalls',
]

/** What the hook learned about a call it intercepted: normalised params, the signer and the provider's chain. */
export type ScanCall = { method: InterceptedMethod; params: unknown[]; account: string; chainId: number }

/** An EIP-1193 error the hook throws to the dapp. */
export type ProviderError = { code: number; message: string }

const USER_REJECTED: ProviderError = { code: 4001, message: 'User rejected the request.' }

/** How a request ends for the hook: forward to the wallet, pass through unscanned, or throw an error. */
export type Outcome = { kind: 'forward' } | { kind: 'error'; error: ProviderError }

/** Hook → relay. `rid` is the hook's own counter; it never leaves this frame. */
export type HookMessage = { type: 'scan'; rid: number; call: ScanCall }

/** Relay → hook. */
export type RelayToHook = { type: 'settle'; rid: number; outcome: Outcome }

/** Relay → worker over the runtime port. */
export type RelayToWorker =
  | { type: 'request'; rid: number; call: ScanCall }
  /** After a reconnect: which of these request ids are still pending, and which settled while disconnected. */
  | { type: 'resume'; ids: string[] }

/** Worker → relay over the runtime port. */
export type WorkerToRelay =
  | { type: 'accepted'; rid: number; id: string }
  | { type: 'settle'; rid: number; outcome: Outcome }
  | { type: 'decided'; id: string; outcome: Outcome }

/** Worker → relay by tabs.sendMessage, so a decision reaches the frame even after the worker was restarted. */
export type DecisionDelivery = { type: 'preflight/decided'; id: string; outcome: Outcome }

/** The outcome the hook acts on for a user's decision. */
export function outcomeOf(decision: Decision | 'closed'): Outcome {
  return decision === 'continue' ? { kind: 'forward' } : { kind: 'error', error: USER_REJECTED }
}

export const RELAY_PORT_NAME = 'preflight-relay'
