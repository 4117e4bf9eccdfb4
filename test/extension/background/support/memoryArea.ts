import type { Storage } from 'webextension-polyfill'

/** chrome.storage.session is the boundary: an in-memory area with the same get/set/remove contract. */
export function memoryArea(): Storage.StorageArea {
  const items = new Map<string, unknown>()
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1))
  return {
    async get(keys: string | string[] | null) {
      await tick()
      const wanted = keys === null ? [...items.keys()] : Array.isArray(keys) ? keys : [keys]
      return Object.fromEntries(
        wanted.filter((key) => items.has(key)).map((key) => [key, structuredClone(items.get(key))]),
      )
    },
    async set(values: Record<string, unknown>) {
      await tick()
      for (const [key, value] of Object.entries(values)) items.set(key, structuredClone(value))
    },
    async remove(keys: string | string[]) {
      await tick()
      for (const key of Array.isArray(keys) ? keys : [keys]) items.delete(key)
    },
  } as Storage.StorageArea
}
