/** Wallets seen injecting after a page's scripts had started, live from chrome.storage.local, for the options page. */
import { LATE_WALLETS_KEY, LATE_WALLETS_LIMIT, type LateWallet } from '../../shared/pending.ts'
import { createStorageStore } from './storageStore.ts'

export const lateWalletsStore = createStorageStore<LateWallet[]>('local', LATE_WALLETS_KEY, (raw) =>
  Array.isArray(raw)
    ? (raw as LateWallet[])
        .filter((entry) => entry && typeof entry.label === 'string' && typeof entry.origin === 'string')
        .slice(0, LATE_WALLETS_LIMIT)
    : [],
)
