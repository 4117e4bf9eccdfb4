#!/usr/bin/env node
// The `preflight` command. `serve` runs compiled (build/, from bin/build.mjs, compiled first when missing or older than
// the sources): it starts fast and stays small. The development commands (devnet, demo, scan) run the TypeScript
// sources through tsx, since they read files (contracts, the demo dapp) from beside their sources.
import { pathToFileURL } from 'node:url'

const argv = process.argv.slice(2)
let main
if (argv[0] === 'serve') {
  const { ensureBuilt } = await import('./build.mjs')
  ;({ main } = await import(pathToFileURL(await ensureBuilt()).href))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli.ts'))
}
process.exitCode = await main(argv)
