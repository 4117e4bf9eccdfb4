/**
 * Records the other platforms' optional binaries (anvil, biome) in package-lock.json.
 *
 * npm install leaves out optional dependencies that the registry it reaches does not serve, then `npm ci` refuses the
 * lockfile it wrote as out of sync ("Missing: @biomejs/cli-darwin-x64@ from lock file"; npm/cli#9846). An entry that
 * names the package's os/cpu is enough: npm ci skips it on every other platform without fetching it.
 * Run after any dependency change: npx tsx test/tools/lockfilePlatforms.ts
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

type LockEntry = { version?: string; dev?: boolean; optionalDependencies?: Record<string, string> }

const PLATFORM = /-(android|darwin|linux|win32|freebsd)-(arm64|x64|amd64|arm|ia32)(?:-(musl|gnu))?$/

const path = join(import.meta.dirname, '../../package-lock.json')
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockEntry> }
const packages = lock.packages
const added: string[] = []
for (const [key, entry] of Object.entries({ ...packages })) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`${key}/node_modules/${name}`] || packages[`node_modules/${name}`]) continue
    const match = PLATFORM.exec(name)
    if (!match)
      throw new Error(`${name} (optional dependency of ${key || 'the project'}) is missing and names no platform`)
    const [, os, cpu, libc] = match
    packages[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ''),
      cpu: [cpu === 'amd64' ? 'x64' : cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc === 'gnu' ? 'glibc' : libc] } : {}),
      optional: true,
      os: [os],
    } as LockEntry
    added.push(name)
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `recorded ${added.join(', ')}` : 'package-lock.json already records every platform')
