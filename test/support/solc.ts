/** Compiling contracts with solc from npm, for tests that place code at an address or deploy a protocol's sources. */
import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'

/**
 * The settings the engine's injected contracts are committed with (SafeInspector.sol, NativeBalanceReader.sol):
 * optimizer 200 runs, evm paris, no metadata, so the bytes are reproducible.
 */
export const INJECTED_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  metadata: { appendCBOR: false },
}

/** What solc reads an imported file from: its path as the importing source names it, to its text. */
export type ImportReader = (path: string) => string

type Compiled = { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }

/**
 * `contract` in `source` (named `file`) with the outputs `selection` asks for; throws with solc's messages when it does
 * not compile, or when an import cannot be read.
 */
function compile(
  file: string,
  source: string,
  contract: string,
  settings: object,
  selection: string[],
  readImport?: ImportReader,
): Compiled {
  const solc = createRequire(import.meta.url)('solc')
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: { ...settings, outputSelection: { [file]: { [contract]: selection } } },
  }
  const findImports = (path: string) => {
    try {
      return { contents: (readImport as ImportReader)(path) }
    } catch (error) {
      return { error: String(error) }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), readImport && { import: findImports }))
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'))
  return output.contracts[file][contract]
}

/** The runtime code of `contract` in `source` (named `file`); throws with solc's messages when it does not compile. */
export function runtimeCode(file: string, source: string, contract: string, settings: object = {}): Hex {
  return `0x${compile(file, source, contract, settings, ['evm.deployedBytecode.object']).evm.deployedBytecode.object}`
}

/** The ABI and creation code of `contract` in `source` (named `file`), its imports (if any) read by `readImport`. */
export function deployable(
  file: string,
  source: string,
  contract: string,
  settings: object = {},
  readImport?: ImportReader,
): { abi: Abi; bytecode: Hex } {
  const { abi, evm } = compile(file, source, contract, settings, ['abi', 'evm.bytecode.object'], readImport)
  return { abi, bytecode: `0x${evm.bytecode.object}` }
}
