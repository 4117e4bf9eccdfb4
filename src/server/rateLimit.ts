/**
 * Request counters for rate limits: fixed windows aligned to the clock, counted in this process's memory or in Redis
 * so several processes behind a load balancer share them. A window's counter expires with the window.
 */
import { Redis } from 'ioredis'

/** One hit counted: how many hits `key` has in the current window, and when that window ends. */
export type Hit = { count: number; resetAt: number }

export type CounterStore = {
  /** Counts a hit on `key` in the current `windowMs` window. */
  hit: (key: string, windowMs: number) => Promise<Hit>
  /** Whether the store answers (for /readyz). */
  ping: () => Promise<boolean>
  /** Resolves once the store can count (at most `timeoutMs` later); false if it cannot yet. */
  ready: (timeoutMs: number) => Promise<boolean>
  close: () => Promise<void>
}

/**
 * The most keys a memory store tracks per window in each namespace (a key's text before its first `:`); past it, new
 * keys of that namespace share one counter (stricter, never unbounded). Each namespace has its own room: wrong keys
 * from 100,000 addresses once filled the one shared table, and an API key not yet counted that minute was refused.
 */
export const MAX_MEMORY_KEYS = 100_000

/** Counters in this process: exact for one process (worker threads share it), not shared with other processes. */
export function memoryStore(now: () => number = Date.now): CounterStore {
  let window = -1
  let namespaces = new Map<string, Map<string, number>>()
  return {
    hit: async (key, windowMs) => {
      const current = Math.floor(now() / windowMs)
      if (current !== window) {
        window = current
        namespaces = new Map()
      }
      const namespace = key.slice(0, key.indexOf(':') + 1)
      let counts = namespaces.get(namespace)
      if (!counts) {
        counts = new Map()
        namespaces.set(namespace, counts)
      }
      const slot = counts.has(key) || counts.size < MAX_MEMORY_KEYS ? key : '\u0000overflow'
      const count = (counts.get(slot) ?? 0) + 1
      counts.set(slot, count)
      return { count, resetAt: (current + 1) * windowMs }
    },
    ping: async () => true,
    ready: async () => true,
    close: async () => {},
  }
}

/** INCR, and on the first hit of a window set the counter to expire with it: one atomic round trip. */
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`

/**
 * Counters in Redis, shared by every process that uses the same Redis. Commands fail fast (no offline queue, 500 ms
 * timeout) rather than hold requests while Redis is away; the caller decides what a failure means.
 */
export function redisStore(url: string, now: () => number = Date.now): CounterStore {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  })
  // Connection errors surface through failed commands; without a listener ioredis would print each one.
  redis.on('error', () => {})
  // EVALSHA after the first call: the script travels once per connection.
  redis.defineCommand('preflightHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
  const hitCommand = (redis as unknown as { preflightHit: (key: string, ms: string) => Promise<number> }).preflightHit
  return {
    hit: async (key, windowMs) => {
      const current = Math.floor(now() / windowMs)
      const count = await hitCommand.call(redis, `preflight:rate:${key}:${current}`, String(windowMs))
      return { count, resetAt: (current + 1) * windowMs }
    },
    ping: async () => {
      try {
        return (await redis.ping()) === 'PONG'
      } catch {
        return false
      }
    },
    ready: (timeoutMs) =>
      redis.status === 'ready'
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => {
              redis.off('ready', onReady)
              resolve(false)
            }, timeoutMs)
            const onReady = () => {
              clearTimeout(timer)
              resolve(true)
            }
            redis.once('ready', onReady)
          }),
    close: async () => {
      redis.disconnect()
    },
  }
}
