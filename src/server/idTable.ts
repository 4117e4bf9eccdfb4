/**
 * The entries a server keeps for as long as a request lasts, by an integer id: scans in flight, answers a scan thread
 * still owes. It has the Map methods those registries use, and hands out ids itself.
 *
 * A Map or Set that lives as long as the process and takes and drops an entry per request would hold the same, but V8
 * keeps rehashing one with such churn into new tables, in the old generation once the Map has been there, and the
 * tables left behind keep the entries they held reachable: everything an entry reaches (a request, its scan, the
 * node's answer) then survives young collections until the next full one, and is copied into the old generation on the
 * way. Integer-keyed properties of a plain object live in a dictionary that does not do this (idTable.test.ts measures
 * both; Node 24's V8 treats Maps the same way).
 */
export type IdTable<T> = {
  /** Stores `value` under an id not in use, from 1 to 2^31 - 1, and returns the id. */
  add: (value: T) => number
  /** Stores `value` under `id` (another table's, e.g. one sent by the thread that holds it), an integer < 2^31. */
  set: (id: number, value: T) => void
  get: (id: number) => T | undefined
  /** Removes the entry under `id`; false when there was none. */
  delete: (id: number) => boolean
  /** The values held now. */
  values: () => T[]
  clear: () => void
  readonly size: number
}

/** The largest id add hands out before it starts again from 1. */
const LAST_ID = 0x7fff_ffff

/** An empty IdTable. */
export function idTable<T>(): IdTable<T> {
  let entries: Record<number, T> = Object.create(null)
  let size = 0
  let lastId = 0
  const set = (id: number, value: T) => {
    if (!(id in entries)) size += 1
    entries[id] = value
  }
  return {
    add: (value) => {
      do lastId = lastId === LAST_ID ? 1 : lastId + 1
      while (lastId in entries)
      set(lastId, value)
      return lastId
    },
    set,
    get: (id) => entries[id],
    delete: (id) => {
      if (!(id in entries)) return false
      delete entries[id]
      size -= 1
      return true
    },
    values: () => Object.values(entries),
    clear: () => {
      entries = Object.create(null)
      size = 0
    },
    get size() {
      return size
    },
  }
}
