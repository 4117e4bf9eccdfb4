/**
 * Finds every wallet a page can reach, the moment it appears: `window.ethereum` (and `window.coinbaseWalletExtension`,
 * where Coinbase's SDK and wagmi's Coinbase target look first, and the wallets' own globals such as `window.okxwallet`
 * or `window.phantom.ethereum`) set before the hook, assigned after it
 * (through the hook's accessor), or defined over it with Object.defineProperty (the hook wraps the three define
 * functions, so a wallet that defines itself after the hook is hooked before the call returns, even in an about:blank
 * frame the page reaches synchronously); EIP-6963 announcements (the hook listens first); and a last check just before
 * the page's first script runs (a MutationObserver callback runs at that microtask checkpoint).
 */
import {
  addListener,
  apply,
  bare,
  construct,
  customEventDetail,
  defineProperty,
  dispatch,
  doc,
  enqueueMicrotask,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  mutationDisconnect,
  mutationObserve,
  newCustomEvent,
  newEvent,
  newMutationObserver,
  newWeakMap,
  objectFreeze,
  originalObjectDefineProperties,
  originalObjectDefineProperty,
  originalReflectDefineProperty,
  ownKeys,
  ownValue,
  ProxyConstructor,
  reflectGet,
  stopImmediatePropagation,
  weakMapGet,
  weakMapSet,
  win,
} from './intrinsics.ts'
import type { Patcher } from './patchProvider.ts'
import { globals as walletGlobals } from './walletGlobals.json'

type Register = Patcher['register']
type AnyFunction = (...args: unknown[]) => unknown

/** A property a wallet may be published at: whether its provider sits there, and the properties inside it to watch. */
type Watched = { provider: boolean; inner: Record<string, Watched> }

/**
 * The globals to watch, as a tree from window: `ethereum`, and the wallets' own names in walletGlobals.json
 * (`okxwallet`, `phantom.ethereum`, ...), which dapps and wallet-specific connectors call directly; among them
 * `coinbaseWalletExtension`, which Coinbase's wallet SDK and wagmi's Coinbase target call instead of window.ethereum
 * whenever it is set (the Coinbase extension sets it also when another wallet holds window.ethereum).
 */
function watchedGlobals(): Record<string, Watched> {
  const top = bare<Record<string, Watched>>()
  const add = (path: readonly string[]) => {
    let level = top
    for (let index = 0; index < path.length; index++) {
      const key = path[index] as string
      const node = level[key] ?? { __proto__: null, provider: false, inner: bare<Record<string, Watched>>() }
      level[key] = node
      if (index === path.length - 1) node.provider = true
      level = node.inner
    }
  }
  add(['ethereum'])
  for (let index = 0; index < walletGlobals.length; index++) add((walletGlobals[index] as { path: string[] }).path)
  return top
}

/**
 * Keeps the wallets published on `window` hooked, at every path of watchedGlobals: a container (`window.phantom`) is
 * watched as a provider is, and the provider inside it is hooked whenever the container is found or replaced. `all`
 * checks every path; `one` checks the property `key` of `target` and says whether it is one of them (window's, or a
 * container's).
 */
export function watchWindowProviders(register: Register): {
  all(): void
  one(target: unknown, key: PropertyKey): boolean
} {
  const globals = watchedGlobals()
  /** Each watched object's checks by key: window's, and those of the containers found on the way. */
  const checksOf = newWeakMap<object, Record<string, () => void>>()
  /** Watches (or checks again) the properties `level` names on `host`. */
  const watchIn = (host: object, level: Record<string, Watched>) => {
    let checks = weakMapGet(checksOf, host) as Record<string, () => void> | undefined
    if (!checks) {
      checks = bare<Record<string, () => void>>()
      weakMapSet(checksOf, host, checks)
    }
    const keys = ownKeys(level)
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string
      const check = checks[key]
      if (check) check()
      else checks[key] = watchProperty(host, key, found(level[key] as Watched))
    }
  }
  /** What to do with the value at a watched property: hook it if a provider sits there, and watch inside it. */
  const found =
    (node: Watched) =>
    (value: unknown): unknown => {
      const usable = node.provider ? register(value) : value
      if (usable === null || (typeof usable !== 'object' && typeof usable !== 'function')) return usable
      if (ownKeys(node.inner).length === 0) return usable
      const fresh = !weakMapGet(checksOf, usable)
      watchIn(usable, node.inner)
      // A wallet that publishes its container first and fills it in after, in the same script: look once that has run.
      if (fresh) enqueueMicrotask(() => watchIn(usable, node.inner))
      return usable
    }
  watchIn(win, globals)
  return {
    all: () => watchIn(win, globals),
    one(target, key) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return false
      if (typeof key !== 'string') return false
      const checks = weakMapGet(checksOf, target) as Record<string, () => void> | undefined
      const check = checks ? checks[key] : undefined
      if (!check) return false
      check()
      return true
    },
  }
}

/**
 * Keeps the value at `host[key]` hooked (`seen` hooks it and returns what to expose). On window the hook's
 * configurable accessor catches assignments (other wallets can still redefine the property, as they expect to), and a
 * redefinition is caught by the returned check at once. On a wallet's container (`window.phantom`) nothing is added
 * while the key is missing: a key it does not have may be one its wallet or the page tests for.
 */
