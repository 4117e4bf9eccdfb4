/** Safe's execTransaction in calldata: its arguments, named, decoded once per calldata for the whole scan. */
import { type Address, getAbiItem, type Hex } from 'viem'
import { functionDecoder, safeAbi } from '../abi/index.ts'

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
