/**
 * The MULTISIG_WALLET preset: for the simulation only, a Safe's execTransaction carries enough confirmations for any
 * threshold, from signers the simulation makes. Each signer is an owner by its entry in the Safe's owners mapping
 * alone (outside the owner list, so getOwners and the owner count stay real) and passes the Safe's EIP-1271 contract
 * signature check. The threshold, the owner list, approved hashes and the nonce are what the Safe really holds, and the
 * signers' addresses are drawn at random for each scan: code the transaction runs as the Safe cannot tell the
 * simulation from the real execution by reading the Safe, as it could when the simulation set the threshold to 1.
 */
import {
  type Address,
  bytesToHex,
  concat,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  keccak256,
  pad,
  toHex,
} from 'viem'
import { safeAbi } from '../abi/index.ts'
import { decodeExecTransaction } from './execTransaction.ts'

/** Storage slot of a Safe's nonce (Safe v1.x layout). */
export const SAFE_NONCE_SLOT: Hex = pad('0x5', { size: 32 })
/** Storage slot of a Safe's owners mapping, owner → next owner (Safe v1.x layout: OwnerManager's first variable). */
const OWNERS_SLOT_WORD: Hex = pad('0x2', { size: 32 })
/**
 * Confirmations the preset gives a Safe whose threshold no scan has read yet: the Safe checks only its threshold's
 * worth, so any Safe requiring up to this many simulates; one requiring more fails with GS020 (signatures too short),
 * shown as a failed simulation.
 */
export const PRESET_SIGNERS = 32

/**
 * The thresholds scans have read, by node and wallet: a later preset for the wallet makes that many signers, as each
 * costs a hash on every scan (32 of them took 0.26 ms). A threshold raised since costs one failed simulation, whose
 * reads then bring the new one.
 */
const thresholds = new Map<string, number>()
const THRESHOLDS_KEPT = 1_000

/** Keeps the threshold a scan read for `wallet` on the node `node`, for the next preset's signer count. */
export function rememberThreshold(node: string, wallet: Address, threshold: bigint): void {
  const key = `${node} ${wallet.toLowerCase()}`
  const count = Number(threshold > BigInt(PRESET_SIGNERS) ? PRESET_SIGNERS : threshold < 1n ? 1n : threshold)
  if (thresholds.get(key) === count) return
  if (!thresholds.has(key) && thresholds.size >= THRESHOLDS_KEPT) thresholds.clear()
  thresholds.set(key, count)
}

/** The signers a preset on `node` needs for all of `wallets`: the most any of them requires, all when one is unknown. */
function signerCount(node: string, wallets: Address[]): number {
  let count = 1
  for (const wallet of wallets) {
    const known = thresholds.get(`${node} ${wallet.toLowerCase()}`)
    if (known === undefined) return PRESET_SIGNERS
    if (known > count) count = known
  }
  return count
}

/**
 * The signers' code: answers any call with its own selector, which is both EIP-1271 magic values (isValidSignature
 * (bytes,bytes) 0x20c13b0b before Safe 1.5.0, isValidSignature(bytes32,bytes) 0x1626ba7e from 1.5.0) —
 * `mstore(0, and(calldataload(0), 0xffffffff << 224)) return(0, 32)`.
 */
const SIGNER_CODE: Hex = '0x6000357fffffffff000000000000000000000000000000000000000000000000000000001660005260206000f3'

type StorageOverride = { address: Address; slot: Hex; value: Hex }

/** The preset applied: the transactions as simulated, and the overrides that start with them. */
export type MultisigPreset<T> = {
  txs: T[]
  /** The made signers, each an owner of every preset wallet from the transactions on. */
  signers: Address[]
  storage: StorageOverride[]
  code: { address: Address; code: Hex }[]
}

/**
 * The signers' contract signatures, sorted by address as the Safe requires: r = signer, s = where the signature data
 * starts (past every static part), v = 0; the data they share is empty.
 */
export function presetSignatures(signers: Address[]): Hex {
  const data = toHex(signers.length * 65, { size: 32 })
  // Lowercase 0x-hex of one length sorts as the numbers do.
  const sorted = signers.map((signer) => signer.toLowerCase()).sort()
  return concat([
    ...sorted.map((signer) => concat([pad(signer as Hex, { size: 32 }), data, '0x00'])),
    pad('0x0', { size: 32 }),
  ])
}

/** The storage slot of `owners[owner]` in a Safe: keccak256 of the key and the mapping's slot, a word each. */
function ownerSlot(owner: Address): Hex {
  return keccak256(concat([pad(owner, { size: 32 }), OWNERS_SLOT_WORD]))
}

/**
 * Under the preset, each execTransaction sent to a preset wallet carries the made signers' confirmations; nothing is
 * made when no transaction needs it.
 */
export function multisigPreset<T extends { to: Address | null; data: Hex }>(
  txs: T[],
  wallets: Address[],
  node: string,
): MultisigPreset<T> {
  const preset = (tx: T) => !!tx.to && wallets.some((wallet) => isAddressEqual(wallet, tx.to as Address))
  if (!txs.some((tx) => preset(tx) && decodeExecTransaction(tx.data)))
    return { txs, signers: [], storage: [], code: [] }
  const signers = Array.from({ length: signerCount(node, wallets) }, randomSigner)
  const signatures = presetSignatures(signers)
  return {
    txs: txs.map((tx) => (preset(tx) ? { ...tx, data: withSignatures(tx.data, signatures) } : tx)),
    signers,
    // An owner entry needs only to be non-zero: the sentinel (1) keeps it out of the list walks.
    storage: wallets.flatMap((address) =>
      signers.map((signer) => ({ address, slot: ownerSlot(signer), value: pad('0x1', { size: 32 }) })),
    ),
    code: signers.map((address) => ({ address, code: SIGNER_CODE })),
  }
}

/**
 * A signer's random address, without zero bytes: calldata costs more for non-zero bytes, and the gas a scan reports
 * must not depend on the draw. Lowercase: a checksum would cost a hash for each of 32 signers on every scan.
 */
function randomSigner(): Address {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(20)).map((byte) => (byte % 255) + 1))
}

/** execTransaction calldata with its signatures replaced; other calldata unchanged. */
function withSignatures(data: Hex, signatures: Hex): Hex {
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
      signatures,
    ],
  })
}
