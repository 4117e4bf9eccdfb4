/**
 * The wrappers that replace a wallet's entry points: `request`, `send` (all three forms), `sendAsync`, and the
 * internal ones a page can walk to (`_rpcRequest`, `_rpcEngine.handle` in MetaMask-style providers). Batches are
 * taken apart element by element when any element needs review.
 *
 * Every payload a wrapper passes on is a fresh copy read once from what the page gave, so a getter cannot answer one
 * method to the hook and another to the wallet. An intercepted call goes through the gate; on Continue the wallet
 * receives a new payload holding the frozen params the worker sent back: what the window showed. When the wallet then
 * calls its own inner entry points with those params, they are recognised by identity and pass without a second
 * review while the wallet works on them (see Approval): a page that gets hold of them (a getter on Object.prototype
 * that the wallet's code reads through) cannot send them again once the wallet answered.
 */
import type { Outcome, ProviderError } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import type { Gate } from './gate.ts'
import {
  append,
  apply,
  construct,
  defineProperty,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isArray,
  newWeakMap,
  ownKeys,
  ownValue,
  PromiseConstructor,
  providerError,
  put,
  weakMapGet,
  weakMapSet,
} from './intrinsics.ts'
import { classifyMethod } from './methods.ts'
import { plantedError, plantedField, plantedMethod } from './plantedFields.ts'
import { copyPayload, freezeDeep, readField } from './snapshot.ts'
import { whenSettled } from './thenable.ts'
import { type Held, heirsOf, heldFor, recordWrapper } from './wallets.ts'

type AnyFunction = (...args: unknown[]) => unknown
type Payload = Record<string, unknown>
type Callback = (error: unknown, response?: unknown) => void
type Resolve = (value: unknown) => void

/**
 * How an entry point takes a call and answers it: `request(args)` → promise; `send(method, params)`,
 * `send(payload, cb)` or `send(payload)`; `sendAsync`/`_rpcRequest(payload, cb)`; `handle(payload, cb?)`, which
 * answers errors inside a response object rather than by rejecting.
 */
export type Shape = 'request' | 'send' | 'callback' | 'handle'

/** Where a wrapper sits: on the wallet's own object (it knows its wallet) or on a prototype (it asks `this`). */
export type Seat = { owner: object; onPrototype: boolean }

/** The wallet function behind an entry point, and how many calls of it are running now (see callRaw). */
type Slot = { readonly raw: AnyFunction; active: number }

type Ctx = { gate: Gate; shape: Shape; seat: Seat; slot: Slot }

/**
 * Params the hook forwarded after a Continue, so the wallet's own inner entry points let them through until the wallet
 * answers the forwarded call. While that call (or a pass it led to) runs, `inside` > 0: each entry point lets them
 * through once, or twice when the second comes from within it, on any wallet it reaches (a selector that forwards to
 * the wallet it picked). Outside, when the wallet went on after an await, they pass once in all, on the wallet asked.
 */
type Approval = {
  method: string
  held: Held
  until: number
  passes: WeakMap<object, number>
  inside: number
  outside: number
  answered: boolean
}
const approved = newWeakMap<object, Approval>()
/** The wallet may take a while to reach its inner layers (it can await its own state first). */
const APPROVAL_TTL_MS = 60_000
const dateNow = Date.now

function approve(params: object, method: string, held: Held, forwarder: Ctx): Approval {
  const passes = newWeakMap<object, number>()
  weakMapSet(passes, forwarder.slot, 1)
  const approval = { method, held, until: dateNow() + APPROVAL_TTL_MS, passes, inside: 0, outside: 0, answered: false }
  weakMapSet(approved, params, approval)
  return approval
}

/** The approval that lets `params` through this entry point now, or undefined when the call must be reviewed. */
function approvalFor(ctx: Ctx, self: unknown, params: unknown, method: string): Approval | undefined {
  if (params === null || typeof params !== 'object') return undefined
  const entry = weakMapGet(approved, params) as Approval | undefined
  if (entry === undefined || entry.method !== method || entry.answered || dateNow() > entry.until) return undefined
  if (entry.inside > 0) {
    const passes = (weakMapGet(entry.passes, ctx.slot) as number | undefined) ?? 0
    if (passes >= (ctx.slot.active > 0 ? 2 : 1)) return undefined
    weakMapSet(entry.passes, ctx.slot, passes + 1)
    return entry
  }
  // Inner layers may run on a wallet object the hook never saw (the target behind the Proxy a wallet exposes).
  const reached = heldOf(ctx, self)
  if ((reached !== undefined && reached.held !== entry.held) || entry.outside > 0) return undefined
  entry.outside++
  return entry
}

