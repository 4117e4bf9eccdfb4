/**
 * A wallet's own channel below its provider: MetaMask, and the wallets built on its packages, carry every request from
 * their page script to their content script with `window.postMessage`, in the envelope of
 * `@metamask/post-message-stream` and `@metamask/object-multiplex`:
 * `{ target: '<wallet>-contentscript', data: { name: '<substream>', data: <JSON-RPC request> } }`, and answer with the
 * same envelope addressed to `<wallet>-inpage`. A page can post a signing request there itself, below every entry
 * point the hook patches, or through a frame whose hook it answered. The relay sees each such message before the
 * wallet's content script does (Chrome starts extensions' document_start scripts in the order of their IDs, and the
 * key in manifest.json gives Preflight one that sorts first), and stops it unless a Continue forwarded exactly that
 * request.
 */
import { classifyMethod } from '../inpage/methods.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import type { ProviderError } from './protocol.ts'

const CONTENT_SCRIPT_SUFFIX = 'contentscript'
const INPAGE_SUFFIX = 'inpage'

/** A JSON-RPC request on a wallet's channel, with the envelope it came in. */
export type ChannelRequest = {
  /** The content script the envelope is addressed to. */
  target: string
  /** The multiplexed stream inside it. */
  name: string
  /** The request as posted: id, jsonrpc and whatever else the wallet reads, besides method and params. */
  request: Record<string, unknown>
  method: InterceptedMethod
  params: unknown
  /**
   * The CAIP-2 chain of a Multichain API call (`wallet_invokeMethod`, CAIP-27), which carries the signing request in
   * `params.request` for the chain `params.scope` names (`eip155:1`); undefined for a request made directly.
   */
  scope?: string
}

/** What a message on the window is to the relay. */
export type ChannelMessage =
  /** A signing request to a wallet's content script. */
  | { kind: 'signing'; request: ChannelRequest }
  /**
   * A request no provider would post: a batch holding a signing method, or a method a lenient wallet might read as one
   * (other case, spaces, invisible characters). Stopped, answered when it can be.
   */
  | { kind: 'refused'; target: string; name: string; id: unknown; error: ProviderError }
  /** Anything else: not the relay's business. */
  | { kind: 'other' }

const OTHER: ChannelMessage = { kind: 'other' }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads one message posted on the window (its data, as structured-cloned for the relay's world). */
export function readChannelMessage(data: unknown): ChannelMessage {
  if (!isRecord(data) || typeof data.target !== 'string' || !data.target.endsWith(CONTENT_SCRIPT_SUFFIX)) return OTHER
  const envelope = data.data
  if (!isRecord(envelope) || typeof envelope.name !== 'string') return OTHER
  const { target } = data
  const { name } = envelope
  const inner = envelope.data
  if (Array.isArray(inner)) {
    const signing = inner.some((item) => isRecord(item) && classifyMethod(item.method).kind !== 'pass')
    if (!signing) return OTHER
    const error = { code: -32600, message: 'Preflight refused a batch with a signing request on the wallet channel.' }
    return { kind: 'refused', target, name, id: null, error }
  }
  if (!isRecord(inner) || !('method' in inner)) return OTHER
  const invoked = inner.method === INVOKE_METHOD && isRecord(inner.params) ? inner.params : undefined
  const call = invoked ? invoked.request : inner
  if (!isRecord(call)) return OTHER
  const method = classifyMethod(call.method)
  if (method.kind === 'pass') return OTHER
  if (method.kind === 'refuse') {
    return { kind: 'refused', target, name, id: inner.id, error: { code: method.code, message: method.message } }
  }
  const scope = invoked && typeof invoked.scope === 'string' ? { scope: invoked.scope } : {}
  return {
    kind: 'signing',
    request: { target, name, request: inner, method: method.method, params: call.params, ...scope },
  }
}

/** The Multichain API's call of a method on one chain (CAIP-27). */
const INVOKE_METHOD = 'wallet_invokeMethod'

/** The chain id a CAIP-2 `eip155:<n>` scope names, as a hex quantity; undefined for any other. */
export function scopeChain(scope: string): string | undefined {
  const match = /^eip155:([1-9]\d{0,15})$/.exec(scope)
  return match ? `0x${BigInt(match[1] as string).toString(16)}` : undefined
}

/** The envelope answering `id` with `error` on the channel of `target`, as the wallet's content script answers. */
export function channelError(target: string, name: string, id: unknown, error: ProviderError) {
  return { target: replySide(target), data: { name, data: { jsonrpc: '2.0', id, error } } }
}

/** The envelope that sends `request` to the wallet with the params a Continue forwarded. */
export function channelForward(request: ChannelRequest, params: unknown) {
  const invoked = request.request.params as Record<string, unknown>
  const data =
    request.scope === undefined
      ? { ...request.request, params }
      : { ...request.request, params: { ...invoked, request: { ...(invoked.request as object), params } } }
  return { target: request.target, data: { name: request.name, data } }
}

/** The envelope asking the wallet `method` (no params) under `id`, as its page script asks. */
export function channelAsk(target: string, name: string, id: string, method: string) {
  return { target, data: { name, data: { jsonrpc: '2.0', id, method, params: [] } } }
}

/** The wallet's answer to `id` in a message addressed to the page side of `target`'s channel, if it is one. */
export function channelAnswer(data: unknown, target: string, id: string): { result: unknown } | undefined {
  if (!isRecord(data) || data.target !== replySide(target) || !isRecord(data.data)) return undefined
  const answer = data.data.data
  if (!isRecord(answer) || answer.id !== id || !('result' in answer)) return undefined
  return { result: answer.result }
}

function replySide(target: string): string {
  return `${target.slice(0, -CONTENT_SCRIPT_SUFFIX.length)}${INPAGE_SUFFIX}`
}

/** How long a forwarded request may take to appear on the channel: the provider posts it as soon as it is called. */
export const ALLOWANCE_MS = 10_000

/**
 * The requests a Continue forwarded, each allowed through the channel once, within ALLOWANCE_MS: a wallet that uses
 * no channel leaves its allowance to lapse, so a page cannot send the same request again later without a window.
 */
export function createAllowances(now: () => number = Date.now) {
  const open: { key: string; until: number }[] = []
  const keyOf = (method: string, params: unknown) => `${method}\n${JSON.stringify(params ?? null)}`
  const prune = () => {
    const at = now()
    for (let index = open.length - 1; index >= 0; index--) if ((open[index]?.until ?? 0) < at) open.splice(index, 1)
  }
  return {
    /** Allows `method` with exactly these `params` once. */
    allow(method: string, params: unknown) {
      prune()
      open.push({ key: keyOf(method, params), until: now() + ALLOWANCE_MS })
    },
    /** Whether `request` was forwarded by a Continue and not yet seen; it is then used up. */
    take(request: ChannelRequest): boolean {
      prune()
      const key = keyOf(request.method, request.params)
      const index = open.findIndex((entry) => entry.key === key)
      if (index < 0) return false
      open.splice(index, 1)
      return true
    },
  }
}
