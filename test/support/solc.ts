/** Compiling a contract's runtime code with solc from npm, for tests that place code at an address. */
import { createRequire } from 'node:module'
import type { Hex } from 'viem'

/**
 * The settings the engine's injected contracts are committed with (SafeInspector.sol, NativeBalanceReader.sol):
 * optimizer 200 runs, evm paris, no metadata, so the bytes are reproducible.
 */
export const INJECTED_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  metadata: { appendCBOR: false },
}

/** The runtime code of `contract` in `source` (named `file`); throws with solc's messages when it does not compile. */
export function runtimeCode(file: string, source: string, contract: string, settings: object = {}): Hex {
  const solc = createRequire(import.meta.url)('solc')
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: { ...settings, outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'))
  return `0x${output.contracts[file][contract].evm.deployedBytecode.object}`
}
