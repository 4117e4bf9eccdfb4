/**
 * Hooks a wallet provider where its methods live: its own properties, every prototype up its chain, its internal
 * JSON-RPC engine (`_rpcEngine.handle`), and the wallets in its `providers[]`, which are hooked as they are read.
 * Entry points become accessors, so a wallet that assigns a new function later stays hooked (the new function gets a
 * wrapper of its own). A provider that cannot be patched (frozen) is replaced by a stand-in Proxy that answers with the
 * hook's wrappers; where it is reachable without the stand-in, docs/threat-model.md says so.
 */

import { type Seat, type Shape, wrapEntryPoint } from './entryPoints.ts'
import type { Gate } from './gate.ts'
import {
  apply,
  bare,
  construct,
  defineProperty,
  deleteProperty,
  enqueueMicrotask,
  FunctionPrototype,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isArray,
  newWeakMap,
  newWeakSet,
  ObjectPrototype,
  objectCreate,
  ownKeys,
  ProxyConstructor,
  put,
  reflectGet,
  reflectHas,
  reflectSet,
  weakMapGet,
  weakMapSet,
  weakSetAdd,
  weakSetHas,
} from './intrinsics.ts'
import { readField } from './snapshot.ts'
import { askFunctions, type Held, heldFor, holdAs, isWrapper, recordHeir } from './wallets.ts'

type AnyFunction = (...args: unknown[]) => unknown

type Entry = readonly [name: string, shape: Shape]

/** A provider's entry points and how each takes a call. */
const PROVIDER_ENTRIES: readonly Entry[] = [
  ['request', 'request'],
  ['send', 'send'],
  ['sendAsync', 'callback'],
  ['_rpcRequest', 'callback'],
]
/** MetaMask-style providers keep a JSON-RPC engine whose `handle` reaches the wallet's transport directly. */
const ENGINE_KEY = '_rpcEngine'
const ENGINE_ENTRIES: readonly Entry[] = [['handle', 'handle']]
/** A property descriptor's fields, read as own fields only (a missing one would be looked up on Object.prototype). */
const DESCRIPTOR_FIELDS = ['value', 'writable', 'get', 'set', 'enumerable', 'configurable'] as const
type DescriptorField = (typeof DESCRIPTOR_FIELDS)[number]
/** Prototype chains are short; this bounds the walk for an adversarial chain of Proxies. */
const MAX_PROTOTYPE_DEPTH = 8

/** Flags wallets set on their providers, in the order to trust them (many also set isMetaMask). */
const WALLET_FLAGS: readonly (readonly [string, string])[] = [
  ['isRabby', 'Rabby'],
  ['isCoinbaseWallet', 'Coinbase Wallet'],
  ['isBraveWallet', 'Brave Wallet'],
  ['isTrust', 'Trust Wallet'],
  ['isPhantom', 'Phantom'],
  ['isOkxWallet', 'OKX Wallet'],
  ['isFrame', 'Frame'],
  ['isMetaMask', 'MetaMask (or a wallet that says it is)'],
]

/** A name for a provider not announced through EIP-6963 (display only: the page can set these flags too). */
function labelOf(provider: object): string {
  for (let index = 0; index < WALLET_FLAGS.length; index++) {
    const flag = WALLET_FLAGS[index] as readonly [string, string]
    if (readField(provider, flag[0]) === true) return flag[1]
  }
  return 'window.ethereum'
}

export type Patcher = {
  /** Hooks a provider once and returns the object to expose for it (itself, or its stand-in). */
  register(candidate: unknown, label?: string): unknown
  /** Re-hooks a held object after a property of it was (re)defined: a new entry point, engine or providers list. */
  redefined(target: object, key: PropertyKey): void
}

type Outcome = 'patched' | 'absent' | 'failed'

