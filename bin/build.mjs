// Compiles the `preflight` command (CLI, scan API server and its scan worker) from src/ into build/ with esbuild, so
// it starts without a TypeScript compiler at run time. `npm run build:server` runs it; bin/preflight.mjs runs it on
// demand when a source file is newer than the build.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCES = join(ROOT, 'src')
export const BUILD_DIR = join(ROOT, 'build')
const ENTRIES = { cli: 'src/cli.ts', scanWorker: 'src/server/scanWorker.ts' }

/** Newest modification time of the files under `dir`, in ms. */
function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

/** True when build/ has every entry and none is older than the newest source (or package.json). */
export function isFresh() {
  try {
    const built = Math.min(...Object.keys(ENTRIES).map((name) => statSync(join(BUILD_DIR, `${name}.mjs`)).mtimeMs))
    return built >= Math.max(newest(SOURCES), statSync(join(ROOT, 'package.json')).mtimeMs)
  } catch {
    return false
  }
}

/**
 * Packages load from node_modules at run time, except JSON files imported from them (a phishing list, a token list),
 * which are bundled: Node would demand an import attribute the sources do not carry.
 */
const dependenciesStayExternal = {
  name: 'dependencies-stay-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.endsWith('.json') ? undefined : { external: true }))
  },
}

/**
 * Bundles the entries (dependencies stay in node_modules). Each build writes to its own temporary folder, then moves
 * the files in, shared chunks first and entries last: processes that build at the same time never read a half file.
 */
export async function build() {
  const { build: esbuild } = await import('esbuild')
  const staging = mkdtempSync(join(ROOT, '.build-'))
  try {
    await esbuild({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      plugins: [dependenciesStayExternal],
      outExtension: { '.js': '.mjs' },
      chunkNames: '[name]-[hash]',
      sourcemap: 'linked',
      logLevel: 'error',
    })
    const files = readdirSync(staging, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(staging.length + 1))
    const entryFiles = new Set(Object.keys(ENTRIES).flatMap((name) => [`${name}.mjs`, `${name}.mjs.map`]))
    mkdirSync(BUILD_DIR, { recursive: true })
    const ordered = [...files.filter((file) => !entryFiles.has(file)), ...files.filter((file) => entryFiles.has(file))]
    for (const file of ordered) renameSync(join(staging, file), join(BUILD_DIR, file))
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** The path of the compiled CLI, building it first when it is missing or older than the sources. */
export async function ensureBuilt() {
  if (!isFresh()) await build()
  return join(BUILD_DIR, 'cli.mjs')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  await build()
  process.stdout.write(`compiled the preflight command into build/ in ${Math.round(performance.now() - started)} ms\n`)
}
