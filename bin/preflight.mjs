#!/usr/bin/env node
// The `preflight` command runs the TypeScript sources directly through tsx, so there is no separate build for it.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli.ts')
process.exitCode = await main(process.argv.slice(2))
