/** The last scans, live from chrome.storage.local, for the toolbar popup. */
import { HISTORY_KEY, HISTORY_LIMIT, type HistoryEntry } from '../../shared/pending.ts'
import { createStorageStore } from './storageStore.ts'

/** Newest first; anything malformed in storage is dropped rather than shown. */
export const historyStore = createStorageStore<HistoryEntry[]>('local', HISTORY_KEY, (raw) =>
  Array.isArray(raw)
    ? (raw as HistoryEntry[])
        .filter((entry) => entry && typeof entry.id === 'string' && typeof entry.origin === 'string')
        .slice(0, HISTORY_LIMIT)
    : [],
)
