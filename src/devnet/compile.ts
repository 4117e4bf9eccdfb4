/**
 * Compiles the fixture contracts in ./contracts with solc (npm) and writes ./artifacts.json.
 * The artifacts are committed so the devnet starts without a compiler; `npm run compile:contracts`
 * regenerates them and the devnet test checks they still match the sources.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)

export const contractsDir = join(here, 'contracts')
export const artifactsPath = join(here, 'artifacts.json')

export type Artifact = { abi: unknown[]; bytecode: `0x${string}` }
export type Artifacts = Record<string, Artifact>

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

/** Compiles every fixture source and returns the artifacts keyed by contract name. */
export function compileFixtures(): Artifacts {
  const solc = require('solc')
  const sources: Record<string, { content: string }> = {}
  for (const file of readdirSync(contractsDir)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(join(contractsDir, file), 'utf8') }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') }
    } catch {
      return { error: `import not found: ${path}` }
    }
  }
  const output: SolcOutput = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const artifacts: Artifacts = {}
  for (const file of Object.keys(sources)) {
    for (const [name, contract] of Object.entries(output.contracts[file] ?? {})) {
      artifacts[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
    }
  }
  return artifacts
}

/** Serialises artifacts the way they are committed, so a regenerated file diffs cleanly. */
export function formatArtifacts(artifacts: Artifacts): string {
  return `${JSON.stringify(artifacts, null, 1)}\n`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now()
  const artifacts = compileFixtures()
  writeFileSync(artifactsPath, formatArtifacts(artifacts))
  console.log(
    `compiled ${Object.keys(artifacts).join(', ')} in ${Math.round(performance.now() - started)} ms → ${artifactsPath}`,
  )
}
