/**
 * The MULTISIG_WALLET preset: for the simulation only, the wallet's threshold is 1 and an owner's execTransaction
 * carries that owner's pre-validated signature, so a Safe transaction simulates with zero or partial signatures.
 */
import { type Address, concat, encodeFunctionData, type Hex, isAddressEqual, numberToHex, pad, toHex } from 'viem'
import { safeAbi } from '../abi/index.ts'
import { decodeExecTransaction } from './execTransaction.ts'

/** Storage slot of a Safe's threshold (Safe v1.x layout). */
const SAFE_THRESHOLD_SLOT: Hex = pad('0x4', { size: 32 })
/** Storage slot of a Safe's nonce (Safe v1.x layout). */
export const SAFE_NONCE_SLOT: Hex = pad('0x5', { size: 32 })

/** The owner's pre-validated signature: r = owner, s = 0, v = 1 (valid when the owner itself sends the call). */
export function prevalidatedSignature(owner: Address): Hex {
  return concat([pad(owner.toLowerCase() as Hex, { size: 32 }), pad('0x0', { size: 32 }), toHex(1, { size: 1 })])
}

/** execTransaction calldata with its signatures replaced by the sender's pre-validated signature. */
function withPrevalidatedSignature(data: Hex, owner: Address): Hex {
  const exec = decodeExecTransaction(data)
  if (!exec) return data
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      exec.to,
      exec.value,
      exec.data,
      exec.operation,
      exec.safeTxGas,
      exec.baseGas,
      exec.gasPrice,
      exec.gasToken,
      exec.refundReceiver,
      prevalidatedSignature(owner),
    ],
  })
}

/** Under the preset, an owner's execTransaction on the wallet carries the owner's pre-validated signature. */
export function applyMultisigPreset<T extends { from: Address; to: Address | null; data: Hex }>(
  tx: T,
  wallets: Address[],
): T {
  if (!tx.to || !wallets.some((wallet) => isAddressEqual(wallet, tx.to as Address))) return tx
  if (!decodeExecTransaction(tx.data)) return tx
  return { ...tx, data: withPrevalidatedSignature(tx.data, tx.from) }
}

/** The preset's storage overrides, in force from the transactions on: each wallet's threshold set to 1. */
export function presetStorage(wallets: Address[]): { address: Address; slot: Hex; value: Hex }[] {
  return wallets.map((address) => ({ address, slot: SAFE_THRESHOLD_SLOT, value: numberToHex(1, { size: 32 }) }))
}
