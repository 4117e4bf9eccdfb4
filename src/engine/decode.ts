/** decodedCalldata and decodedLogs in the reference shapes, with the ABIs the engine knows. */
import { type AbiParameter, type Address, decodeEventLog, type Hex, size } from 'viem'
import { decodeArguments, eventsForTopic, functionsForCalldata } from './abiIndex.ts'
import type { SimulatedLog } from './assetEvents.ts'
import type { DecodedCalldata, DecodedLog, SerializedValue } from './types.ts'

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
export function decodeLog(log: SimulatedLog): DecodedLog {
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