/** Creates the patcher; `isLate` says whether the page's own scripts have started (for WalletInfo.late). */
export function createPatcher(gate: Gate, isLate: () => boolean): Patcher {
  /** Getters the hook installed, to tell its accessors from a wallet's. */
  const ourGetters = newWeakSet<AnyFunction>()
  const standIns = newWeakMap<object, object>()
  /** Engines whose entry points the hook replaced in place: the page may see them as they are. */
  const hookedEngines = newWeakSet<object>()
  const providerViews = newWeakMap<object, object>()
  const entryNames = bare<Record<string, true>>()
  for (let index = 0; index < PROVIDER_ENTRIES.length; index++) entryNames[(PROVIDER_ENTRIES[index] as Entry)[0]] = true
  for (let index = 0; index < ENGINE_ENTRIES.length; index++) entryNames[(ENGINE_ENTRIES[index] as Entry)[0]] = true

  /** Replaces `target[name]` by an accessor answering with the hook's wrapper; the wallet can still reassign it. */
  function patchSlot(target: object, name: string, shape: Shape, seat: Seat): Outcome {
    const descriptor = getOwnPropertyDescriptor(target, name)
    if (!descriptor) return 'absent'
    let current: unknown
    if (hasOwn(descriptor, 'value')) current = descriptor.value
    else {
      const get = descriptor.get
      if (get && weakSetHas(ourGetters, get)) return 'patched'
      current = get ? apply(get, target, []) : undefined
    }
    if (typeof current !== 'function' || isWrapper(current)) return typeof current === 'function' ? 'patched' : 'absent'
    const wrapper = wrapEntryPoint(gate, shape, seat, current as AnyFunction)
    let exposed: unknown = wrapper
    const get = () => exposed
    weakSetAdd(ourGetters, get)
    // A function assigned later gets a wrapper of its own; the earlier wrapper still forwards to the function it
    // stood for. A dapp that wraps `request` by assignment and calls the one it read reaches the wallet, not itself.
    const set = function (this: unknown, value: unknown) {
      // Assigned to an object that inherits the entry point, the function becomes that object's own, as it would
      // without the hook; the prototype's entry point, which its other objects use, stays the one it was.
      if (seat.onPrototype && this !== target) {
        if (this === null || (typeof this !== 'object' && typeof this !== 'function')) return
        put(this, name, value)
        if (heldFor(this)) patchSlot(this, name, shape, { owner: this, onPrototype: false })
        return
      }
      exposed =
        typeof value === 'function' && !isWrapper(value)
          ? wrapEntryPoint(gate, shape, seat, value as AnyFunction)
          : value
    }
    const accessor = { __proto__: null, get, set, configurable: true, enumerable: descriptor.enumerable }
    if (defineProperty(target, name, accessor as PropertyDescriptor)) return 'patched'
    // A non-configurable but writable method can still hold the wrapper as its value.
    if (hasOwn(descriptor, 'value') && descriptor.writable) {
      const value = { __proto__: null, value: wrapper }
      if (defineProperty(target, name, value as PropertyDescriptor)) return 'patched'
    }
    return 'failed'
  }

  /**
   * Patches `entries` on `target` itself (as the wallet's own seat) and on each prototype up its chain; false when one
   * could not be replaced anywhere (a frozen object, or a class prototype frozen as `harden()` freezes it).
   */
  function patchWhereTheyLive(target: object, entries: readonly Entry[]): boolean {
    let patched = true
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index] as Entry
      if (patchSlot(target, entry[0], entry[1], { owner: target, onPrototype: false }) === 'failed') patched = false
    }
    let prototype = getPrototypeOf(target)
    for (let depth = 0; depth < MAX_PROTOTYPE_DEPTH; depth++) {
      if (!prototype || prototype === ObjectPrototype || prototype === FunctionPrototype) break
      recordHeir(prototype, target)
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index] as Entry
        if (patchSlot(prototype, entry[0], entry[1], { owner: prototype, onPrototype: true }) === 'failed')
          patched = false
      }
      prototype = getPrototypeOf(prototype)
    }
    return patched
  }

  /**
   * The wallet's own function for `name`, where the first object up `provider`'s chain that has the name holds it as
   * a plain value (not already the hook's); undefined where the hook's accessor or wrapper already answers for it.
   */
  function unpatchedEntry(provider: object, name: string): AnyFunction | undefined {
    let holder: object | null = provider
    for (let depth = 0; holder && depth <= MAX_PROTOTYPE_DEPTH; depth++) {
      const descriptor = getOwnPropertyDescriptor(holder, name)
      if (descriptor) {
        const value = hasOwn(descriptor, 'value') ? descriptor.value : undefined
        return typeof value === 'function' && !isWrapper(value) ? (value as AnyFunction) : undefined
      }
      holder = getPrototypeOf(holder)
    }
    return undefined
  }

  /** Hooks an engine; one whose `handle` cannot be replaced (a frozen engine) is seen through a stand-in. */
  function patchEngine(engine: unknown, held: Held): void {
    if (engine === null || typeof engine !== 'object') return
    holdAs(engine, held)
    if (patchWhereTheyLive(engine, ENGINE_ENTRIES)) weakSetAdd(hookedEngines, engine)
  }

  /** The engine as the page may see it: itself when hooked (or no engine), else its stand-in, made once. */
  function engineSeen(engine: unknown): unknown {
    if (engine === null || typeof engine !== 'object' || weakSetHas(hookedEngines, engine)) return engine
    let standIn = weakMapGet(standIns, engine) as object | undefined
    if (!standIn) {
      standIn = standInFor(engine as Record<string, unknown>, ENGINE_ENTRIES)
      weakMapSet(standIns, engine, standIn)
    }
    return standIn
  }

  /** Hooks the provider's engine, now and whenever the wallet assigns a new one. */
  /**
   * Hooks the provider's engine, now and whenever the wallet assigns a new one; false when the page would still read an
   * engine it could call around the hook (a frozen one in a slot that cannot become an accessor): the provider then
   * needs a stand-in, which shows the engine's.
   */
  function hookEngine(provider: object, held: Held): boolean {
    const descriptor = getOwnPropertyDescriptor(provider, ENGINE_KEY)
    if (!descriptor) return true
    if (!hasOwn(descriptor, 'value')) {
      if (!descriptor.get || weakSetHas(ourGetters, descriptor.get)) return true
      const engine = apply(descriptor.get, provider, [])
      patchEngine(engine, held)
      return engineSeen(engine) === engine
    }
    let engine = descriptor.value
    patchEngine(engine, held)
    if (!descriptor.configurable) return engineSeen(engine) === engine
    const get = () => engineSeen(engine)
    weakSetAdd(ourGetters, get)
    const set = (value: unknown) => {
      engine = value
      patchEngine(value, held)
    }
    return defineProperty(provider, ENGINE_KEY, {
      __proto__: null,
      get,
      set,
      configurable: true,
      enumerable: descriptor.enumerable,
    } as PropertyDescriptor)
  }

  /** A view of a `providers` array that hooks each wallet as it is read, including wallets added later. */
  function viewOf(list: object): object {
    const known = weakMapGet(providerViews, list) as object | undefined
    if (known) return known
    const hooked = (value: unknown) => (value !== null && typeof value === 'object' ? register(value) : value)
    /** A slot the list can never change, whose reads a Proxy must answer with what it holds. */
    const fixed = (target: object, key: PropertyKey) => {
      const descriptor = getOwnPropertyDescriptor(target, key)
      return !!descriptor && !descriptor.configurable && !descriptor.writable
    }
    const handler = {
      __proto__: null,
      get(target: object, key: PropertyKey) {
        const value = reflectGet(target, key)
        // register() hooks the wallet in place; only its stand-in needs the slot, where the list allows it.
        const usable = hooked(value)
        return usable !== value && fixed(target, key) ? value : usable
      },
      // A wallet joins the list through this view (push, splice, assignment): it is hooked as it goes in, since the
      // page may hold the array itself (it assigned it) and read the wallet from there, never through the view.
      set(target: object, key: PropertyKey, value: unknown, receiver: unknown) {
        if (receiver !== view) return reflectSet(target, key, value, receiver)
        return reflectSet(target, key, hooked(value))
      },
      defineProperty(target: object, key: PropertyKey, given: PropertyDescriptor) {
        const descriptor = bare<PropertyDescriptor>()
        for (let index = 0; index < DESCRIPTOR_FIELDS.length; index++) {
          const field = DESCRIPTOR_FIELDS[index] as DescriptorField
          if (hasOwn(given, field)) descriptor[field] = given[field]
        }
        if (hasOwn(descriptor, 'value')) descriptor.value = hooked(descriptor.value)
        return defineProperty(target, key, descriptor)
      },
      // Object.getOwnPropertyDescriptor(s) read a wallet without [[Get]].
      getOwnPropertyDescriptor(target: object, key: PropertyKey) {
        const descriptor = getOwnPropertyDescriptor(target, key)
        if (!descriptor) return undefined
        // Without a prototype: the engine reads the answer's fields, which must not reach Object.prototype's getters.
        const out = { __proto__: null, enumerable: descriptor.enumerable, configurable: descriptor.configurable }
        const answer = out as PropertyDescriptor
        if (!hasOwn(descriptor, 'value')) {
          answer.get = descriptor.get
          answer.set = descriptor.set
          return answer
        }
        const usable = hooked(descriptor.value)
        answer.value = !descriptor.configurable && !descriptor.writable ? descriptor.value : usable
        answer.writable = descriptor.writable
        return answer
      },
    }
    const view = construct(ProxyConstructor, [list, handler]) as object
    weakMapSet(providerViews, list, view)
    return view
  }

  /**
   * Hooks the wallets in `providers[]` now, and makes later reads of the list hook what it holds then. A provider
   * without the list gets an empty (undefined, non-enumerable) accessor for it, so a wallet that joins later by
   * assigning the list is seen at once.
   */
  function hookProviders(provider: object): void {
    const descriptor = getOwnPropertyDescriptor(provider, 'providers')
    if (descriptor && hasOwn(descriptor, 'get') && weakSetHas(ourGetters, descriptor.get as AnyFunction)) return
    if (descriptor && !hasOwn(descriptor, 'value')) {
      hookProvidersAccessor(provider, descriptor)
      return
    }
    if (descriptor && !descriptor.configurable) {
      if (isArray(descriptor.value)) registerAll(descriptor.value)
      return
    }
    let list: unknown = descriptor ? descriptor.value : undefined
    if (isArray(list)) registerAll(list)
    const get = () => (isArray(list) ? viewOf(list as object) : list)
    weakSetAdd(ourGetters, get)
    defineProperty(provider, 'providers', {
      __proto__: null,
      get,
      set: (value: unknown) => {
        list = value
      },
      configurable: true,
      enumerable: descriptor ? descriptor.enumerable : false,
    } as PropertyDescriptor)
  }

  /**
   * A wallet's own `providers` accessor: its list is hooked now and, when the accessor can be replaced, on every read
   * (the wallet's getter still answers; the hook only puts its view in front of the list).
   */
  function hookProvidersAccessor(provider: object, descriptor: PropertyDescriptor): void {
    const walletGet = descriptor.get
    const read = () => {
      try {
        return walletGet ? apply(walletGet, provider, []) : undefined
      } catch {
        // A getter that throws has no list to hook; the wallet's own reads see it throw as before.
        return undefined
      }
    }
    const list = read()
    if (isArray(list)) registerAll(list)
    if (!descriptor.configurable) return
    const get = () => {
      const current = read()
      return isArray(current) ? viewOf(current as object) : current
    }
    weakSetAdd(ourGetters, get)
    // A list assigned through the accessor is hooked before its setter sees it: a setter of the page's keeps it.
    const keep = descriptor.set
    const set = keep
      ? function (this: unknown, value: unknown) {
          if (isArray(value)) registerAll(value)
          apply(keep, this, [value])
        }
      : undefined
    defineProperty(provider, 'providers', {
      __proto__: null,
      get,
      set,
      configurable: true,
      enumerable: descriptor.enumerable,
    } as PropertyDescriptor)
  }

  /** Hooks every wallet in a providers list, putting a stand-in where one is needed. */
  function registerAll(list: unknown[]): void {
    const length = list.length
    for (let index = 0; index < length; index++) {
      const inner = list[index]
      const usable = register(inner)
      if (usable !== inner) reflectSet(list, index, usable)
    }
  }

  /**
   * A stand-in for a provider (or an engine, with its entries) whose entry points cannot all be replaced, on it or up
   * its chain: the hook's wrappers for those, the engine as engineSeen shows it, the rest forwarded.
   */
  function standInFor(provider: Record<string, unknown>, entries: readonly Entry[] = PROVIDER_ENTRIES): object {
    const overrides = bare<Record<PropertyKey, AnyFunction>>()
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index] as Entry
      const raw = unpatchedEntry(provider, entry[0])
      if (raw) overrides[entry[0]] = wrapEntryPoint(gate, entry[1], { owner: provider, onPrototype: false }, raw)
    }
    const handler = {
      __proto__: null,
      get: (_: object, key: PropertyKey) => {
        const override = typeof key === 'string' ? overrides[key] : undefined
        if (override) return override
        const value = reflectGet(provider, key, provider)
        return key === ENGINE_KEY ? engineSeen(value) : value
      },
      set: (_: object, key: PropertyKey, value: unknown) => reflectSet(provider, key, value),
      has: (_: object, key: PropertyKey) => reflectHas(provider, key),
      deleteProperty: (_: object, key: PropertyKey) => deleteProperty(provider, key),
      ownKeys: () => ownKeys(provider),
      getPrototypeOf: () => getPrototypeOf(provider),
      getOwnPropertyDescriptor: (_: object, key: PropertyKey) => {
        const descriptor = getOwnPropertyDescriptor(provider, key)
        if (!descriptor) return undefined
        const override = typeof key === 'string' ? overrides[key] : undefined
        const out = { __proto__: null, enumerable: descriptor.enumerable, configurable: true } as PropertyDescriptor
        if (hasOwn(descriptor, 'value')) {
          out.value = override ?? (key === ENGINE_KEY ? engineSeen(descriptor.value) : descriptor.value)
          out.writable = descriptor.writable
        } else {
          out.get = descriptor.get
          out.set = descriptor.set
        }
        return out
      },
    }
    return construct(ProxyConstructor, [objectCreate(getPrototypeOf(provider)), handler]) as object
  }

  /**
   * Patches the entry points a held wallet gained by plain assignment (`provider.request = fn`, `Object.assign`), which
   * makes no defineProperty call the hook could see, and asks a wallet held before it had a request through it.
   */
  function recheck(provider: object, held: Held): void {
    if (held.askVia.request === undefined && held.askVia.sendAsync === undefined) held.askVia = askFunctions(provider)
    patchWhereTheyLive(provider, PROVIDER_ENTRIES)
  }

  function register(candidate: unknown, label?: string): unknown {
    if (candidate === null || (typeof candidate !== 'object' && typeof candidate !== 'function')) return candidate
    const provider = candidate as Record<string, unknown>
    const known = heldFor(provider)
    if (known) {
      if (label && known.provider === provider) known.info.label = label
      const standIn = weakMapGet(standIns, provider) as object | undefined
      // Seen again (announced again, or found by the checks at DOMContentLoaded and load): what it gained since counts.
      if (!standIn && known.provider === provider) recheck(provider, known)
      return standIn ?? provider
    }
    const info = { label: label ?? labelOf(provider), late: isLate() }
    const held: Held = { provider, info, askVia: askFunctions(provider) }
    holdAs(provider, held)
    // A wallet that publishes its provider first and fills it in after, in the same script: look once that has run.
    enqueueMicrotask(() => recheck(provider, held))
    const patched = patchWhereTheyLive(provider, PROVIDER_ENTRIES)
    const engineHooked = hookEngine(provider, held)
    hookProviders(provider)
    if (patched && engineHooked) return provider
    const standIn = standInFor(provider)
    holdAs(standIn, held)
    weakMapSet(standIns, provider, standIn)
    return standIn
  }

  function redefined(target: object, key: PropertyKey): void {
    const held = heldFor(target)
    if (!held || typeof key !== 'string') return
    // A wallet held before it had a request (or sendAsync) is asked through the first one it defines.
    if (held.provider === target && held.askVia.request === undefined && held.askVia.sendAsync === undefined) {
      held.askVia = askFunctions(target)
    }
    if (key === ENGINE_KEY && held.provider === target) hookEngine(target, held)
    else if (key === 'providers' && held.provider === target) hookProviders(target)
    else if (entryNames[key]) patchWhereTheyLive(target, held.provider === target ? PROVIDER_ENTRIES : ENGINE_ENTRIES)
  }

  return { register, redefined }
}
