/** Safe (multisig) support: the MULTISIG_WALLET preset, the wallet's context, and Safe's GS0xx codes in plain English. */
import { type Address, concat, encodeFunctionData, getAbiItem, type Hex, isAddressEqual, pad, toHex } from 'viem'
import { functionDecoder } from './abiIndex.ts'
import { safeAbi } from './abis.ts'
import { type ReadResults, readKeys } from './reads.ts'

/** Storage slot of a Safe's threshold (Safe v1.x layout). */
export const SAFE_THRESHOLD_SLOT: Hex = pad('0x4', { size: 32 })
/** Storage slot of a Safe's nonce (Safe v1.x layout). */
export const SAFE_NONCE_SLOT: Hex = pad('0x5', { size: 32 })

/** What a signer should know about a Safe, read in the same simulation as the transactions. */
export type SafeContext = {
  address: Address
  version: string
  owners: Address[]
  threshold: number
  nonce: bigint
  singleton: Address | null
}

/** The owner's pre-validated signature: r = owner, s = 0, v = 1 (valid when the owner itself sends the call). */
export function prevalidatedSignature(owner: Address): Hex {
  return concat([pad(owner.toLowerCase() as Hex, { size: 32 }), pad('0x0', { size: 32 }), toHex(1, { size: 1 })])
}

const decodeExecTransactionCall = functionDecoder(getAbiItem({ abi: safeAbi, name: 'execTransaction' }))

/** The arguments of an execTransaction call, named. */
export type ExecTransaction = Readonly<{
  to: Address
  value: bigint
  data: Hex
  operation: number
  safeTxGas: bigint
  baseGas: bigint
  gasPrice: bigint
  gasToken: Address
  refundReceiver: Address
  signatures: Hex
}>

/**
 * The last few execTransaction calls decoded, by calldata: one scan decodes the same call in several places (the
 * preset, the read plan, the warnings), and decoding its byte arguments is the costly part.
 */
const recentExecs = new Map<Hex, ExecTransaction>()
const RECENT_EXECS = 8

/** The decoded arguments of an execTransaction call, or null when `data` is something else. */
export function decodeExecTransaction(data: Hex): ExecTransaction | null {
  const recent = recentExecs.get(data)
  if (recent) return recent
  try {
    const args = decodeExecTransactionCall(data)
    if (!args) return null
    const [to, value, innerData, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, signatures] = args
    const exec = Object.freeze({
      to,
      value,
      data: innerData,
      operation,
      safeTxGas,
      baseGas,
      gasPrice,
      gasToken,
      refundReceiver,
      signatures,
    })
    if (recentExecs.size >= RECENT_EXECS) recentExecs.delete(recentExecs.keys().next().value as Hex)
    recentExecs.set(data, exec)
    return exec
  } catch {
    return null
  }
}

/** execTransaction calldata with its signatures replaced by the sender's pre-validated signature. */
export function withPrevalidatedSignature(data: Hex, owner: Address): Hex {
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

/** The Safe context from the before-block reads, or null when the address does not behave like a Safe. */
export function safeContextFromReads(wallet: Address, reads: ReadResults): SafeContext | null {
  const owners = reads.before.get(readKeys.safeField(wallet, 'owners')) as Address[] | undefined
  const threshold = reads.before.get(readKeys.safeField(wallet, 'threshold')) as bigint | undefined
  const nonce = reads.before.get(readKeys.safeField(wallet, 'nonce')) as bigint | undefined
  if (!owners || owners.length === 0 || !threshold || nonce === undefined) return null
  const version = reads.before.get(readKeys.safeField(wallet, 'version'))
  const singleton = reads.before.get(readKeys.safeField(wallet, 'singleton'))
  return {
    address: wallet,
    version: typeof version === 'string' ? version : 'unknown',
    owners: [...owners],
    threshold: Number(threshold),
    nonce,
    singleton: typeof singleton === 'string' ? (singleton as Address) : null,
  }
}

/** True when the account is one of the Safe's owners. */
export function isSafeOwner(context: SafeContext, account: Address): boolean {
  return context.owners.some((owner) => isAddressEqual(owner, account))
}

const GS_CODES: Record<string, string> = {
  GS000: 'the Safe could not finish its setup',
  GS001: 'the threshold has not been set up yet',
  GS002: 'a call to set up modules failed: the address is not a contract',
  GS010: 'there was not enough gas left to run the Safe transaction with the requested safeTxGas',
  GS011: 'paying the refund in native currency failed',
  GS012: 'paying the refund in tokens failed',
  GS013: 'the Safe transaction itself failed (its inner call reverted) and neither safeTxGas nor gasPrice was set',
  GS020: 'the signatures are too short for the required number of confirmations (not enough signatures)',
  GS021: 'a contract signature points to data outside the signatures (malformed signatures)',
  GS022: 'a contract signature is too short (malformed signatures)',
  GS023: 'a contract signature points beyond the end of the signature data (malformed signatures)',
  GS024: 'a contract signature was rejected by the signing contract',
  GS025:
    'the transaction hash was not approved by the owner: the sender is not that owner and it has not called approveHash',
  GS026: 'a signer is not an owner of the Safe, or the signatures are not sorted by owner address',
  GS030: 'only owners can approve a transaction hash',
  GS031: 'this method can only be called by the Safe itself',
  GS100: 'modules have already been set up',
  GS101: 'the module address is invalid',
  GS102: 'the module is already enabled',
  GS103: 'the module is invalid or not enabled (wrong previous module)',
  GS104: 'the caller is not an enabled module',
  GS200: 'owners have already been set up',
  GS201: 'the threshold is higher than the number of owners',
  GS202: 'the threshold must be at least 1',
  GS203: 'an owner address is invalid (zero, the sentinel, or the Safe itself)',
  GS204: 'an owner appears twice',
  GS205: 'the owner is invalid or the previous owner given is wrong',
  GS300: 'the guard does not support the guard interface',
  GS400: 'the fallback handler cannot be the Safe itself',
}

/** Plain-English meaning of a Safe revert code such as "GS013", or null for other reasons. */
export function explainSafeCode(reason: string): string | null {
  const code = reason.trim().toUpperCase()
  const meaning = GS_CODES[code]
  return meaning ? `Safe error ${code}: ${meaning}` : null
}
