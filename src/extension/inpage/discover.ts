/**
 * Finds every wallet a page can reach, the moment it appears: `window.ethereum` (and `window.coinbaseWalletExtension`,
 * where Coinbase's SDK and wagmi's Coinbase target look first) set before the hook, assigned after it
 * (through the hook's accessor), or defined over it with Object.defineProperty (the hook wraps the three define
 * functions, so a wallet that defines itself after the hook is hooked before the call returns, even in an about:blank
 * frame the page reaches synchronously); EIP-6963 announcements (the hook listens first); and a last check just before
 * the page's first script runs (a MutationObserver callback runs at that microtask checkpoint).
 */
import {
  addListener,
  apply,
  construct,
  customEventDetail,
  defineProperty,
  dispatch,
  doc,
  getOwnPropertyDescriptor,
  hasOwn,
  mutationDisconnect,
  mutationObserve,
  newCustomEvent,
  newEvent,
  newMutationObserver,
  objectFreeze,
  originalObjectDefineProperties,
  originalObjectDefineProperty,
  originalReflectDefineProperty,
  ownKeys,
  ownValue,
  ProxyConstructor,
  stopImmediatePropagation,
  win,
} from './intrinsics.ts'
import type { Patcher } from './patchProvider.ts'

type Register = Patcher['register']
type AnyFunction = (...args: unknown[]) => unknown

/**
 * Keeps the wallets published on `window` hooked: `ethereum`, and `coinbaseWalletExtension`, which Coinbase's wallet SDK
 * and wagmi's Coinbase target call instead of window.ethereum whenever it is set (the Coinbase extension sets it also
 * when another wallet holds window.ethereum). `all` checks both; `one` checks the property `key` and says whether it
 * is one of them.
 */
export function watchWindowProviders(register: Register): { all(): void; one(key: PropertyKey): boolean } {
  const ethereum = watchWindowProperty(register, 'ethereum')
  const coinbase = watchWindowProperty(register, 'coinbaseWalletExtension')
  return {
    all() {
      ethereum()
      coinbase()
    },
    one(key) {
      if (key === 'ethereum') ethereum()
      else if (key === 'coinbaseWalletExtension') coinbase()
      else return false
      return true
    },
  }
}

/**
 * Keeps the wallet at `window[key]` hooked: the hook's configurable accessor catches assignments (other wallets can
 * still redefine the property, as they expect to), and a redefinition is caught by the returned check at once.
 */
function watchWindowProperty(register: Register, key: string): () => void {
  let value: unknown
  const ourGet = () => value
  const ourSet = (next: unknown) => {
    value = register(next)
  }
  const install = (initial: unknown, enumerable: boolean) => {
    value = register(initial)
    defineProperty(win, key, {
      __proto__: null,
      get: ourGet,
      set: ourSet,
      configurable: true,
      enumerable,
    } as PropertyDescriptor)
  }
  /** Reads whatever window[key] is now (once) and hooks it; takes the property back when it can. */
  const check = () => {
    const descriptor = getOwnPropertyDescriptor(win, key)
    if (!descriptor) return install(undefined, true)
    if (hasOwn(descriptor, 'get') && descriptor.get === ourGet) return void register(value)
    const current = hasOwn(descriptor, 'value')
      ? descriptor.value
      : descriptor.get
        ? apply(descriptor.get, win, [])
        : undefined
    const usable = register(current)
    if (usable === current) return
    // A stand-in is needed (a frozen provider): expose it where the property allows.
    if (descriptor.configurable) install(current, descriptor.enumerable === true)
    else if (hasOwn(descriptor, 'value') && descriptor.writable) {
      defineProperty(win, key, { __proto__: null, value: usable } as PropertyDescriptor)
    }
  }
  check()
  return check
}

/**
 * Wraps Object.defineProperty, Object.defineProperties and Reflect.defineProperty so that a definition of a window
 * property wallets publish themselves under (`onWindowProperty` checks it and says whether it is one), or of an entry
 * point on a held wallet, is hooked before the call returns. Everything else is the original behaviour, with the same
 * receiver, arguments and result. Each stand-in is a Proxy of the original, so its name, length and `[native code]`
 * text stay those of the builtin (pages and polyfills sniff them).
 */
export function watchDefinitions(
  onWindowProperty: (key: PropertyKey) => boolean,
  redefined: Patcher['redefined'],
): void {
  const after = (target: unknown, key: PropertyKey) => {
    if (target === win && onWindowProperty(key)) return
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
