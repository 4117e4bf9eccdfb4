/**
 * A Vite plugin that takes large JSON data out of the service worker's script. Chrome stops an idle worker and loads
 * its whole script again on the next event, before it can answer; a list bundled into that script (even as a string)
 * is read and compiled on every such start. Each JSON module named here is bundled instead as a file of its own, and
 * the module becomes one whose default export reads the same data once it was fetched.
 *
 * `virtual:bundled-data` exports `loadBundledData()`, which fetches every such file once, in parallel, and resolves
 * when all have arrived; each is parsed when first read. The worker starts it when the first request to check arrives
 * (fetched at start, the files' arrival delayed the event that woke the worker); reading the data earlier throws an
 * error that says so.
 */
import { readFileSync } from 'node:fs'
import { resolve as resolvePath } from 'node:path'
import type { Plugin } from 'vite'

/** A bundled file: its name, and what to keep of the data (the data in, the smaller data the extension needs out). */
export type BundledFile = { name: string; keep?: (data: Record<string, unknown>) => Record<string, unknown> }

export const BUNDLED_DATA_MODULE = 'virtual:bundled-data'
const VIRTUAL_ID = `\0${BUNDLED_DATA_MODULE}`
const PREFIX = '\0bundled-data:'

/**
 * The module standing for a JSON file: `load()` fetches `url` once; the default export's keys read the data, parsed
 * the first time one is read (a scan that never needs the list never parses it).
 */
export function fetchedJsonModule(name: string, keys: string[], url: string): string {
  const getters = keys.map((key) => `  get ${JSON.stringify(key)}() { return read()[${JSON.stringify(key)}] },`)
  return [
    'let text',
    'let data',
    'let loading',
    'export function load() {',
    `  loading ??= fetch(${url})`,
    `    .then((response) => { if (!response.ok) throw new Error(\`status \${response.status}\`); return response.text() })`,
    '    .then((body) => { text = body })',
    '    .catch((error) => {',
    '      loading = undefined',
    `      throw new Error(\`Preflight could not read its ${name} file: \${error instanceof Error ? error.message : error}\`)`,
    '    })',
    '  return loading',
    '}',
    'function read() {',
    `  if (text === undefined) throw new Error('${name} was read before loadBundledData() fetched it')`,
    '  data ??= JSON.parse(text)',
    '  return data',
    '}',
    `export default {\n${getters.join('\n')}\n}`,
    '',
  ].join('\n')
}

/**
 * The plugin for the JSON modules in `files` (a package's import specifier, or a project file's path from the root
 * such as `./src/…/data.json` → how to bundle it).
 */
export function bundledData(files: Record<string, BundledFile>): Plugin {
  return {
    name: 'preflight:bundled-data',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source === BUNDLED_DATA_MODULE) return VIRTUAL_ID
      if (source.startsWith(PREFIX)) return source
      if (!(source in files) && !source.endsWith('.json')) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      if (!resolved) return null
      // A project file is named by its path from the root, and imported relative to its importer.
      const key = source in files ? source : Object.keys(files).find((name) => resolvePath(name) === resolved.id)
      // The .js ending keeps Vite's own JSON plugin away: this module is JavaScript.
      return key === undefined ? null : `${PREFIX}${key}\0${resolved.id}.js`
    },
    async load(id) {
      if (id === VIRTUAL_ID) {
        const loaders: string[] = []
        for (const source of Object.keys(files)) {
          const resolved = await this.resolve(source, undefined, { skipSelf: false })
          if (resolved) loaders.push(resolved.id)
        }
        const imports = loaders.map((loader, index) => `import { load as load${index} } from ${JSON.stringify(loader)}`)
        const calls = loaders.map((_, index) => `load${index}()`).join(', ')
        return `${imports.join('\n')}\nexport const loadBundledData = () => Promise.all([${calls}]).then(() => undefined)\n`
      }
      if (!id.startsWith(PREFIX)) return null
      const [source, path] = id.slice(PREFIX.length, -'.js'.length).split('\0') as [string, string]
      const file = files[source] as BundledFile
      this.addWatchFile(path)
      const raw = JSON.parse(readFileSync(path, 'utf8'))
      const data = file.keep ? file.keep(raw) : raw
      const reference = this.emitFile({ type: 'asset', name: `${file.name}.json`, source: JSON.stringify(data) })
      return fetchedJsonModule(file.name, Object.keys(data), `import.meta.ROLLUP_FILE_URL_${reference}`)
    },
  }
}
