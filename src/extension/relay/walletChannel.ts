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

/**
 * Any object, arrays included: structured cloning keeps an array's named properties, and a wallet that reads
 * `message.target` or `request.method` finds them on an array as on a plain object.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * What one request on the channel asks for: the signing method classified (the hook's rules), or of a Multichain API
 * call the method inside it, with the call and its scope; `plain` when every level of it is a plain object, as
 * providers post it.
 */
function readCall(
  item: unknown,
):
  | { kind: 'pass' }
  | { kind: 'refuse'; code: number; message: string }
  | { kind: 'intercept'; method: InterceptedMethod; call: Record<string, unknown>; scope?: unknown; plain: boolean } {
  if (!isObject(item)) return { kind: 'pass' }
  const invoked = item.method === INVOKE_METHOD && isObject(item.params) ? item.params : undefined
  const call = invoked ? invoked.request : item
  // An answer or a notification carries no method.
  if (!isObject(call) || !('method' in call)) return { kind: 'pass' }
  const method = classifyMethod(call.method)
  if (method.kind !== 'intercept') return method.kind === 'pass' ? { kind: 'pass' } : method
  const plain = isRecord(item) && isRecord(call) && (invoked === undefined || isRecord(invoked))
  return invoked ? { ...method, call, scope: invoked.scope, plain } : { ...method, call, plain }
}

const refused = (target: string, name: string, id: unknown, message: string): ChannelMessage => ({
  kind: 'refused',
  target,
  name,
  id,
  error: { code: -32600, message: `Preflight refused this request on the wallet channel: ${message}` },
})

/**
 * Reads one message posted on the window (its data, as structured-cloned for the relay's world), as leniently as the
 * wallet's own stream reads it: a message, envelope or request that is an array, or a stream name that is no plain
 * string, still reaches the stream its name converts to, so a signing request in one is refused rather than let by.
 */
export function readChannelMessage(data: unknown): ChannelMessage {
  if (!isObject(data) || typeof data.target !== 'string' || !data.target.endsWith(CONTENT_SCRIPT_SUFFIX)) return OTHER
  const { target } = data
  const envelope = data.data
  if (!isObject(envelope)) return OTHER
  const { name: rawName, data: inner } = envelope
  const plain = isRecord(data) && isRecord(envelope) && typeof rawName === 'string'
  const name = typeof rawName === 'string' ? rawName : String(rawName)
  const read = readCall(inner)
  // An array is a batch, unless its named properties make it a request (read as one below, and refused).
  if (Array.isArray(inner) && read.kind === 'pass') {
    // Providers post one request at a time; a batch holding a signing request, directly or inside a Multichain API
    // call, is only ever a page's.
    if (inner.every((item) => readCall(item).kind === 'pass')) return OTHER
    return refused(target, name, null, 'a batch with a signing request.')
  }
  if (read.kind === 'pass') return OTHER
  const id = (inner as Record<string, unknown>).id
  if (read.kind === 'refuse')
    return { kind: 'refused', target, name, id, error: { code: read.code, message: read.message } }
  if (!plain || !read.plain) return refused(target, name, id, 'its envelope is not the one wallets post.')
  if (read.scope !== undefined && (typeof read.scope !== 'string' || scopeChain(read.scope) === undefined)) {
    return refused(target, name, id, `"${String(read.scope)}" is no EVM chain (eip155:<chain id>).`)
  }
  const scope = typeof read.scope === 'string' ? { scope: read.scope } : {}
  return {
    kind: 'signing',
    request: {
      target,
      name,
      request: inner as Record<string, unknown>,
      method: read.method,
      params: read.call.params,
      ...scope,
    },
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

/** More values than any request a window could show holds: params past it are refused, not serialised. */
const KEY_BUDGET = 100_000

/**
 * The params as JSON, what the wallet's worker gets of them; throws past KEY_BUDGET values (counting each visit, so a
 * small structure that shares one object many times over, or refers to itself, cannot stall the relay) or on a value
 * JSON refuses (a BigInt).
 */
function boundedJson(value: unknown): string {
  let left = KEY_BUDGET
  const visit = (node: unknown) => {
    if (--left < 0) throw new Error('the request is too large to check')
    if (typeof node !== 'object' || node === null) return
    for (const inner of Object.values(node)) visit(inner)
  }
  visit(value)
  return JSON.stringify(value ?? null)
}

/** Where a request goes: the hook's forwards reach the wallet through its provider, on whatever channel it uses. */
const THROUGH_PROVIDER = 'provider'

/** The route of a request read on a channel: its content script, stream and, for a Multichain API call, its chain. */
function routeOf(request: ChannelRequest): string {
  return `${request.target}\n${request.name}\n${request.scope ?? ''}`
}

/**
 * Whether `value` is data JSON carries whole, so that two values with the same JSON are the same to any reader: no
 * String or Number objects, Maps, Dates or other objects JSON reads as something else, no array with a hole or a field
 * of its own, no undefined, NaN, infinity or -0. What a structured clone delivers can be any of those.
 */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0)
  if (typeof value !== 'object') return false
  if (Array.isArray(value)) {
    const keys = Object.keys(value)
    return (
      Object.getPrototypeOf(value) === Array.prototype &&
      keys.length === value.length &&
      keys.every((key, index) => key === String(index)) &&
      value.every(isPlainJson)
    )
  }
  return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isPlainJson)
}