function watchProperty(host: object, key: string, seen: (value: unknown) => unknown): () => void {
  let value: unknown
  // Until something is put there, window's named lookups still answer (an element with that id), as without the hook.
  const ourGet =
    host === win
      ? () => (value === undefined ? reflectGet(getPrototypeOf(win) as object, key, win) : value)
      : () => value
  const ourSet = (next: unknown) => {
    value = seen(next)
  }
  const install = (initial: unknown, enumerable: boolean) => {
    value = seen(initial)
    defineProperty(host, key, {
      __proto__: null,
      get: ourGet,
      set: ourSet,
      configurable: true,
      enumerable,
    } as PropertyDescriptor)
  }
  /** Reads whatever host[key] is now (once) and hooks it; takes the property back when it can. */
  const look = () => {
    const descriptor = getOwnPropertyDescriptor(host, key)
    if (!descriptor) {
      if (host === win) return install(undefined, true)
      return void seen(reflectGet(host, key))
    }
    if (hasOwn(descriptor, 'get') && descriptor.get === ourGet) return void seen(value)
    const current = hasOwn(descriptor, 'value')
      ? descriptor.value
      : descriptor.get
        ? apply(descriptor.get, host, [])
        : undefined
    const usable = seen(current)
    if (usable === current) return
    // A stand-in is needed (a frozen provider): expose it where the property allows.
    if (descriptor.configurable) install(current, descriptor.enumerable === true)
    else if (hasOwn(descriptor, 'value') && descriptor.writable) {
      defineProperty(host, key, { __proto__: null, value: usable } as PropertyDescriptor)
    }
  }
  const check = () => {
    try {
      look()
    } catch {
      // A getter that throws there (the page's, or a wallet's not ready yet) has nothing to hook now, and must neither
      // fail the definition that made the hook look nor keep the other paths unchecked; a later check reads it again.
    }
  }
  check()
  return check
}

/**
 * Wraps Object.defineProperty, Object.defineProperties and Reflect.defineProperty so that a definition of a property
 * wallets publish themselves under, on window or inside a wallet's container (`onWatched` checks it and says whether it
 * is one), or of an entry point on a held wallet, is hooked before the call returns. Everything else is the original behaviour, with the same
 * receiver, arguments and result. Each stand-in is a Proxy of the original, so its name, length and `[native code]`
 * text stay those of the builtin (pages and polyfills sniff them).
 */
export function watchDefinitions(
  onWatched: (target: unknown, key: PropertyKey) => boolean,
  redefined: Patcher['redefined'],
): void {
  const after = (target: unknown, key: PropertyKey) => {
    if (onWatched(target, key)) return
    if (target !== null && typeof target === 'object') redefined(target, key)
  }
  /** A stand-in for `original` that runs it, then `notice` with its arguments and result. */
  const observe = (original: object, notice: (args: unknown[], result: unknown) => void) =>
    construct(ProxyConstructor, [
      original,
      {
        __proto__: null,
        apply(target: AnyFunction, self: unknown, args: unknown[]) {
          const result = apply(target, self, args)
          notice(args, result)
          return result
        },
      },
    ])
  const install = (host: object, key: string, value: unknown) =>
    defineProperty(host, key, {
      __proto__: null,
      value,
      writable: true,
      enumerable: false,
      configurable: true,
    } as PropertyDescriptor)
  install(
    Object,
    'defineProperty',
    observe(originalObjectDefineProperty, (args) => after(args[0], args[1] as PropertyKey)),
  )
  install(
    Object,
    'defineProperties',
    observe(originalObjectDefineProperties, (args) => {
      const keys = ownKeys(args[1] as object)
      for (let index = 0; index < keys.length; index++) after(args[0], keys[index] as PropertyKey)
    }),
  )
  install(
    Reflect,
    'defineProperty',
    observe(originalReflectDefineProperty, (args, result) => {
      if (result) after(args[0], args[1] as PropertyKey)
    }),
  )
}

/**
 * Runs `check` once just before the page's first script: the parser inserts the script element, and the microtask
 * checkpoint that precedes running it delivers this observer's records first. `onPageStart` then marks the moment
 * after which a wallet that appears counts as late.
 */
export function beforePageScripts(check: () => void, onPageStart: () => void): void {
  const observer = newMutationObserver(() => {
    mutationDisconnect(observer)
    check()
    onPageStart()
  })
  mutationObserve(observer, doc, { __proto__: null, childList: true, subtree: true } as MutationObserverInit)
  const recheck = () => check()
  addListener(win, 'ethereum#initialized', recheck, true)
  addListener(win, 'DOMContentLoaded', recheck, true)
  addListener(win, 'load', recheck, true)
}

const ANNOUNCE = 'eip6963:announceProvider'

/**
 * Hooks providers announced through EIP-6963 before the dapp's listeners see them (the hook listens first, in the
 * capture phase). The provider object itself is patched; one that cannot be patched is announced again as its
 * stand-in, in a new frozen detail, and the original announcement is stopped.
 */
export function watchEip6963(register: Register): void {
  addListener(
    win,
    ANNOUNCE,
    (event) => {
      let detail: unknown
      try {
        detail = customEventDetail(event)
      } catch {
        return
      }
      const provider = ownValue(detail, 'provider')
      if (provider === null || typeof provider !== 'object') return
      const info = ownValue(detail, 'info')
      const name = ownValue(info, 'name')
      const rdns = ownValue(info, 'rdns')
      const label = typeof name === 'string' && name ? name : typeof rdns === 'string' && rdns ? rdns : undefined
      const usable = register(provider, label)
      if (usable === provider) return
      stopImmediatePropagation(event)
      dispatch(win, newCustomEvent(ANNOUNCE, objectFreeze({ info, provider: usable })))
    },
    true,
  )
  // Wallets that announced before the hook ran answer this again.
  dispatch(win, newEvent('eip6963:requestProvider'))
}
