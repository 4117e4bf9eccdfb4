/**
 * The calls a transaction makes that the engine can see from its calldata: Safe execTransaction, MultiSend and smart
 * accounts' execute functions unwrapped.
 */
import { type Address, getAbiItem, getAddress, type Hex, hexToBigInt, hexToNumber, size, slice } from 'viem'
import { functionDecoder, multiSendAbi } from '../abi/index.ts'
import { decodeAccountCalls } from './accountCalls.ts'
import { decodeExecTransaction } from './execTransaction.ts'

/**
 * One call: who calls whom with what; `depth` 0 is the transaction itself. `delegate` marks a delegate call: the
 * callee's code runs as the caller, with the power to rewrite the caller's storage (a Safe's owners and modules).
 */
export type Call = {
  from: Address
  to: Address | null
  value: bigint
  data: Hex
  depth: number
  delegate?: boolean
  /**
   * Read from a smart account's `execute` calldata: what the account makes if `from` is one. Any contract can take
   * calldata of that shape, so such a call proves nothing about where assets go unless `from` is known to be the
   * user's own account.
   */
  byAccount?: boolean
}

/** The transaction and the calls it makes through Safe execTransaction, MultiSend and account execute (recursively). */
export function expandCalls(call: Call): Call[] {
  const calls: Call[] = [call]
  if (!call.to || call.depth > 4) return calls
  const exec = decodeExecTransaction(call.data)
  if (exec) {
    calls.push(
      ...expandCalls({
        from: call.to,
        to: exec.to,
        value: exec.value,
        data: exec.data,
        depth: call.depth + 1,
        delegate: exec.operation === 1,
      }),
    )
    return calls
  }
  const packed = decodeMultiSend(call.data)
  if (packed) {
    // MultiSend runs by delegatecall, so its inner calls come from the caller (the Safe), not from MultiSend.
    for (const inner of packed) calls.push(...expandCalls({ ...inner, from: call.from, depth: call.depth + 1 }))
    return calls
  }
  for (const inner of decodeAccountCalls(call.data, call.to) ?? []) {
    calls.push(...expandCalls({ ...inner, from: call.to, depth: call.depth + 1, byAccount: true }))
  }
  return calls
}

const decodeMultiSendCall = functionDecoder(getAbiItem({ abi: multiSendAbi, name: 'multiSend' }))

/** The packed transactions inside multiSend(bytes); null when `data` is not a well-formed multiSend call. */
export function decodeMultiSend(data: Hex): Omit<Call, 'from' | 'depth'>[] | null {
  try {
    const args = decodeMultiSendCall(data)
    if (!args) return null
    const packed = args[0]
    const calls: Omit<Call, 'from' | 'depth'>[] = []
    let offset = 0
    const total = size(packed)
    while (offset < total) {
      const operation = hexToNumber(slice(packed, offset, offset + 1))
      const to = getAddress(slice(packed, offset + 1, offset + 21))
      const value = hexToBigInt(slice(packed, offset + 21, offset + 53))
      const length = Number(hexToBigInt(slice(packed, offset + 53, offset + 85)))
      const innerData = length === 0 ? '0x' : slice(packed, offset + 85, offset + 85 + length)
      calls.push({ to, value, data: innerData, delegate: operation === 1 })
      offset += 85 + length
    }
    return calls
  } catch {
    return null
  }
}
