/**
 * Copies of what the page hands the hook, each property read exactly once (a getter or a Proxy trap runs once and
 * its answer is what the copy holds), so nothing the page does later can make the hook and the wallet read different
 * things. Uses only captured intrinsics (see intrinsics.ts).
 */
import {
  append,
  apply,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isArray,
  ObjectPrototype,
  objectFreeze,
  ownKeys,
  put,
} from './intrinsics.ts'

/** Beyond these a request is refused: real requests are far smaller, and the copy must stay cheap for any input. */
const MAX_DEPTH = 48
const MAX_NODES = 100_000
const MAX_ARRAY = 50_000

export type Copy = { ok: true; value: unknown } | { ok: false; reason: string }

// Internal records below are ordinary objects: the hook reads only keys they always hold, never a missing one.
const failed = (reason: string): Copy => ({ ok: false, reason })
const copied = (value: unknown): Copy => ({ ok: true, value })

/** The value a descriptor holds, running its getter (once) when it is an accessor. */
function heldValue(target: object, descriptor: PropertyDescriptor): unknown {
  if (hasOwn(descriptor, 'value')) return descriptor.value
  const get = hasOwn(descriptor, 'get') ? descriptor.get : undefined
  return get ? apply(get, target, []) : undefined
}

/** Reads `key` once: an own data value, or its getter's answer. Inherited properties are not read. */
function readOwn(target: object, key: PropertyKey): { found: boolean; value: unknown } {
  const descriptor = getOwnPropertyDescriptor(target, key)
  if (!descriptor) return { found: false, value: undefined }
  return { found: true, value: heldValue(target, descriptor) }
}

/**
 * Reads `key` of a request object once, looking up the prototype chain as a normal read would but stopping before
 * Object.prototype (where a page would plant a getter for every object that lacks the key).
 */
export function readField(target: unknown, key: PropertyKey): unknown {
  let current: unknown = target
  for (let depth = 0; depth < 16; depth++) {
    if (current === null || (typeof current !== 'object' && typeof current !== 'function')) return undefined
    if (current === ObjectPrototype) return undefined
    const read = readOwn(current as object, key)
    if (read.found) return read.value
    current = getPrototypeOf(current as object)
  }
  return undefined
}

type Budget = { nodes: number }

function copyValue(value: unknown, depth: number, budget: Budget): Copy {
  budget.nodes++
  if (budget.nodes > MAX_NODES) return failed('the request is too large to check')
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return copied(value)
    case 'number':
      if (value - value !== 0) return failed('it holds a number that is not finite')
      return copied(value)
    case 'undefined':
      return copied(undefined)
    case 'function':
      return failed('it holds a function, which cannot be sent to a wallet')
    case 'symbol':
      return failed('it holds a symbol, which cannot be sent to a wallet')
  }
  if (value === null) return copied(null)
  if (depth >= MAX_DEPTH) return failed('it is nested too deeply (or refers to itself)')
  const source = value as object
  if (isArray(source)) {
    const length = readOwn(source, 'length').value
    if (typeof length !== 'number' || length > MAX_ARRAY) return failed('it holds an array that is too long')
    const list: unknown[] = []
    for (let index = 0; index < length; index++) {
      const item = copyValue(readOwn(source, index).value, depth + 1, budget)
      if (!item.ok) return item
      append(list, item.value === undefined ? null : item.value)
    }
    return copied(list)
  }
  const copy: Record<string, unknown> = {}
  const keys = ownKeys(source)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]
    if (typeof key !== 'string') continue
    const descriptor = getOwnPropertyDescriptor(source, key)
    if (!descriptor?.enumerable) continue
    const item = copyValue(heldValue(source, descriptor), depth + 1, budget)
    if (!item.ok) return item
    if (item.value !== undefined) put(copy, key, item.value)
  }
  return copied(copy)
}

/**
 * A detached deep copy of JSON-like data (objects, arrays, strings, finite numbers, booleans, null, bigints), or why
 * it cannot be made. The copy's objects are ordinary objects no one else holds.
 */
export function copyData(value: unknown): Copy {
  try {
    return copyValue(value, 0, { nodes: 0 })
  } catch {
    return failed('reading it threw an error')
  }
}

/**
 * A one-level copy of a JSON-RPC payload (every own enumerable property read once), so a payload passed on to the
 * wallet says to it exactly what the hook read. `method` and `params` are always own properties of the copy (undefined
 * when absent), so neither the hook nor the wallet can reach a getter on Object.prototype for them. Undefined when
 * reading it throws.
 */
export function copyPayload(payload: object): Record<string, unknown> | undefined {
  try {
    const copy: Record<string, unknown> = {}
    const keys = ownKeys(payload)
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]
      if (typeof key !== 'string') continue
      const descriptor = getOwnPropertyDescriptor(payload, key)
      if (!descriptor?.enumerable) continue
      put(copy, key, heldValue(payload, descriptor))
    }
    if (!hasOwn(copy, 'method')) put(copy, 'method', undefined)
    if (!hasOwn(copy, 'params')) put(copy, 'params', undefined)
    return copy
  } catch {
    return undefined
  }
}

/** Freezes data the hook built (plain objects and arrays), all the way down. */
export function freezeDeep<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  const keys = ownKeys(value as object)
  for (let index = 0; index < keys.length; index++) {
    const descriptor = getOwnPropertyDescriptor(value as object, keys[index] as PropertyKey)
    if (descriptor && hasOwn(descriptor, 'value')) freezeDeep(descriptor.value)
  }
  return objectFreeze(value)
}
