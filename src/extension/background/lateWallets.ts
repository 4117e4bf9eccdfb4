/** Wallets seen injecting after the page's scripts started, kept locally for the options page's warning. */
import type { Storage } from 'webextension-polyfill'
import { LATE_WALLETS_KEY, LATE_WALLETS_LIMIT, type LateWallet } from '../shared/pending.ts'
import { serially } from './serially.ts'

/** Records each (wallet, site) pair once, newest first, at most LATE_WALLETS_LIMIT. */
export function createLateWallets(area: Storage.StorageArea) {
  const inOrder = serially()
  return {
    note: (entry: LateWallet): Promise<void> =>
      inOrder(async () => {
        const stored = (await area.get(LATE_WALLETS_KEY))[LATE_WALLETS_KEY]
        const list = Array.isArray(stored) ? (stored as LateWallet[]) : []
        const others = list.filter((item) => item.label !== entry.label || item.origin !== entry.origin)
        await area.set({ [LATE_WALLETS_KEY]: [entry, ...others].slice(0, LATE_WALLETS_LIMIT) })
      }),
  }
}