/** What to do with a signing request on the channel that a Continue allowed. */
export type Allowed =
  /** The relay's own copy of the params shown, posted again: it goes to the wallet as it is. */
  | { kind: 'pass' }
  /** Forwarded through the provider: the relay posts `params`, the copy shown, in place of the object posted. */
  | { kind: 'rebuild'; params: unknown }

export type Allowances = {
  /** Allows `method` with exactly these `params` once: through the provider, or posted again as `request` was. */
  allow(method: string, params: unknown, request?: ChannelRequest): void
  /**
   * How `request` was allowed by a Continue, and not yet seen (it is then used up); undefined when it was not. Throws
   * when its params cannot be compared (too large, or not JSON).
   */
  take(request: ChannelRequest): Allowed | undefined
}

/**
 * The requests a Continue forwarded, each allowed through the channel once, within ALLOWANCE_MS, on its route: what
 * the hook forwarded goes as a request made directly, and what the relay posts again goes where it came from. A
 * wallet that uses no channel leaves its allowance to lapse, so a page cannot send the same request again later
 * without a window. Params are compared as JSON, and what the wallet's world would read besides (a String object, a
 * field on a list) never reaches it: the provider's message is replaced by the relay's copy of the params shown, and
 * only that copy, or one JSON reads exactly as it, passes as the relay's own.
 */
export function createAllowances(now: () => number = Date.now): Allowances {
  const open: { key: string; json: string; until: number }[] = []
  const keyOf = (route: string, method: string, json: string) => `${route}\n${method}\n${json}`
  const prune = () => {
    const at = now()
    for (let index = open.length - 1; index >= 0; index--) if ((open[index]?.until ?? 0) < at) open.splice(index, 1)
  }
  const takeKey = (key: string) => {
    const index = open.findIndex((entry) => entry.key === key)
    return index < 0 ? undefined : open.splice(index, 1)[0]
  }
  return {
    allow(method, params, request) {
      prune()
      const route = request ? routeOf(request) : THROUGH_PROVIDER
      const json = boundedJson(params)
      open.push({ key: keyOf(route, method, json), json, until: now() + ALLOWANCE_MS })
    },
    take(request) {
      prune()
      const json = boundedJson(request.params)
      if (isPlainJson(request.params) && takeKey(keyOf(routeOf(request), request.method, json))) return { kind: 'pass' }
      const forwarded = request.scope === undefined ? takeKey(keyOf(THROUGH_PROVIDER, request.method, json)) : undefined
      return forwarded && { kind: 'rebuild', params: JSON.parse(forwarded.json) }
    },
  }
}