/** The wallet answered the call an approval was forwarded with: its params are not let through again. */
function endApproval(approval: Approval | undefined): void {
  if (approval) approval.answered = true
}

/**
 * Ends an approval when the wallet's answer to the forwarded call settles (a Promise polyfill's thenable too, see
 * thenable.ts); at once when that cannot be watched (no thenable, or a native promise whose `then` the page made
 * throw), so a second window is the worst that can follow.
 */
function endWhenSettled(approval: Approval | undefined, result: unknown): void {
  if (!approval) return
  const end = () => endApproval(approval)
  if (!whenSettled(result, end, end)) end()
}

/**
 * Calls the wallet's function behind an entry point; while it runs, the entry point counts as entered from within,
 * and the call as inside `approval` when it carries approved params.
 */
function callRaw(ctx: Ctx, self: unknown, args: unknown[], approval?: Approval): unknown {
  ctx.slot.active++
  if (approval) approval.inside++
  try {
    return apply(ctx.slot.raw, self, args)
  } finally {
    ctx.slot.active--
    if (approval) approval.inside--
  }
}

const errorOf = ({ code, message }: ProviderError) => providerError(code, message)

const newPromise = (executor: (resolve: Resolve, reject: Resolve) => void): Promise<unknown> =>
  construct(PromiseConstructor, [executor]) as Promise<unknown>

const rejected = (error: ProviderError) => newPromise((_resolve, reject) => reject(errorOf(error)))

const UNKNOWN_WALLET: ProviderError = {
  code: 4100,
  message: 'Preflight does not know the wallet this call was made on, so it cannot check it; call the provider itself.',
}
const UNREADABLE: ProviderError = { code: -32600, message: 'Preflight could not read the request.' }
const NAME_FORM: ProviderError = {
  code: -32600,
  message: 'Preflight: pass signing requests as { method, params } so they can be checked.',
}
const PLANTED_METHOD: ProviderError = {
  code: -32600,
  message:
    'Preflight: a request must be an object; a wallet would read the method of this one from what the page put on every value of its kind.',
}
const BATCH_IN_REQUEST: ProviderError = {
  code: -32600,
  message: 'Preflight: a batch that signs or sends must be sent one call at a time.',
}

/** [first, ...list.slice(from)] without the iteration protocol. */
function argsWith(first: unknown, list: unknown[], from: number): unknown[] {
  const out: unknown[] = [first]
  for (let index = from; index < list.length; index++) append(out, list[index])
  return out
}

/** A callback answered only the first time, whoever calls it again. */
function once(callback: Callback): Callback {
  let called = false
  return (error, response) => {
    if (called) return
    called = true
    callback(error, response)
  }
}

function errorResponse(id: unknown, { code, message }: ProviderError): Payload {
  return { jsonrpc: '2.0', id: id === undefined ? null : id, error: { code, message } }
}

/** What a thrown value says, without running the page's code to find out more than its own `message`. */
function thrownMessage(thrown: unknown): string {
  const message = readField(thrown, 'message')
  return typeof message === 'string' ? message : 'the wallet threw an error'
}

/** The payload forwarded after a Continue: a new object whose method and params cannot be reassigned. */
function approvedPayload(method: string, params: unknown, from: Payload): Payload {
  const payload: Payload = {}
  const id = ownValue(from, 'id')
  const jsonrpc = ownValue(from, 'jsonrpc')
  if (id !== undefined) put(payload, 'id', id)
  if (jsonrpc !== undefined) put(payload, 'jsonrpc', jsonrpc)
  defineProperty(payload, 'method', { __proto__: null, value: method, enumerable: true } as PropertyDescriptor)
  defineProperty(payload, 'params', { __proto__: null, value: params, enumerable: true } as PropertyDescriptor)
  return payload
}

/** The wallet a call reaches: the one held for it, and the object of it to forward the call to (`this`). */
type Reached = { held: Held; self: object }

/**
 * The held wallet for a call and the object to forward it to; undefined when the page called a prototype method on an
 * object of its own. A method on the wallet's own object knows its wallet. One on a prototype asks `this`: the wallet
 * itself (or its engine); an object inheriting from it (`Object.create(ethereum)`), which reaches the wallet up its
 * chain; or a page-side `new Proxy(ethereum, handler)`, whose target cannot be seen: the one wallet holding this seat
 * whose own properties `this` shows unchanged, refused when none or several do. The call is then forwarded to that
 * wallet, never to `this`, so whatever the page's object or traps answer, the request reaches the wallet it was
 * reviewed for.
 */
