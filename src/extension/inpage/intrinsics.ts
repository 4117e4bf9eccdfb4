/**
 * Every builtin the MAIN-world hook uses, captured when the hook starts (document_start, before any page script) and
 * called through `Reflect.apply` so a page that later replaces a prototype method, a global or a getter changes
 * nothing the hook decides with. Hook code must use only these, primitive operators, object/array literals (define
 * semantics) and try/catch: no method calls on builtins, no iteration protocols (for…of, spreads, array
 * destructuring), no `await` or `.then` on promises, no `instanceof`, no regular expressions, no assignment of dynamic
 * keys on ordinary objects (a setter on Object.prototype would catch it), and no ordinary object handed to a builtin
 * that reads optional fields from it (property descriptors, event and observer options): those get a null prototype,
 * or a getter the page put on Object.prototype would answer for the missing fields. This module must be the first the
 * hook's entry imports.
 */

type AnyFunction = (...args: never[]) => unknown

const R = Reflect
const O = Object

export const apply = R.apply
export const reflectGet = R.get
export const reflectSet = R.set
export const reflectHas = R.has
export const construct = R.construct
export const ownKeys = R.ownKeys
export const getOwnPropertyDescriptor = R.getOwnPropertyDescriptor
export const defineProperty = R.defineProperty
export const deleteProperty = R.deleteProperty
export const getPrototypeOf = R.getPrototypeOf
export const hasOwn = O.hasOwn as (target: object, key: PropertyKey) => boolean
export const objectCreate = O.create
export const objectFreeze = O.freeze
export const isArray = Array.isArray
export const ProxyConstructor = Proxy
export const ErrorConstructor = Error
export const PromiseConstructor = Promise
export const PromisePrototype = Promise.prototype
export const ObjectPrototype = O.prototype
export const ArrayPrototype = Array.prototype
export const FunctionPrototype = Function.prototype
export const StringPrototype = String.prototype
export const NumberPrototype = Number.prototype
export const BooleanPrototype = Boolean.prototype
export const BigIntPrototype = BigInt.prototype
export const SymbolPrototype = Symbol.prototype

/** The original `Object.defineProperty` family, which the hook wraps so a wallet defining itself later is seen at once. */
export const originalObjectDefineProperty = O.defineProperty
export const originalObjectDefineProperties = O.defineProperties
export const originalReflectDefineProperty = R.defineProperty

/** Turns a prototype method into a plain function taking its receiver first: `uncurry(Map.prototype.get)(map, key)`. */
function uncurry<F extends AnyFunction>(method: F): (self: unknown, ...args: Parameters<F>) => ReturnType<F> {
  return (self, ...args) => apply(method, self, args) as ReturnType<F>
}

/** The getter of an accessor property, captured now, as a function of the receiver. */
function getterOf(prototype: object, key: PropertyKey): (self: unknown) => unknown {
  const get = getOwnPropertyDescriptor(prototype, key)?.get
  if (!get) throw new ErrorConstructor(`Preflight: no getter ${String(key)}`)
  return (self) => apply(get, self, [])
}

export const promiseThen = uncurry(Promise.prototype.then) as (
  promise: unknown,
  onFulfilled: (value: unknown) => void,
  onRejected: (reason: unknown) => void,
) => unknown
export const stringToLowerCase = uncurry(String.prototype.toLowerCase)
export const stringToUpperCase = uncurry(String.prototype.toUpperCase)
export const stringCharCodeAt = uncurry(String.prototype.charCodeAt)
export const stringSlice = uncurry(String.prototype.slice)
export const jsonParse = JSON.parse
/** Runs `task` once the current script has run, with no promise (a page can make a promise's `then` call its code). */
export const enqueueMicrotask = queueMicrotask
export const weakMapGet = uncurry(WeakMap.prototype.get) as (map: WeakMap<object, unknown>, key: object) => unknown
export const weakMapSet = uncurry(WeakMap.prototype.set) as (
  map: WeakMap<object, unknown>,
  key: object,
  v: unknown,
) => void
export const weakSetAdd = uncurry(WeakSet.prototype.add) as (set: WeakSet<object>, value: object) => void
export const weakSetHas = uncurry(WeakSet.prototype.has) as (set: WeakSet<object>, value: object) => boolean
export const newWeakMap = <K extends object, V>(): WeakMap<K, V> => construct(WeakMap, []) as WeakMap<K, V>
export const newWeakSet = <T extends object>(): WeakSet<T> => construct(WeakSet, []) as WeakSet<T>

export const portPostMessage = uncurry(MessagePort.prototype.postMessage) as (port: MessagePort, data: unknown) => void
export const portStart = uncurry(MessagePort.prototype.start)
export const addListener = uncurry(EventTarget.prototype.addEventListener) as (
  target: EventTarget,
  type: string,
  listener: (event: Event) => void,
  options?: boolean | AddEventListenerOptions,
) => void
export const removeListener = uncurry(EventTarget.prototype.removeEventListener) as (
  target: EventTarget,
  type: string,
  listener: (event: Event) => void,
  options?: boolean,
) => void
export const dispatch = uncurry(EventTarget.prototype.dispatchEvent) as (target: EventTarget, event: Event) => boolean
export const preventDefault = uncurry(Event.prototype.preventDefault)
export const stopImmediatePropagation = uncurry(Event.prototype.stopImmediatePropagation)
export const messageEventData = getterOf(MessageEvent.prototype, 'data')
export const messageEventPorts = getterOf(MessageEvent.prototype, 'ports') as (event: Event) => readonly MessagePort[]
export const customEventDetail = getterOf(CustomEvent.prototype, 'detail')
export const newEvent = (type: string): Event => construct(Event, [type]) as Event
export const newCustomEvent = (type: string, detail: unknown): Event =>
  construct(CustomEvent, [type, { __proto__: null, detail }]) as Event

export const mutationObserve = uncurry(MutationObserver.prototype.observe) as (
  observer: MutationObserver,
  target: Node,
  options: MutationObserverInit,
) => void
export const mutationDisconnect = uncurry(MutationObserver.prototype.disconnect)
export const newMutationObserver = (callback: () => void): MutationObserver =>
  construct(MutationObserver, [callback]) as MutationObserver

/** The window and document of this frame, as they are now (a page cannot swap the global object). */
export const win = window
export const doc = document
const timeout = setTimeout
export const later = (callback: () => void, ms: number): void => void apply(timeout, win, [callback, ms])

/** A new object with no prototype: lookups of missing keys cannot reach a getter the page put on Object.prototype. */
export const bare = <T extends object>(): T => objectCreate(null) as T

/** Sets an own data property with define semantics (no setter anywhere on the prototype chain is consulted). */
export function put(target: object, key: PropertyKey, value: unknown): void {
  defineProperty(target, key, {
    __proto__: null,
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  } as PropertyDescriptor)
}

/** An own data property's value, or undefined: never runs a getter, never reads the prototype chain. */
export function ownValue(target: unknown, key: PropertyKey): unknown {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined
  const descriptor = getOwnPropertyDescriptor(target as object, key)
  return descriptor && hasOwn(descriptor, 'value') ? descriptor.value : undefined
}

/** Appends to an array the hook owns, with define semantics. */
export function append<T>(list: T[], value: T): void {
  put(list, list.length, value)
}

/** An Error carrying an EIP-1193 code, built without consulting anything the page can replace. */
export function providerError(code: number, message: string): Error & { code: number } {
  const error = construct(ErrorConstructor, [message]) as Error & { code: number }
  put(error, 'code', code)
  return error
}
