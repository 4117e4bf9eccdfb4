/**
 * # safe — Safe (multisig) wallets as the simulation runs them
 *
 * - `preset.ts`: the MULTISIG_WALLET preset, as the simulation applies it: confirmations enough for any threshold,
 *   from signers made for the scan, leaving the threshold and the owner list as the Safe holds them.
 * - `execTransaction.ts`: a Safe transaction recognised in calldata (execTransaction's arguments, named).
 * - `calls.ts`: the calls a transaction makes through execTransaction and MultiSend, unwrapped.
 * - `accountCalls.ts`: the calls a smart account's `execute` functions make (ERC-4337 accounts, ERC-7579), unwrapped.
 * - `context.ts`: what a signer should know about a Safe (owners, threshold, nonce, version), and who its owners are.
 * - `config.ts`: a Safe's configuration (singleton, owners, threshold, nonce, modules, guards, fallback handler) and
 *   the changes the transactions made to it, told apart from the simulation's own overrides.
 * - `intent.ts`: what the decoded calls say they change, so a change nobody showed the signer stands out.
 * - `deployments.ts`: Safe's own contracts by address, every released version on every chain (generated from
 *   @safe-global/safe-deployments into `data/deployments.json`).
 * - `modules.ts`: the modules Safe releases (allowance, ERC-4337, social recovery), by address (generated from
 *   @safe-global/safe-modules-deployments into `data/modules.json`).
 * - `versions.ts`: how each Safe version hashes its transactions and messages (domain with or without chainId,
 *   typehash).
 *
 * Elsewhere: the configuration is read in `simulation/safeConfigRead.ts` (SafeInspector.sol); Safe transaction
 * messages are recognised in `messages/safeTx.ts`; changes to who controls a Safe are judged in `risk/safeControl.ts`
 * and worded as state changes in `assets/safeChanges.ts`; GS0xx revert codes are explained in `abi/revert.ts`.
 */
export { type Call, expandCalls } from './calls.ts'
export {
  type AddressField,
  isSafeConfig,
  isUnset,
  type SafeConfig,
  type SafeConfigChange,
  type SafeConfigField,
  type SimulationOverrides,
  safeConfigChanges,
} from './config.ts'
export { isSafeOwner, type SafeContext, safeContext } from './context.ts'
export { deploymentLabel, isSafeDeployment, type SafeDeployment, safeDeployment } from './deployments.ts'
export { decodeExecTransaction, type ExecTransaction } from './execTransaction.ts'
export { isExplained, type SafeIntent, safeIntent } from './intent.ts'
export { type SafeModule, safeModule } from './modules.ts'
export { multisigPreset, rememberThreshold, SAFE_NONCE_SLOT } from './preset.ts'
export { type SafeHashing, safeHashing, safeMessageHash, safeTxHash, safeTxTypeFields } from './versions.ts'
