/**
 * The calls a smart account makes for its owner, read from the calldata of its own `execute` functions: the forms of
 * ERC-4337 accounts (SimpleAccount v0.6 to v0.8, LightAccount, Coinbase Smart Wallet), Safe's 4337 module
 * (`executeUserOp`, which may delegate-call), ERC-4337's IAccountExecute (`executeUserOp(userOp, hash)`: the account
 * runs the rest of the operation's `callData` itself, as Kernel v3 does) and ERC-7579's single and batch executions
 * (Kernel v3, Nexus, Safe7579). A user operation or a transaction to the account runs these calls as the
 * account, so each names its recipient just as a transaction of the account's own would.
 */
import {
  type Address,
  decodeAbiParameters,
  getAbiItem,
  getAddress,
  type Hex,
  hexToBigInt,
  parseAbiItem,
  parseAbiParameters,
  size,
  slice,
} from 'viem'
import { accountExecuteAbi, functionDecoder } from '../abi/index.ts'
import type { Call } from './calls.ts'

type InnerCall = Omit<Call, 'from' | 'depth'>

const executeOne = functionDecoder(parseAbiItem('function execute(address dest, uint256 value, bytes func)'))
const executeCalls = functionDecoder(
  parseAbiItem('function executeBatch((address target, uint256 value, bytes data)[] calls)'),
)
const executeLists = functionDecoder(
  parseAbiItem('function executeBatch(address[] dest, uint256[] value, bytes[] func)'),
)
const executeNoValue = functionDecoder(parseAbiItem('function executeBatch(address[] dest, bytes[] func)'))
const safeModule = functionDecoder(
  parseAbiItem('function executeUserOp(address to, uint256 value, bytes data, uint8 operation)'),
)
const safeModuleWithError = functionDecoder(
  parseAbiItem('function executeUserOpWithErrorString(address to, uint256 value, bytes data, uint8 operation)'),
)
const accountExecute = functionDecoder(getAbiItem({ abi: accountExecuteAbi, name: 'executeUserOp' }))
const execute7579 = functionDecoder(parseAbiItem('function execute(bytes32 mode, bytes executionCalldata)'))
const EXECUTIONS_7579 = parseAbiParameters('(address target, uint256 value, bytes callData)[]')

/** ERC-7579's call types, the mode's first byte. */
const CALL_TYPE_SINGLE = 0x00
const CALL_TYPE_BATCH = 0x01
const CALL_TYPE_DELEGATE = 0xff

/**
 * The calls `data` asks the smart account `account` to make, or null when it is none of the account forms read here.
 */
export function decodeAccountCalls(data: Hex, account: Address): InnerCall[] | null {
  try {
    const one = executeOne(data)
    if (one) return [{ to: getAddress(one[0]), value: one[1], data: one[2] }]
    const calls = executeCalls(data)
    if (calls) return calls[0].map((call) => ({ to: getAddress(call.target), value: call.value, data: call.data }))
    const lists = executeLists(data)
    if (lists) {
      const [targets, values, datas] = lists
      // SimpleAccount v0.7 takes an empty value list for calls that send none.
      if (datas.length !== targets.length || (values.length !== 0 && values.length !== targets.length)) return null
      return targets.map((to, index) => ({ to: getAddress(to), value: values[index] ?? 0n, data: datas[index] as Hex }))
    }
    const noValue = executeNoValue(data)
    if (noValue) {
      const [targets, datas] = noValue
      if (datas.length !== targets.length) return null
      return targets.map((to, index) => ({ to: getAddress(to), value: 0n, data: datas[index] as Hex }))
    }
    const module = safeModule(data) ?? safeModuleWithError(data)
    if (module) {
      const [to, value, inner, operation] = module
      return [{ to: getAddress(to), value, data: inner, ...(operation === 1 ? { delegate: true } : {}) }]
    }
    const operation = accountExecute(data)
    if (operation) return [{ to: account, value: 0n, data: slice(operation[0].callData, 4) }]
    const modular = execute7579(data)
    return modular ? modularCalls(modular[0], modular[1]) : null
  } catch {
    return null
  }
}

/** ERC-7579: a single call packs target, value and calldata; a batch is ABI-encoded; a delegate call packs target and calldata. */
function modularCalls(mode: Hex, execution: Hex): InnerCall[] | null {
  const callType = Number.parseInt(mode.slice(2, 4), 16)
  if (callType === CALL_TYPE_SINGLE && size(execution) >= 52) {
    return [
      {
        to: getAddress(slice(execution, 0, 20)),
        value: hexToBigInt(slice(execution, 20, 52)),
        data: slice(execution, 52),
      },
    ]
  }
  if (callType === CALL_TYPE_DELEGATE && size(execution) >= 20) {
    return [{ to: getAddress(slice(execution, 0, 20)), value: 0n, data: slice(execution, 20), delegate: true }]
  }
  if (callType === CALL_TYPE_BATCH) {
    const [executions] = decodeAbiParameters(EXECUTIONS_7579, execution)
    return executions.map((call) => ({ to: getAddress(call.target), value: call.value, data: call.callData }))
  }
  return null
}
