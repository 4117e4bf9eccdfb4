/**
 * The calls a transaction makes that the engine can see from its calldata: Safe execTransaction, MultiSend and smart
 * accounts' execute functions unwrapped.
 */
import { type Address, bytesToHex, getAbiItem, getAddress, type Hex, hexToBigInt, hexToBytes } from 'viem'
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
  /**
   * Set when the engine could not read every call this one makes (see expandCalls): code nobody was shown may run as
   * the caller through it.
   */
  unread?: boolean
}

/** Calls nested deeper than this are listed but not unwrapped; honest transactions nest two or three levels. */
const MAX_DEPTH = 5

/**
 * The transaction and the calls it makes through Safe execTransaction, MultiSend and account execute (recursively). A
 * call whose inner calls are not all read (nested past MAX_DEPTH, or a MultiSend batch MultiSend reads differently)
 * is marked `unread`: what it runs is judged as unknown code, never as the library it calls.
 */
export function expandCalls(call: Call): Call[] {
  const inner = innerCalls(call)
  if (!inner) return [call]
  if (call.depth >= MAX_DEPTH) return [{ ...call, unread: true }]
  return [inner.complete ? call : { ...call, unread: true }, ...inner.calls.flatMap(expandCalls)]
}

/** The calls `call` makes one level down, or null when its calldata is nothing the engine unwraps. */
function innerCalls(call: Call): { calls: Call[]; complete: boolean } | null {
  if (!call.to) return null
  const depth = call.depth + 1
  const exec = decodeExecTransaction(call.data)
  if (exec) {
    const { to, value, data, operation } = exec
    return { calls: [{ from: call.to, to, value, data, depth, delegate: operation === 1 }], complete: true }
  }
  const batch = decodeMultiSend(call.data)
  if (batch) {
    // MultiSend runs by delegatecall, so its inner calls come from the caller (the Safe), not from MultiSend.
    return { calls: batch.calls.map((inner) => ({ ...inner, from: call.from, depth })), complete: batch.complete }
  }
  const account = decodeAccountCalls(call.data, call.to)
  if (!account) return null
  const from = call.to
  return { calls: account.map((inner) => ({ ...inner, from, depth, byAccount: true })), complete: true }
}

const decodeMultiSendCall = functionDecoder(getAbiItem({ abi: multiSendAbi, name: 'multiSend' }))

/** The calls of a MultiSend batch; `complete` is false when the batch holds bytes MultiSend would run but are not read. */
export type MultiSendBatch = { calls: Omit<Call, 'from' | 'depth'>[]; complete: boolean }

/**
 * The packed transactions inside multiSend(bytes), read as MultiSend's own assembly loop reads them (1.1.1 to 1.5.0,
 * MultiSendCallOnly alike): an entry starts wherever fewer than 32 bytes remain is never run (trailing bytes are
 * skipped), and an operation other than call or delegatecall reverts the whole batch. An entry reaching past the end
 * of the bytes would run on whatever memory follows them, which calldata does not show: the batch is incomplete,
 * as it is when the multiSend arguments cannot be decoded at all. Null when `data` is no multiSend call.
 */
export function decodeMultiSend(data: Hex): MultiSendBatch | null {
  let packed: Uint8Array
  try {
    const args = decodeMultiSendCall(data)
    if (!args) return null
    packed = hexToBytes(args[0])
  } catch {
    return { calls: [], complete: false }
  }
  const calls: Omit<Call, 'from' | 'depth'>[] = []
  const total = packed.length
  const hex = (from: number, to: number) => bytesToHex(packed.subarray(from, to))
  for (let offset = 0; offset + 32 < total; ) {
    const operation = packed[offset] as number
    if (operation > 1) return { calls, complete: true }
    if (offset + 85 > total) return { calls, complete: false }
    const length = hexToBigInt(hex(offset + 53, offset + 85))
    if (BigInt(offset + 85) + length > BigInt(total)) return { calls, complete: false }
    const end = offset + 85 + Number(length)
    calls.push({
      to: getAddress(hex(offset + 1, offset + 21)),
      value: hexToBigInt(hex(offset + 21, offset + 53)),
      data: hex(offset + 85, end),
      delegate: operation === 1,
    })
    offset = end
  }
  return { calls, complete: true }
}
