/**
 * Generates src/engine/safe/data/deployments.json from the npm package @safe-global/safe-deployments: every released
 * Safe contract of every version, with every address any chain has it at, and the role the engine judges it by.
 * `npm run generate:safe-deployments` rewrites the file (formatted by biome); test/engine/safe/deployments.test.ts
 * checks it still holds what the installed package lists.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getAddress } from 'viem'

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))

export const deploymentsPath = join(here, '../../src/engine/safe/data/deployments.json')

/** How the engine judges a contract: run as the Safe's code, delegate-called, asked to answer for it, or none. */
type Role = 'singleton' | 'library' | 'fallbackHandler' | 'other'

const ROLES: Record<string, Role> = {
  GnosisSafe: 'singleton',
  GnosisSafeL2: 'singleton',
  Safe: 'singleton',
  SafeL2: 'singleton',
  MultiSend: 'library',
  MultiSendCallOnly: 'library',
  SignMessageLib: 'library',
  CreateCall: 'library',
  SafeMigration: 'library',
  SafeToL2Migration: 'library',
  SafeToL2Setup: 'library',
  // Delegate-called, it runs any call or delegate call it is handed as the Safe: no library to trust.
  SimulateTxAccessor: 'other',
  CreateAndAddModules: 'library',
  CompatibilityFallbackHandler: 'fallbackHandler',
  DefaultCallbackHandler: 'fallbackHandler',
  TokenCallbackHandler: 'fallbackHandler',
  ExtensibleFallbackHandler: 'fallbackHandler',
}

type Asset = {
  contractName: string
  version: string
  released: boolean
  deployments?: Record<string, { address: string }>
  networkAddresses: Record<string, string | string[]>
}

export type KnownDeployment = { name: string; version: string; role: Role; addresses: string[] }

/** Every released Safe contract in the installed package, sorted by version then name. */
export function knownSafeDeployments(): KnownDeployment[] {
  const packageRoot = dirname(require.resolve('@safe-global/safe-deployments/package.json'))
  const assets = join(packageRoot, 'dist', 'assets')
  const found: KnownDeployment[] = []
  for (const version of readdirSync(assets).sort()) {
    for (const file of readdirSync(join(assets, version)).sort()) {
      const asset = JSON.parse(readFileSync(join(assets, version, file), 'utf8')) as Asset
      if (!asset.released) continue
      const addresses = new Set<string>()
      for (const entry of Object.values(asset.networkAddresses)) {
        for (const name of [entry].flat()) addresses.add(getAddress(asset.deployments?.[name]?.address ?? name))
      }
      found.push({
        name: asset.contractName,
        version: asset.version,
        role: ROLES[asset.contractName] ?? 'other',
        addresses: [...addresses].sort(),
      })
    }
  }
  return found
}

/** The file's content: the package version it came from, then the deployments. */
export function deploymentsDocument(): { source: string; deployments: KnownDeployment[] } {
  const { version } = require('@safe-global/safe-deployments/package.json') as { version: string }
  return { source: `@safe-global/safe-deployments@${version}`, deployments: knownSafeDeployments() }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(deploymentsPath, JSON.stringify(deploymentsDocument()))
  execFileSync('npx', ['biome', 'format', '--write', deploymentsPath], { stdio: 'inherit' })
  console.log(`wrote ${deploymentsDocument().deployments.length} Safe deployments to ${deploymentsPath}`)
}