function heldOf(ctx: Ctx, self: unknown): Reached | undefined {
  if (!ctx.seat.onPrototype) {
    const held = heldFor(ctx.seat.owner)
    return held ? { held, self: ctx.seat.owner } : undefined
  }
  if (self === null || (typeof self !== 'object' && typeof self !== 'function')) return undefined
  try {
    let current: object | null = self as object
    for (let depth = 0; current !== null && current !== ctx.seat.owner && depth < MAX_CHAIN; depth++) {
      const held = heldFor(current)
      if (held) return { held, self: current }
      current = getPrototypeOf(current)
    }
    return mirrored(ctx.seat.owner, self as object)
  } catch {
    // A Proxy whose traps throw shows no wallet.
    return undefined
  }
}

/** Prototype chains are short; this bounds the walk up a chain of the page's Proxies. */
const MAX_CHAIN = 8

/** The one wallet holding `seat` whose own properties `self` shows as they are (a transparent Proxy of it). */
function mirrored(seat: object, self: object): Reached | undefined {
  const heirs = heirsOf(seat)
  let found: Reached | undefined
  for (let index = 0; index < heirs.length; index++) {
    const heir = heirs[index] as object
    const held = heldFor(heir)
    if (!held || !sameOwnProperties(self, heir)) continue
    if (found) return undefined
    found = { held, self: heir }
  }
  return found
}

/** Whether `self` has exactly `heir`'s own properties, each holding the same value or accessor functions. */
function sameOwnProperties(self: object, heir: object): boolean {
  const keys = ownKeys(heir)
  if (ownKeys(self).length !== keys.length) return false
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as PropertyKey
    const shown = getOwnPropertyDescriptor(self, key)
    const own = getOwnPropertyDescriptor(heir, key)
    if (!shown || !own) return false
    for (let field = 0; field < DESCRIPTOR_VALUES.length; field++) {
      const name = DESCRIPTOR_VALUES[field] as string
      if (hasOwn(shown, name) !== hasOwn(own, name) || ownValue(shown, name) !== ownValue(own, name)) return false
    }
  }
  return true
}

const DESCRIPTOR_VALUES = ['value', 'get', 'set']

/**
 * Runs the gate; `done` gets the error, or the frozen params to forward (recorded as approved). Params whose missing
 * fields the page planted are not forwarded (see plantedFields.ts).
 */
function review(
  ctx: Ctx,
  held: Held,
  method: InterceptedMethod,
  params: unknown,
  done: (error: ProviderError | undefined, params?: unknown, approval?: Approval) => void,
): void {
  ctx.gate(held, method, params, (outcome: Outcome) => {
    if (outcome.kind === 'error') return done(outcome.error)
    const planted = plantedField(method, outcome.params)
    if (planted) return done(plantedError(planted))
    const frozen = freezeDeep(outcome.params)
    done(
      undefined,
      frozen,
      frozen !== null && typeof frozen === 'object' ? approve(frozen, method, held, ctx) : undefined,
    )
  })
}

/**
 * Forwards what the window showed to the wallet through a promise-answering entry point; the approval ends with the
 * wallet's answer, or at once when the wallet throws.
 */
function forwardApproved(ctx: Ctx, self: object, args: unknown[], approval: Approval | undefined): unknown {
  try {
    const result = callRaw(ctx, self, args, approval)
    endWhenSettled(approval, result)
    return result
  } catch (thrown) {
    endApproval(approval)
    throw thrown
  }
}

/** A refusal in the entry point's own form: a rejected promise, or a resolved error response for `handle`. */
function refusal(ctx: Ctx, id: unknown, error: ProviderError): unknown {
  if (ctx.shape === 'handle') return newPromise((resolve) => resolve(errorResponse(id, error)))
  return rejected(error)
}

/** One payload through a promise-answering entry point: request(args), send(payload), handle(payload). */
function promiseCall(ctx: Ctx, self: unknown, payload: Payload, args: unknown[]): unknown {
  const cls = classifyMethod(payload.method)
  const id = ownValue(payload, 'id')
  if (cls.kind === 'refuse') return refusal(ctx, id, cls)
  if (cls.kind === 'pass') {
    if (cls.prelude) ctx.gate.prelude?.()
    return callRaw(ctx, self, argsWith(payload, args, 1))
  }
  const passing = approvalFor(ctx, self, payload.params, cls.method)
  if (passing) return callRaw(ctx, self, argsWith(payload, args, 1), passing)
  const reached = heldOf(ctx, self)
  if (!reached) return refusal(ctx, id, UNKNOWN_WALLET)
  const method = cls.method
  return newPromise((resolve, reject) => {
    review(ctx, reached.held, method, payload.params, (error, params, approval) => {
      if (error) return ctx.shape === 'handle' ? resolve(errorResponse(id, error)) : reject(errorOf(error))
      try {
        resolve(
          forwardApproved(ctx, reached.self, argsWith(approvedPayload(method, params, payload), args, 1), approval),
        )
      } catch (thrown) {
        reject(thrown)
      }
    })
  })
}

