/**
 * The wallets the hook holds: each provider it found, its stand-in when the provider could not be patched, and the
 * wallet's internal objects (a JSON-RPC engine) whose entry points were patched too. A call's account and chain are
 * asked of the wallet the hook holds for it, through the wallet's own original `request`, never of the `this` the page
 * chose.
 */
import { WALLET_ANSWER_TIMEOUT_MS, type WalletInfo } from '../relay/protocol.ts'
import { append, apply, isArray, later, newWeakMap, promiseThen, weakMapGet, weakMapSet } from './intrinsics.ts'
import { readField } from './snapshot.ts'

type AnyFunction = (...args: unknown[]) => unknown

export type Held = {
  /** The wallet's own provider object (never a stand-in). */
  provider: object
  info: WalletInfo
  /**
   * The wallet's `request` and `sendAsync` as they were when the hook first held it, for asking its accounts and chain:
   * the page can assign new ones later (the wrappers must forward to them), but must not answer for the wallet.
   */
  askVia: { request: unknown; sendAsync: unknown }
}

/** The functions askWallet uses for `provider`, read now: call before anything else gets a chance to replace them. */
export function askFunctions(provider: object): Held['askVia'] {
  try {
    return {
      request: originalOf(readField(provider, 'request')),
      sendAsync: originalOf(readField(provider, 'sendAsync')),
    }
  } catch {
    return { request: undefined, sendAsync: undefined }
  }
}

const byObject = newWeakMap<object, Held>()
/** Each wrapper the hook made, mapped to the function it stands for. */
const originals = newWeakMap<AnyFunction, { raw: AnyFunction }>()

/** The held wallet a provider, its stand-in or one of its internal objects belongs to. */
export function heldFor(target: unknown): Held | undefined {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined
  return weakMapGet(byObject, target as object) as Held | undefined
}

/** Records that `target` (a provider, a stand-in or an internal object) belongs to `held`. */
export function holdAs(target: object, held: Held): void {
  weakMapSet(byObject, target, held)
}

/** The held objects (providers, engines) inheriting each prototype the hook patched: who a seat there can stand for. */
const heirs = newWeakMap<object, object[]>()

/** Records that `target`, held, inherits the entry points patched on `prototype`. */
export function recordHeir(prototype: object, target: object): void {
  let list = weakMapGet(heirs, prototype) as object[] | undefined
  if (!list) {
    list = []
    weakMapSet(heirs, prototype, list)
  }
  for (let index = 0; index < list.length; index++) if (list[index] === target) return
  append(list, target)
}

/** The held objects inheriting `prototype`'s entry points. */
export function heirsOf(prototype: object): readonly object[] {
  return (weakMapGet(heirs, prototype) as object[] | undefined) ?? []
}

/** Records a wrapper and the function behind it. */
export function recordWrapper(wrapper: AnyFunction, slot: { raw: AnyFunction }): void {
  weakMapSet(originals, wrapper, slot)
}

/** True for a function the hook made. */
export function isWrapper(value: unknown): boolean {
  return typeof value === 'function' && weakMapGet(originals, value as AnyFunction) !== undefined
}

/** The wallet's own function behind `value` (itself when it is not one of the hook's wrappers). */
function originalOf(value: unknown): AnyFunction | undefined {
  if (typeof value !== 'function') return undefined
  const slot = weakMapGet(originals, value as AnyFunction) as { raw: AnyFunction } | undefined
  return slot ? slot.raw : (value as AnyFunction)
}

/**
 * Asks the held wallet a read-only question (eth_accounts, eth_chainId) through the `request` (or `sendAsync`) it had
 * when the hook first held it, and calls `done` once with the answer, or undefined when it fails, takes too long or is
 * no answer to the question (a list of accounts, a chain id as text or a number).
 */
export function askWallet(held: Held, method: 'eth_accounts' | 'eth_chainId', done: (value: unknown) => void): void {
  let answered = false
  const answer = (value: unknown) => {
    if (answered) return
    answered = true
    done(answers(method, value) ? value : undefined)
  }
  later(() => answer(undefined), WALLET_ANSWER_TIMEOUT_MS)
  const fail = () => answer(undefined)
  try {
    const { request, sendAsync } = held.askVia
    if (typeof request === 'function') {
      settleWith(apply(request, held.provider, [{ method, params: [] }]), answer, fail)
      return
    }
    if (typeof sendAsync !== 'function') {
      fail()
      return
    }
    apply(sendAsync, held.provider, [
      { jsonrpc: '2.0', id: 1, method, params: [] },
      (error: unknown, response: unknown) => (error ? fail() : answer(readField(response, 'result'))),
    ])
  } catch {
    fail()
  }
}

/**
 * Reads a wallet's answer: a native promise through the captured `then`, a plain value as it is. Another thenable (a
 * Promise polyfill's, as zone.js makes `window.Promise`) answers whatever the page's class says, so it is no answer:
 * the page would choose the account and the chain the window shows.
 */
function settleWith(result: unknown, answer: (value: unknown) => void, fail: () => void): void {
  if (result === null || typeof result !== 'object' || isArray(result)) {
    answer(result)
    return
  }
  try {
    promiseThen(result, answer, fail)
  } catch {
    fail()
  }
}

/** Whether `value` has the form of an answer to `method`: a list for eth_accounts, a text or number for eth_chainId. */
function answers(method: 'eth_accounts' | 'eth_chainId', value: unknown): boolean {
  if (method === 'eth_accounts') return isArray(value)
  return typeof value === 'string' || typeof value === 'number'
}
