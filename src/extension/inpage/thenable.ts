/**
 * Waiting on what a wallet's `request` returned. Usually a native promise, read through the captured
 * `Promise.prototype.then`; but a page that loads zone.js (Angular) or another Promise polyfill replaces
 * `window.Promise`, and a wallet that builds its promise with the global one at call time then answers with a
 * thenable of that class. Such a thenable is adopted the way the language adopts one: its `then` read once and called
 * once, each of its callbacks effective once and only the first of them. What it answers is the wallet's answer as
 * the page's Promise delivers it, no more trusted than that: callers bound the wait and check the shape.
 */
import { apply, getPrototypeOf, isArray, PromisePrototype, promiseThen } from './intrinsics.ts'
import { readField } from './snapshot.ts'

/**
 * Calls `fulfilled` or `rejected` (at most one of them, at most once) when `value`, a native promise or another
 * thenable, settles; false, calling neither, when `value` is no thenable (a plain answer).
 */
export function whenSettled(
  value: unknown,
  fulfilled: (result: unknown) => void,
  rejected: (reason: unknown) => void,
): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || isArray(value)) return false
  let settled = false
  const settle = (callback: (argument: unknown) => void) => (argument: unknown) => {
    if (settled) return
    settled = true
    callback(argument)
  }
  const onFulfilled = settle(fulfilled)
  const onRejected = settle(rejected)
  try {
    promiseThen(value, onFulfilled, onRejected)
    return true
  } catch {
    // A promise of the wallet's realm whose `then` failed (the page made its species lookup throw) is not handed to
    // the page's `then`: only one the wallet built with another class is adopted.
    let native = true
    try {
      native = inheritsPromise(value)
    } catch {
      // A prototype chain that throws as it is walked is not adopted either.
    }
    if (native) {
      onRejected(undefined)
      return true
    }
  }
  let then: unknown
  try {
    then = readField(value, 'then')
  } catch {
    onRejected(undefined)
    return true
  }
  if (typeof then !== 'function') return false
  try {
    apply(then, value, [onFulfilled, onRejected])
  } catch (thrown) {
    onRejected(thrown)
  }
  return true
}

/** Whether `value` is, or inherits from, this realm's Promise.prototype (the walk is bounded: a Proxy can loop). */
function inheritsPromise(value: object): boolean {
  let current: object | null = value
  for (let depth = 0; current !== null && depth < 16; depth++) {
    if (current === PromisePrototype) return true
    current = getPrototypeOf(current)
  }
  return false
}