/** One payload through a callback entry point: sendAsync, send(payload, cb), _rpcRequest, handle(payload, cb). */
function callbackCall(ctx: Ctx, self: unknown, payload: Payload, callback: Callback, args: unknown[]): void {
  const cls = classifyMethod(payload.method)
  const id = ownValue(payload, 'id')
  const answer = once(callback)
  const fail = (error: ProviderError) => answer(errorOf(error), errorResponse(id, error))
  if (cls.kind === 'refuse') {
    fail(cls)
    return
  }
  if (cls.kind === 'pass') {
    if (cls.prelude) ctx.gate.prelude?.()
    callRaw(ctx, self, argsWith(payload, argsWith(callback, args, 2), 0))
    return
  }
  const passing = approvalFor(ctx, self, payload.params, cls.method)
  if (passing) {
    callRaw(ctx, self, argsWith(payload, argsWith(callback, args, 2), 0), passing)
    return
  }
  const reached = heldOf(ctx, self)
  if (!reached) {
    fail(UNKNOWN_WALLET)
    return
  }
  const method = cls.method
  review(ctx, reached.held, method, payload.params, (error, params, approval) => {
    if (error) return fail(error)
    const answered: Callback = (answerError, response) => {
      endApproval(approval)
      answer(answerError, response)
    }
    try {
      const forwarded = argsWith(approvedPayload(method, params, payload), argsWith(answered, args, 2), 0)
      callRaw(ctx, reached.self, forwarded, approval)
    } catch (thrown) {
      endApproval(approval)
      fail({ code: -32603, message: thrownMessage(thrown) })
    }
  })
}

/**
 * Whether a wallet could read a request from `value`: any object, and a function too, since a wallet that takes
 * `payload.method` from its argument reads it from a function as well.
 */
function carriesFields(value: unknown): value is object {
  return value !== null && (typeof value === 'object' || typeof value === 'function')
}

/** Reads a payload once; undefined when it is not a plain (non-array) object or reading it throws. */
function readPayload(value: unknown): Payload | undefined {
  if (!carriesFields(value) || isArray(value)) return undefined
  return copyPayload(value)
}

/**
 * A batch: each element read once. When none needs review it goes to the wallet whole (as copies); otherwise every
 * element goes on its own and the answers are put back together in order.
 */
function batchCall(ctx: Ctx, self: unknown, batch: unknown, callback: Callback | undefined, args: unknown[]): unknown {
  const copy = copyPayloadList(batch)
  if (!copy) return callback ? callback(errorOf(UNREADABLE), undefined) : refusal(ctx, null, UNREADABLE)
  let whole = true
  for (let index = 0; index < copy.length; index++) {
    if (classifyMethod((copy[index] as Payload).method).kind !== 'pass') whole = false
  }
  if (whole) return callRaw(ctx, self, argsWith(copy, args, 1))
  if (ctx.shape === 'request') return rejected(BATCH_IN_REQUEST)
  const responses: unknown[] = []
  let left = copy.length
  let resolveAll: Resolve | undefined
  const all = callback
    ? undefined
    : newPromise((resolve) => {
        resolveAll = resolve
      })
  const finishOne = () => {
    left--
    if (left > 0) return
    if (callback) callback(null, responses)
    else if (resolveAll) resolveAll(responses)
  }
  const single: Ctx = { gate: ctx.gate, shape: 'callback', seat: ctx.seat, slot: ctx.slot }
  for (let index = 0; index < copy.length; index++) {
    const payload = copy[index] as Payload
    const position = index
    callbackCall(
      single,
      self,
      payload,
      (_error, response) => {
        const body =
          response ?? errorResponse(ownValue(payload, 'id'), { code: -32603, message: 'the wallet gave no answer' })
        put(responses, position, body)
        finishOne()
      },
      [],
    )
  }
  return all
}

