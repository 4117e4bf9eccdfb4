/**
 * eth_sendRawTransaction carries a transaction already signed: Preflight decodes it (and recovers who signed it) to
 * show what it does; what it cannot decode, or cannot judge (EIP-7702 authorizations), it refuses to forward.
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import { type Address, type Hex, hexToBigInt, isHex, keccak256, parseTransaction, serializeTransaction } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import type { DecodeAnswer } from '../scanner/protocol.ts'
import { notDecoded, ParamError, type TxFields } from './txParams.ts'

export type SignedTx = { raw: Hex; tx: TxFields; chainId: number | undefined }

const hex = (value: bigint | number | undefined) =>
  value === undefined ? undefined : (`0x${value.toString(16)}` as Hex)

/**
 * Who signed a decoded transaction: the public key recovered from its signature over the unsigned serialisation.
 * (viem's own recovery loads the curve with import(); this one imports it statically, which every extension context
 * can load. It runs in the scanner page's engine thread, not in the service worker: see DecodeOrder.)
 */
function recoverSender(parsed: ReturnType<typeof parseTransaction>): Address {
  const { r, s, v, yParity, ...unsigned } = parsed
  if (!r || !s) throw new Error('the transaction is not signed')
  const recovery =
    yParity ?? (v === undefined ? undefined : v === 27n || v === 28n ? Number(v - 27n) : Number((v - 35n) % 2n))
  if (recovery !== 0 && recovery !== 1) throw new Error('the signature has no valid recovery bit')
  const hash = keccak256(serializeTransaction(unsigned as Parameters<typeof serializeTransaction>[0]))
  const signature = new secp256k1.Signature(hexToBigInt(r), hexToBigInt(s)).addRecoveryBit(recovery)
  return publicKeyToAddress(`0x${signature.recoverPublicKey(hash.slice(2)).toHex(false)}`)
}

/** Decodes a signed transaction; throws a ParamError saying why when it cannot be forwarded. */
export async function decodeSignedTx(raw: unknown): Promise<SignedTx> {
  if (typeof raw !== 'string' || !isHex(raw, { strict: true }) || raw.length < 4) {
    throw new ParamError(
      -32602,
      'Preflight: params[0] of eth_sendRawTransaction must be the signed transaction as 0x-hex.',
    )
  }
  const serialized = raw.toLowerCase() as Hex
  let parsed: ReturnType<typeof parseTransaction>
  let from: Address
  try {
    parsed = parseTransaction(serialized)
    from = recoverSender(parsed)
  } catch (error) {
    const why = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
    throw notDecoded(-32602, why)
  }
  if ('authorizationList' in parsed && parsed.authorizationList?.length) {
    throw new ParamError(
      -32602,
      'Preflight: this signed transaction holds EIP-7702 authorizations, which hand control of the account to code; Preflight cannot check them yet.',
    )
  }
  const tx: TxFields = { from: from.toLowerCase() as Address }
  if (parsed.to) tx.to = parsed.to.toLowerCase() as Address
  if (parsed.data) tx.data = parsed.data
  const fields = {
    value: parsed.value,
    gas: parsed.gas,
    gasPrice: parsed.gasPrice,
    maxFeePerGas: parsed.maxFeePerGas,
    maxPriorityFeePerGas: parsed.maxPriorityFeePerGas,
    nonce: parsed.nonce,
  }
  for (const [key, value] of Object.entries(fields)) {
    const asHex = hex(value)
    if (asHex !== undefined) tx[key as keyof typeof fields] = asHex
  }
  return { raw: serialized, tx, chainId: parsed.chainId }
}

/** decodeSignedTx as the scanner page answers it to the worker: the transaction, or the error to refuse it with. */
export async function decodeAnswer(raw: unknown): Promise<DecodeAnswer> {
  try {
    return { ok: true, signed: await decodeSignedTx(raw) }
  } catch (error) {
    if (error instanceof ParamError) return { ok: false, error: error.toProviderError() }
    throw error
  }
}
