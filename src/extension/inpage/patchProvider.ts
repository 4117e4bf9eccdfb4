/**
 * Patches an EIP-1193 provider's `request`, `send` and `sendAsync` so intercepted methods wait for the user's decision.
 * Every other call goes straight to the original function with the same `this` and arguments, after one synchronous
 * method-name check. Patching is idempotent; a frozen provider is wrapped in a Proxy instead (the caller swaps it in).
 */
import { INTERCEPTED_METHODS, type ProviderError } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'

/** Resolves when the call may go to the wallet; rejects with the EIP-1193 error to give the dapp. */
export type Gate = (provider: object, method: InterceptedMethod, params: unknown) => Promise<void>

type AnyFunction = (...args: unknown[]) => unknown
type Payload = { id?: unknown; jsonrpc?: unknown; method?: unknown; params?: unknown }
type Callback = (error: unknown, response?: unknown) => void

const intercepted = new Set<unknown>(INTERCEPTED_METHODS)
const isIntercepted = (method: unknown): method is InterceptedMethod => intercepted.has(method)
const METHODS = ['request', 'send', 'sendAsync'] as const
type MethodName = (typeof METHODS)[number]

/** Each provider seen, mapped to the object to use for it (itself, or its Proxy). */
const hooked = new WeakMap<object, object>()
const ourWrappers = new WeakSet<AnyFunction>()
const apply = Reflect.apply

/** The dapp sees an Error with the EIP-1193 code, as wallets throw. */
export function providerError({ code, message }: ProviderError): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}

/** A snapshot of what the dapp asked for, so changing its objects during the review cannot change what is signed. */
function snapshot<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

function wrap(name: MethodName, provider: object, original: AnyFunction, gate: Gate): AnyFunction {
  const target = (self: unknown) => (self && typeof self === 'object' ? self : provider)
  /** request(payload), and send/sendAsync(payload) without a callback (which some providers answer with a promise). */
  function promiseForm(self: unknown, method: InterceptedMethod, args: unknown[]): Promise<unknown> {
    const copy = snapshot(args[0]) as Payload
    return gate(target(self), method, copy.params).then(() => apply(original, self, [copy, ...args.slice(1)]))
  }
  function payloadForm(self: unknown, args: unknown[]): unknown {
    const [first, second] = args
    const method = (first as Payload | undefined)?.method
    if (!isIntercepted(method)) return apply(original, self, args)
    if (typeof second === 'function') return callbackForm(self, method, first as Payload, second as Callback)
    return promiseForm(self, method, args)
  }
  function callbackForm(self: unknown, method: InterceptedMethod, payload: Payload, callback: Callback): void {
    const copy = snapshot(payload)
    const fail = (error: Error & { code?: number }) =>
      callback(error, { id: copy.id, jsonrpc: '2.0', error: { code: error.code ?? -32603, message: error.message } })
    gate(target(self), method, copy.params).then(() => {
      // A wallet that throws instead of calling back must still answer the dapp, which is waiting on the callback.
      try {
        apply(original, self, [copy, callback])
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)))
      }
    }, fail)
  }
  const wrappers: Record<MethodName, AnyFunction> = {
    request(this: unknown, ...args: unknown[]) {
      const method = (args[0] as Payload | undefined)?.method
      if (!isIntercepted(method)) return apply(original, this, args)
      return promiseForm(this, method, args)
    },
    send(this: unknown, ...args: unknown[]) {
      const [first, second] = args
      if (typeof first !== 'string') return payloadForm(this, args)
      if (!isIntercepted(first)) return apply(original, this, args)
      const params = snapshot(second)
      return gate(target(this), first, params).then(() => apply(original, this, [first, params]))
    },
    sendAsync(this: unknown, ...args: unknown[]) {
      return payloadForm(this, args)
    },
  }
  const wrapper = wrappers[name]
  ourWrappers.add(wrapper)
  return wrapper
}

/** Puts the wrapper on the object as an accessor, so a wallet that reassigns the method later stays hooked. */
function patchInPlace(provider: Record<string, unknown>, name: MethodName, gate: Gate): boolean {
  const original = provider[name]
  if (typeof original !== 'function' || ourWrappers.has(original as AnyFunction)) return true
  let current = original as AnyFunction
  let wrapper = wrap(name, provider, current, gate)
  const own = Object.getOwnPropertyDescriptor(provider, name)
  try {
    Object.defineProperty(provider, name, {
      configurable: true,
      enumerable: own?.enumerable ?? false,
      get: () => wrapper,
      set(value: unknown) {
        if (typeof value !== 'function' || ourWrappers.has(value as AnyFunction)) return
        current = value as AnyFunction
        wrapper = wrap(name, provider, current, gate)
      },
    })
    return true
  } catch {
    return false
  }
}

/** A stand-in for a provider that cannot be changed: our wrappers for the three methods, the rest forwarded. */
function proxyFor(provider: Record<string, unknown>, gate: Gate): object {
  const overrides = new Map<PropertyKey, AnyFunction>()
  for (const name of METHODS) {
    const original = provider[name]
    if (typeof original === 'function' && !ourWrappers.has(original as AnyFunction)) {
      overrides.set(name, wrap(name, provider, original as AnyFunction, gate))
    }
  }
  const proxy: object = new Proxy(Object.create(Object.getPrototypeOf(provider)), {
    get: (_, key) => overrides.get(key) ?? Reflect.get(provider, key, provider),
    set: (_, key, value) => Reflect.set(provider, key, value),
    has: (_, key) => Reflect.has(provider, key),
    ownKeys: () => Reflect.ownKeys(provider),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(provider, key)
      if (!descriptor) return undefined
      const value = overrides.get(key)
      return { ...descriptor, ...(value && 'value' in descriptor ? { value } : {}), configurable: true }
    },
  })
  hooked.set(proxy, proxy)
  return proxy
}

/**
 * Hooks a provider once and returns the object to use: the provider itself, or a Proxy when it is frozen.
 * Its `providers[]` (several wallets behind one window.ethereum) are hooked too.
 */
export function patchProvider(candidate: unknown, gate: Gate): unknown {
  if (!candidate || (typeof candidate !== 'object' && typeof candidate !== 'function')) return candidate
  const provider = candidate as Record<string, unknown>
  let result = hooked.get(provider)
  if (!result) {
    const inPlace = METHODS.map((name) => patchInPlace(provider, name, gate)).every(Boolean)
    result = inPlace ? provider : proxyFor(provider, gate)
    hooked.set(provider, result)
  }
  const nested = provider.providers
  if (Array.isArray(nested)) {
    nested.forEach((inner, index) => {
      const usable = patchProvider(inner, gate)
      if (usable !== inner && !Object.isFrozen(nested)) nested[index] = usable
    })
  }
  return result
}
