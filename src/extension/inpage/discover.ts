/**
 * Finds every provider a page can reach: `window.ethereum` (set before or after the hook), its `providers[]`, and
 * EIP-6963 announcements. Each is hooked with `hook`, which returns the object to expose (usually the same one).
 */

type Hook = (provider: unknown) => unknown

/**
 * Keeps `window.ethereum` hooked whatever is assigned to it later, through a configurable accessor (so other wallets
 * can still redefine it). A wallet that redefines the property itself is caught by the re-checks at load events.
 */
export function watchWindowEthereum(hook: Hook): void {
  const host = window as unknown as { ethereum?: unknown }
  const recheck = () => {
    const current = host.ethereum
    const usable = hook(current)
    if (usable !== current) {
      try {
        host.ethereum = usable
      } catch {}
    }
  }
  const existing = Object.getOwnPropertyDescriptor(window, 'ethereum')
  if (!existing || existing.configurable) {
    let value = hook(existing ? host.ethereum : undefined)
    Object.defineProperty(window, 'ethereum', {
      configurable: true,
      enumerable: existing?.enumerable ?? true,
      get: () => value,
      set: (next: unknown) => {
        value = hook(next)
      },
    })
  } else {
    recheck()
  }
  for (const event of ['ethereum#initialized', 'DOMContentLoaded', 'load']) {
    window.addEventListener(event, recheck, { capture: true })
  }
  for (const delay of [0, 500, 3000]) setTimeout(recheck, delay)
}

type Announcement = { info?: unknown; provider?: unknown }

/**
 * Hooks providers announced through EIP-6963 before the dapp's listeners see them (the hook listens first, in the
 * capture phase). The detail is usually frozen, so the provider object itself is patched; a provider that cannot be
 * patched is re-announced as a Proxy in a new frozen detail and the original announcement is stopped.
 */
export function watchEip6963(hook: Hook): void {
  window.addEventListener(
    'eip6963:announceProvider',
    (event) => {
      const detail = (event as CustomEvent<Announcement>).detail
      const provider = detail?.provider
      if (!provider || typeof provider !== 'object') return
      const usable = hook(provider)
      if (usable === provider) return
      event.stopImmediatePropagation()
      const replacement = Object.freeze({ info: detail.info, provider: usable })
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: replacement }))
    },
    true,
  )
  // Wallets that announced before the hook ran answer this again.
  window.dispatchEvent(new Event('eip6963:requestProvider'))
}
