/** A zustand store mirroring one key of extension storage: loaded once, then kept live through storage.onChanged. */
import browser from 'webextension-polyfill'
import { create, type StoreApi, type UseBoundStore } from 'zustand'

export type StorageSlice<T> = {
  /** The parsed value; undefined until the first read finishes. */
  value: T | undefined
  /** Why reading or writing failed, in words. */
  error: string | null
}

type StorageStore<T> = {
  use: UseBoundStore<StoreApi<StorageSlice<T>>>
  /** Writes a new value; the store updates from the change event, so every open page sees the same state. */
  write: (value: T) => Promise<void>
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Creates the store for `key` in the `area` storage; `parse` turns whatever is stored (or nothing) into a T. */
export function createStorageStore<T>(
  area: 'local' | 'session',
  key: string,
  parse: (raw: unknown) => T,
): StorageStore<T> {
  const use = create<StorageSlice<T>>()(() => ({ value: undefined, error: null }))
  const storage = browser.storage[area]
  let changedSinceRead = false
  browser.storage.onChanged.addListener((changes, areaName) => {
    const change = changes[key]
    if (areaName !== area || !change) return
    changedSinceRead = true
    use.setState({ value: parse(change.newValue), error: null })
  })
  storage.get(key).then(
    // A change event that arrived while the read was in flight is newer than what the read returns.
    (items) => changedSinceRead || use.setState({ value: parse(items[key]), error: null }),
    (error) => use.setState({ error: `Could not read ${key}: ${message(error)}` }),
  )
  const write = async (value: T) => {
    try {
      await storage.set({ [key]: value })
    } catch (error) {
      use.setState({ error: `Could not save ${key}: ${message(error)}` })
      throw error
    }
  }
  return { use, write }
}
