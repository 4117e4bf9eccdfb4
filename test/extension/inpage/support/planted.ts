/**
 * Runs `read` with `fields` on every object (or on `on`, such as Array.prototype), as a hostile page plants them
 * (`get:` marks a getter), and removes them once `read` has settled: vitest's own `expect` defines properties with
 * ordinary descriptors, which a planted `value` or `get` would join.
 */
export async function withPlanted<T>(
  fields: Record<string, unknown>,
  read: () => T | Promise<T>,
  on: object = Object.prototype,
): Promise<T> {
  const planted = Object.entries(fields).map(([key, value]) => {
    const getter = key.startsWith('get:')
    const descriptor = getter ? { get: () => value, configurable: true } : { value, configurable: true }
    const name = getter ? key.slice(4) : key
    Object.defineProperty(on, name, Object.setPrototypeOf(descriptor, null))
    return name
  })
  try {
    return await read()
  } finally {
    for (const name of planted) Reflect.deleteProperty(on, name)
  }
}
