/**
 * A Vite plugin that reports what the service worker loads when it starts: its entry chunk and every chunk that chunk
 * imports statically, with their sizes. A worker that Chrome stopped loads all of it again before it can answer.
 */
import type { Plugin, Rolldown } from 'vite'

type OutputBundle = Rolldown.OutputBundle
type OutputChunk = Rolldown.OutputChunk

/** The chunks a chunk loads at start (itself first, then its static imports, each once), by file name. */
export function startupChunks(bundle: OutputBundle, entry: OutputChunk): OutputChunk[] {
  const seen = new Map<string, OutputChunk>()
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return
    seen.set(chunk.fileName, chunk)
    for (const name of chunk.imports) {
      const imported = bundle[name]
      if (imported?.type === 'chunk') visit(imported)
    }
  }
  visit(entry)
  return [...seen.values()]
}

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

/** Prints the size of the chunks the chunk built from `entry` (a module path ending) loads at start. */
export function workerSize(entry: string): Plugin {
  return {
    name: 'preflight:worker-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const worker = Object.values(bundle).find(
        (item): item is OutputChunk => item.type === 'chunk' && !!item.facadeModuleId?.endsWith(entry),
      )
      if (!worker) return
      const chunks = startupChunks(bundle, worker)
      const sizes = chunks.map((chunk) => ({ file: chunk.fileName, bytes: Buffer.byteLength(chunk.code) }))
      const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0)
      const parts = sizes.map(({ file, bytes }) => `${file} ${kilobytes(bytes)}`).join(' + ')
      this.info(`service worker loads ${kilobytes(total)} at start: ${parts}`)
    },
  }
}