/** Each element of a batch read once into a payload copy; undefined when the batch cannot be read. */
function copyPayloadList(batch: unknown): Payload[] | undefined {
  try {
    const length = readField(batch, 'length')
    if (typeof length !== 'number' || length > 1000) return undefined
    const out: Payload[] = []
    for (let index = 0; index < length; index++) {
      const element = readField(batch, index)
      append(out, readPayload(element) ?? { method: undefined, params: undefined })
    }
    return out
  } catch {
    return undefined
  }
}

/** A method given by name where an object is expected: checked, passed on untouched unless it needs review. */
function byName(ctx: Ctx, self: unknown, method: string, args: unknown[]): unknown {
  const cls = classifyMethod(method)
  if (cls.kind === 'pass') return callRaw(ctx, self, args)
  return refusal(ctx, null, cls.kind === 'refuse' ? cls : NAME_FORM)
}

/** The legacy `send(method, params)` form, which answers with a promise. */
function sendByName(ctx: Ctx, self: unknown, method: string, params: unknown, args: unknown[]): unknown {
  const cls = classifyMethod(method)
  if (cls.kind === 'refuse') return rejected(cls)
  if (cls.kind === 'pass') return callRaw(ctx, self, args)
  const passing = approvalFor(ctx, self, params, cls.method)
  if (passing) return callRaw(ctx, self, args, passing)
  const reached = heldOf(ctx, self)
  if (!reached) return rejected(UNKNOWN_WALLET)
  const intercepted = cls.method
  return newPromise((resolve, reject) => {
    review(ctx, reached.held, intercepted, params, (error, approvedParams, approval) => {
      if (error) return reject(errorOf(error))
      try {
        resolve(forwardApproved(ctx, reached.self, [intercepted, approvedParams], approval))
      } catch (thrown) {
        reject(thrown)
      }
    })
  })
}

function makeWrapper(ctx: Ctx): AnyFunction {
  const wrappers = {
    request(this: unknown, ...args: unknown[]) {
      const first = args[0]
      if (plantedMethod(first)) return refusal(ctx, null, PLANTED_METHOD)
      if (typeof first === 'string') return byName(ctx, this, first, args)
      if (isArray(first)) return batchCall(ctx, this, first, undefined, args)
      if (!carriesFields(first)) return callRaw(ctx, this, args)
      const payload = readPayload(first)
      return payload ? promiseCall(ctx, this, payload, args) : rejected(UNREADABLE)
    },
    send(this: unknown, ...args: unknown[]) {
      const first = args[0]
      const second = args[1]
      const callback = typeof second === 'function' ? (second as Callback) : undefined
      if (plantedMethod(first))
        return callback ? callback(errorOf(PLANTED_METHOD), undefined) : rejected(PLANTED_METHOD)
      if (typeof first === 'string') return sendByName(ctx, this, first, second, args)
      if (isArray(first)) return batchCall(ctx, this, first, callback, args)
      if (!carriesFields(first)) return callRaw(ctx, this, args)
      const payload = readPayload(first)
      if (!payload) return callback ? callback(errorOf(UNREADABLE), undefined) : rejected(UNREADABLE)
      if (callback) return callbackCall(ctx, this, payload, callback, args)
      return promiseCall(ctx, this, payload, args)
    },
    callback(this: unknown, ...args: unknown[]) {
      const first = args[0]
      const second = args[1]
      const callback = typeof second === 'function' ? (second as Callback) : undefined
      if (plantedMethod(first)) {
        return callback ? callback(errorOf(PLANTED_METHOD), undefined) : refusal(ctx, null, PLANTED_METHOD)
      }
      if (typeof first === 'string') return byName(ctx, this, first, args)
      if (isArray(first)) return batchCall(ctx, this, first, callback, args)
      if (!carriesFields(first)) return callRaw(ctx, this, args)
      const payload = readPayload(first)
      if (!payload) return callback ? callback(errorOf(UNREADABLE), undefined) : refusal(ctx, null, UNREADABLE)
      if (callback) return callbackCall(ctx, this, payload, callback, args)
      return promiseCall(ctx, this, payload, args)
    },
  }
  const wrapper = (ctx.shape === 'handle' ? wrappers.callback : wrappers[ctx.shape]) as AnyFunction
  recordWrapper(wrapper, ctx.slot)
  return wrapper
}

/** A wrapper for an entry point whose function is `raw`, sitting on `seat`; it always forwards to `raw`. */
export function wrapEntryPoint(gate: Gate, shape: Shape, seat: Seat, raw: AnyFunction): AnyFunction {
  return makeWrapper({ gate, shape, seat, slot: { raw, active: 0 } })
}
