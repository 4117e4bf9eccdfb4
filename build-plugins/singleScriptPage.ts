/**
 * A Vite plugin that builds one extension page apart from the others, into a single script that imports nothing. The
 * confirmation window is opened for each request, and a page that shares chunks with the popup and the options page
 * loads six files: in Chromium each is a separate extension resource read on the browser's thread pool, and the page
 * ran its script only once the last had arrived. One file brought the window up sooner: call → window with the worker
 * running, four alternating rounds of ten requests, p50 128 ms against 144 ms. The popup and the options page keep
 * their shared chunks: nobody waits on them mid-request.
 */
import { basename } from 'node:path'
import { build, type InlineConfig, type Plugin, type Rolldown } from 'vite'

type BuildOutput = Rolldown.RolldownOutput | Rolldown.RolldownOutput[] | unknown

const outputsOf = (result: BuildOutput): Rolldown.RolldownOutput[] =>
  (Array.isArray(result) ? result : [result]).filter(
    (item): item is Rolldown.RolldownOutput => !!item && typeof item === 'object' && 'output' in item,
  )

/**
 * Builds `page` (an HTML entry) with `config` (plugins, target, tree-shaking) and every import inlined, and adds the
 * page and its one script to the extension's bundle. A file the extension's own build already holds under the same
 * (content-hashed) name, such as a data list the same plugins emit, is left to it.
 */
export function singleScriptPage(page: string, config: InlineConfig): Plugin {
  return {
    name: 'preflight:single-script-page',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const result = await build({
        ...config,
        configFile: false,
        publicDir: false,
        logLevel: 'warn',
        build: {
          ...config.build,
          write: false,
          modulePreload: false,
          rollupOptions: {
            ...config.build?.rollupOptions,
            input: { [basename(page, '.html')]: page },
            output: { ...config.build?.rollupOptions?.output, codeSplitting: false },
          },
        },
      })
      const files = outputsOf(result).flatMap((output) => output.output)
      for (const file of files) {
        if (file.type === 'chunk' && file.imports.length + file.dynamicImports.length > 0) {
          this.error(`${page}: its script ${file.fileName} still imports ${[...file.imports, ...file.dynamicImports]}`)
        }
        if (bundle[file.fileName]) continue
        const source = file.type === 'chunk' ? file.code : file.source
        this.emitFile({ type: 'asset', fileName: file.fileName, source })
      }
    },
  }
}
