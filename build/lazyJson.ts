/**
 * A Vite plugin for large JSON data that a service worker must not parse while it starts: each listed JSON module is
 * bundled as a module whose default export reads the same data, kept as one JSON string per top-level key and parsed
 * the first time that key is read. A string literal costs the script's compile almost nothing; an object literal of
 * the same data is parsed, compiled and built before the worker can answer its first event.
 */
import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'

/** What to bundle of a JSON file: the file's data in, the (smaller) data the bundle keeps out. */
export type Keep = (data: Record<string, unknown>) => Record<string, unknown>

const PREFIX = '\0lazy-json:'

/** The module text for `data`: primitives inline, every other value a getter that parses its JSON once. */
export function lazyJsonModule(data: Record<string, unknown>): string {
  const members = Object.entries(data).map(([key, value], index) => {
    const name = JSON.stringify(key)
    if (value === null || typeof value !== 'object') return `  ${name}: ${JSON.stringify(value)},`
    const text = JSON.stringify(JSON.stringify(value))
    return `  get ${name}() { return (cache[${index}] ??= JSON.parse(${text})) },`
  })
  return `const cache = []\nexport default {\n${members.join('\n')}\n}\n`
}

/** Bundles each JSON module named in `files` (an import specifier → what to keep of it) as a lazily parsed one. */
export function lazyJson(files: Record<string, Keep>): Plugin {
  return {
    name: 'preflight:lazy-json',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!(source in files)) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      // The .js ending keeps Vite's own JSON plugin away: this module is already JavaScript.
      return resolved && `${PREFIX}${source}\0${resolved.id}.js`
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null
      const [source, path] = id.slice(PREFIX.length, -'.js'.length).split('\0') as [string, string]
      const keep = files[source] as Keep
      this.addWatchFile(path)
      return lazyJsonModule(keep(JSON.parse(readFileSync(path, 'utf8'))))
    },
  }
}
