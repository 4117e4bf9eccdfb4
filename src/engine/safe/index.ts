/**
 * # safe — Safe (multisig) wallets as the simulation runs them
 *
 * - `preset.ts`: the MULTISIG_WALLET preset, as the simulation applies it: threshold 1, and the owner's pre-validated
 *   signature on an owner's execTransaction.
 * - `execTransaction.ts`: a Safe transaction recognised in calldata (execTransaction's arguments, named).
 * - `calls.ts`: the calls a transaction makes through execTransaction and MultiSend, unwrapped.
 * - `context.ts`: what a signer should know about a Safe (owners, threshold, nonce, version), and who its owners are.
 *
 * Elsewhere: a Safe's context is read in `simulation/reads.ts`; Safe transaction messages are recognised in
 * `messages/safeTx.ts`; changes to who controls a Safe are warned about in `risk/safeControl.ts`; GS0xx revert codes
 * are explained in `abi/revert.ts`.
 */
export { type Call, expandCalls } from './calls.ts'
export { isSafeOwner, type SafeContext } from './context.ts'
export { decodeExecTransaction, type ExecTransaction } from './execTransaction.ts'
export { applyMultisigPreset, presetStorage, SAFE_NONCE_SLOT } from './preset.ts'
