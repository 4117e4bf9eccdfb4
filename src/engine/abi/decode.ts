/**
 * Calldata and logs decoded with the ABIs the engine knows: decodedCalldata and decodedLogs in the reference shapes,
 * and calldata as the engine's own checks read it (function name, arguments, the addresses among them).
 */
import { type Abi, type AbiParameter, type Address, decodeEventLog, getAddress, type Hex, isAddress, size } from 'viem'
import type { DecodedCalldata, DecodedLog, Log, SerializedValue } from '../api/index.ts'
import { decodeArguments, eventsForTopic, functionsForCalldata } from './abiIndex.ts'

/** The called function and its arguments, or null when no known ABI matches the calldata. */
export function decodeCalldata(to: Address | null, data: Hex): DecodedCalldata {
  if (!to || size(data) < 4) return null
  for (const { item } of functionsForCalldata(data)) {
    try {
      const args = decodeArguments(item, data)
      return {
        kind: 'FUNCTION',
        data: {
          contract: to.toLowerCase() as Address,
          functionName: item.name,
          arguments: namedValues(item.inputs, args).map(({ name, type, value }) => ({
            name,
            paramType: type,
            value,
          })),
        },
      }
    } catch {
      // Same selector, different layout: try the next candidate.
    }
  }
  return null
}

/** The event a log carries, or null when no known ABI decodes it (element of decodedLogs). */
export function decodeLog(log: Log): DecodedLog {
  const topic = log.topics[0]
  if (!topic) return null
  for (const { item } of eventsForTopic(topic)) {
    try {
      const decoded = decodeEventLog({ abi: [item], data: log.data, topics: log.topics as [Hex, ...Hex[]] })
      const args = decoded.args as Record<string, unknown> | readonly unknown[]
      const values = item.inputs.map((input, index) =>
        Array.isArray(args) ? args[index] : (args as Record<string, unknown>)[input.name ?? String(index)],
      )
      return {
        name: item.name,
        signature: topic,
        params: namedValues(item.inputs, values).map(({ name, type, value }) => ({ name, paramType: type, value })),
      }
    } catch {
      // Same signature, different indexing (ERC-20 vs ERC-721 Transfer): try the next candidate.
    }
  }
  return null
}

function namedValues(inputs: readonly AbiParameter[], values: readonly unknown[]) {
  return inputs.map((input, index) => ({
    name: input.name || `arg${index}`,
    type: input.type,
    value: serialize(values[index]),
  }))
}

/** ABI values as strings (numbers in decimal, addresses lowercase), arrays and tuples as arrays. */
export function serialize(value: unknown): SerializedValue {
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return value.toString()
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(serialize)
  if (typeof value === 'object' && value !== null) return Object.values(value).map(serialize)
  return ''
}

/** A function call decoded with one of the known ABIs, with the parameters that say what each argument is. */
export type DecodedFunction = {
  abi: Abi
  functionName: string
  args: readonly unknown[]
  inputs: readonly AbiParameter[]
}

/** Decodes calldata with the known ABIs; null when no known function matches. */
export function decodeKnownFunction(data: Hex): DecodedFunction | null {
  if (size(data) < 4) return null
  for (const { abi, item } of functionsForCalldata(data)) {
    try {
      return { abi, functionName: item.name, args: decodeArguments(item, data), inputs: item.inputs }
    } catch {
      // not this ABI; try the next
    }
  }
  return null
}

/** A 32-byte word holding an address (12 zero bytes, then 20), as bridges write accounts of any chain. */
const ADDRESS_WORD = /^0x0{24}[0-9a-fA-F]{40}$/

/**
 * The bytes32 parameters that hold an account (Across's deposit). Only these: a signature's `r`, a role or a hash can
 * hold any word, and a drainer would write its hidden wallet there to have it count as named.
 */
const ACCOUNT_WORDS = new Set(['depositor', 'recipient', 'inputToken', 'outputToken', 'exclusiveRelayer'])

/**
 * Every address that appears in the call's decoded arguments (nested arrays and tuples included), also where a
 * parameter that holds an account writes one as a 32-byte word.
 */
export function addressesInArguments({ args, inputs }: DecodedFunction): Address[] {
  const found: Address[] = []
  const visit = (value: unknown) => {
    if (typeof value === 'string' && isAddress(value, { strict: false })) found.push(getAddress(value))
    else if (Array.isArray(value)) value.forEach(visit)
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit)
  }
  args.forEach((value, index) => {
    const input = inputs[index]
    const isAccountWord = input?.type === 'bytes32' && ACCOUNT_WORDS.has(input.name ?? '')
    if (isAccountWord && typeof value === 'string' && ADDRESS_WORD.test(value)) {
      found.push(getAddress(`0x${value.slice(26)}`))
    } else visit(value)
  })
  return found
}
