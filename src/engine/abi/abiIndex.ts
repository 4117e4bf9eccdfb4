/**
 * The known ABIs' functions and events indexed by selector once, on first use (hashing every signature at load would
 * delay a starting service worker's first answer). viem's decodeFunctionData and
 * decodeEventLog format and hash every item of the ABI they are given on each call (and throw an error object, stack
 * and all, when none matches); looking a selector up here first is what keeps decoding cheap.
 */
import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type DecodeAbiParametersReturnType,
  decodeAbiParameters,
  type Hex,
  slice,
  toEventSelector,
  toFunctionSelector,
} from 'viem'
import { decodingAbis } from './abis.ts'

/** A function of one of the known ABIs. */
type KnownFunction = { abi: Abi; item: AbiFunction }
/** An event of one of the known ABIs. */
type KnownEvent = { abi: Abi; item: AbiEvent }

const NONE: readonly never[] = []

function indexBy<T>(entries: T[], key: (entry: T) => string): Map<string, T[]> {
  const index = new Map<string, T[]>()
  for (const entry of entries) {
    const list = index.get(key(entry))
    if (list) list.push(entry)
    else index.set(key(entry), [entry])
  }
  return index
}

let functionsBySelector: Map<string, KnownFunction[]> | undefined
let eventsBySelector: Map<string, KnownEvent[]> | undefined

/**
 * The known functions `data` may call, in `decodingAbis` order (at most one per ABI). The selector is compared as
 * given, case and all, exactly as decodeFunctionData compares it.
 */
export function functionsForCalldata(data: Hex): readonly KnownFunction[] {
  functionsBySelector ??= indexBy(
    decodingAbis.flatMap((abi) =>
      (abi as Abi)
        .filter((item): item is AbiFunction => item.type === 'function')
        .map((item) => ({ abi: abi as Abi, item })),
    ),
    ({ item }) => toFunctionSelector(item),
  )
  return functionsBySelector.get(data.slice(0, 10)) ?? NONE
}

/** The known events whose signature hash is `topic`, in `decodingAbis` order. */
export function eventsForTopic(topic: Hex): readonly KnownEvent[] {
  eventsBySelector ??= indexBy(
    decodingAbis.flatMap((abi) =>
      (abi as Abi).filter((item): item is AbiEvent => item.type === 'event').map((item) => ({ abi: abi as Abi, item })),
    ),
    ({ item }) => toEventSelector(item),
  )
  return eventsBySelector.get(topic) ?? NONE
}

/**
 * The arguments of a call to `item` (whose selector `data` starts with), as decodeFunctionData returns them but
 * without its ABI search; [] for a function without inputs. Throws when the arguments do not fit the layout.
 */
export function decodeArguments<const F extends AbiFunction>(
  item: F,
  data: Hex,
): DecodeAbiParametersReturnType<F['inputs']> {
  const args = item.inputs.length === 0 ? [] : decodeAbiParameters(item.inputs, slice(data, 4))
  // viem types the result from the item's inputs; the generic item is only known to be an AbiFunction here.
  return args as unknown as DecodeAbiParametersReturnType<F['inputs']>
}

/**
 * A decoder for calls to one function, its selector hashed once, on first use: the arguments, or null when `data`
 * calls something else. Throws, like decodeFunctionData, when the selector matches but the arguments do not fit.
 */
export function functionDecoder<const F extends AbiFunction>(
  item: F,
): (data: Hex) => DecodeAbiParametersReturnType<F['inputs']> | null {
  let selector: Hex | undefined
  return (data) => {
    selector ??= toFunctionSelector(item)
    return data.slice(0, 10) === selector ? decodeArguments(item, data) : null
  }
}
