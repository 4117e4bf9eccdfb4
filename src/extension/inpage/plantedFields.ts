/**
 * Fields a wallet in the page's world would read from the page instead of from the request. The params the hook
 * forwards are ordinary objects of this world, so a wallet that reads `tx.value` from a transaction that has none gets
 * whatever the page put on `Object.prototype`: an amount, a recipient, a fee or a domain's chain the window never
 * showed. Typed data given as JSON text is parsed by the wallet into objects of this world, so the same holds for
 * it, and for an item a wallet reads past an array's end (a param the request leaves out, or an item of a fixed-size
 * typed-data array the message is short of) that the page put on the prototypes arrays read through. Items within an
 * array's length are its own: the hook's copy and the worker's params hold no holes. A batch's capabilities and an
 * ERC-7715 permission request are open sets of names with fields of their own, so there any name the page added to
 * Object.prototype counts, and one added to the prototype a list, text, number or boolean found there reads through
 * first. The hook looks for such a field when a request arrives and again before it forwards what the user continued;
 * finding one, it forwards nothing.
 */
import type { ProviderError } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import { TX_QUANTITIES, TX_UNSUPPORTED } from '../shared/txFields.ts'
import {
  ArrayPrototype,
  append,
  BigIntPrototype,
  BooleanPrototype,
  getPrototypeOf,
  hasOwn,
  isArray,
  jsonParse,
  NumberPrototype,
  ObjectPrototype,
  ownKeys,
  ownValue,
  StringPrototype,
  SymbolPrototype,
  stringCharCodeAt,
  stringSlice,
} from './intrinsics.ts'

/** What a wallet reads from a transaction: every field that can change what it signs or pays. */
const TRANSACTION_FIELDS: string[] = ['from', 'to', 'data', 'input', 'chainId', 'accessList']
// Filled at document_start, before any page script can change what these loops use.
for (let index = 0; index < TX_QUANTITIES.length; index++) append(TRANSACTION_FIELDS, TX_QUANTITIES[index] as string)
const unsupported = ownKeys(TX_UNSUPPORTED)
for (let index = 0; index < unsupported.length; index++) append(TRANSACTION_FIELDS, unsupported[index] as string)
/** What a wallet reads from each call of a `wallet_sendCalls` batch. */
const CALL_FIELDS: string[] = ['capabilities']
for (let index = 0; index < TRANSACTION_FIELDS.length; index++) append(CALL_FIELDS, TRANSACTION_FIELDS[index] as string)
/** What a wallet reads from a `wallet_sendCalls` batch besides its calls' own fields. */
const BATCH_FIELDS = ['version', 'from', 'chainId', 'calls', 'atomicRequired', 'capabilities']
/** What a wallet reads from typed data given as an object, and from its domain. */
const TYPED_DATA_FIELDS = ['types', 'primaryType', 'domain', 'message']
const DOMAIN_FIELDS = ['name', 'version', 'chainId', 'verifyingContract', 'salt']
/** What a wallet reads from each field of a typed-data struct type. */
const TYPE_FIELD_FIELDS = ['name', 'type']
/** What a wallet reads from each entry of legacy (v1) typed data, a list. */
const LEGACY_ENTRY_FIELDS = ['type', 'name', 'value']
/** How deep the check walks a typed-data value, so its cost is bounded whatever the page sends. */
const MAX_STRUCT_DEPTH = 32
/** How deep and how many objects the check walks in a batch's capabilities, for the same reason. */
const MAX_CAPABILITY_DEPTH = 8
const MAX_CAPABILITY_OBJECTS = 256
/**
 * The prototypes a capability value reads a missing name through, with their own names at document_start, before any
 * page script. Capabilities (EIP-5792) are an open set a wallet looks up by name (`paymasterService`, its `url`, …),
 * so any name the page adds later can be read as one: from an object through Object.prototype, and from a list, text,
 * a number or a boolean through its own prototype first.
 */
const BUILTIN_NAMES: [prototype: object, names: PropertyKey[], label: string][] = [
  [ObjectPrototype, ownKeys(ObjectPrototype), 'Object.prototype'],
  [ArrayPrototype, ownKeys(ArrayPrototype), 'Array.prototype'],
  [StringPrototype, ownKeys(StringPrototype), 'String.prototype'],
  [NumberPrototype, ownKeys(NumberPrototype), 'Number.prototype'],
  [BooleanPrototype, ownKeys(BooleanPrototype), 'Boolean.prototype'],
]
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
/** Past this an index is no array's: 2^32 - 1 is the largest array length. */
const MAX_INDEX = 4_294_967_294

/**
 * A planted field: where it is missing, and its name (an object's field) or its index (an array's item); or where a
 * value reads every missing field through an object the page put beneath a builtin prototype.
 */
export type PlantedField =
  | { where: string; name: string; on?: string }
  | { where: string; index: number }
  | { where: string; beneath: string }

/** The number a decimal string of digits spells (no sign, no leading zero), or undefined. */
function decimal(text: string): number | undefined {
  if (text.length === 0 || text.length > 10 || (text.length > 1 && stringCharCodeAt(text, 0) === DIGIT_0)) {
    return undefined
  }
  let value = 0
  for (let index = 0; index < text.length; index++) {
    const code = stringCharCodeAt(text, index)
    if (code < DIGIT_0 || code > DIGIT_9) return undefined
    value = value * 10 + (code - DIGIT_0)
  }
  return value
}

/** Where a read past an array's end can land on the page's value: the indexes it defined, or any (see below). */
type PlantedIndexes = { any: boolean; indexes: number[] }

/** Appends the array indexes among `target`'s own keys. */
function collectIndexes(target: object, indexes: number[]): void {
  const keys = ownKeys(target)
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at]
    const index = typeof key === 'string' ? decimal(key) : undefined
    if (index !== undefined && index <= MAX_INDEX) append(indexes, index)
  }
}

/**
 * The indexes a read past an array's end finds, read once per check: almost always none, so arrays cost nothing to
 * check, and an array's declared size, however large, is never looped over. Such a read looks in Array.prototype, then
 * in Object.prototype; a page that put an object of its own between them (a Proxy could answer for any index) makes
 * every index suspect.
 */
function plantedIndexes(): PlantedIndexes {
  const indexes: number[] = []
  if (getPrototypeOf(ArrayPrototype) !== ObjectPrototype) return { any: true, indexes }
  collectIndexes(ArrayPrototype, indexes)
  collectIndexes(ObjectPrototype, indexes)
  return { any: false, indexes }
}

/** The first planted index at or past `list`'s end and below `size`, the count of items a wallet reads from it. */
function plantedItem(planted: PlantedIndexes, list: unknown[], size: number, where: string): PlantedField | undefined {
  if (planted.any) return list.length < size ? { where, index: list.length } : undefined
  const { indexes } = planted
  for (let at = 0; at < indexes.length; at++) {
    const index = indexes[at] as number
    if (index >= list.length && index < size) return { where, index }
  }
  return undefined
}

/**
 * The prototype a wallet reads a missing field of `value` through before Object.prototype, with its name: a list's or
 * a primitive's (a struct given as text reads its fields from String.prototype); undefined for other objects.
 */
function readSeat(value: unknown): [prototype: object, label: string] | undefined {
  if (isArray(value)) return [ArrayPrototype, 'Array.prototype']
  switch (typeof value) {
    case 'string':
      return [StringPrototype, 'String.prototype']
    case 'number':
      return [NumberPrototype, 'Number.prototype']
    case 'boolean':
      return [BooleanPrototype, 'Boolean.prototype']
    case 'bigint':
      return [BigIntPrototype, 'BigInt.prototype']
    case 'symbol':
      return [SymbolPrototype, 'Symbol.prototype']
    default:
      return undefined
  }
}

/**
 * What a read of `name` from `target`, which lacks it, finds of the page's: a field on Object.prototype, one on the
 * prototype a list or a primitive reads through first, or anything when the page put an object of its own beneath
 * that prototype; undefined when the read finds nothing of the page's.
 */
function plantedName(target: unknown, name: string, where: string): PlantedField | undefined {
  if (target === null || target === undefined || hasOwn(target as object, name)) return undefined
  const seat = readSeat(target)
  if (seat !== undefined) {
    if (getPrototypeOf(seat[0]) !== ObjectPrototype) return { where, beneath: seat[1] }
    if (hasOwn(seat[0], name)) return { where, name, on: seat[1] }
  }
  return hasOwn(ObjectPrototype, name) ? { where, name } : undefined
}

/** The first of `names` that `target` lacks and a read of it finds where the page defined it. */
function plantedIn(target: unknown, names: readonly string[], where: string): PlantedField | undefined {
  for (let index = 0; index < names.length; index++) {
    const found = plantedName(target, names[index] as string, where)
    if (found) return found
  }
  return undefined
}

/** The first planted field missing from an object in `list`, named by its place ("call 2"). */
function plantedInEach(list: unknown[], names: readonly string[], what: string): PlantedField | undefined {
  for (let index = 0; index < list.length; index++) {
    const found = plantedIn(ownValue(list, index), names, `${what} ${index}`)
    if (found) return found
  }
  return undefined
}

/** The names on `prototype` that were not among `builtin` at document_start: the page put them there. */
function addedNames(prototype: object, builtin: PropertyKey[], added: string[]): void {
  const names = ownKeys(prototype)
  for (let index = 0; index < names.length; index++) {
    const name = names[index]
    if (typeof name !== 'string') continue
    let known = false
    for (let at = 0; at < builtin.length && !known; at++) known = builtin[at] === name
    if (!known) append(added, name)
  }
}

/**
 * What a read of a missing field finds, for each kind of value in BUILTIN_NAMES' order (object, list, text, number,
 * boolean): the names the page added, Object.prototype's and the kind's own prototype's before them; and, where the
 * page put an object of its own beneath the kind's prototype (a Proxy there answers any name), that prototype's name.
 */
type Readable = { names: string[][]; beneath: (string | undefined)[] }

function readableNames(): Readable {
  const readable: Readable = { names: [], beneath: [] }
  for (let index = 0; index < BUILTIN_NAMES.length; index++) {
    const entry = BUILTIN_NAMES[index] as [object, PropertyKey[], string]
    const names: string[] = []
    addedNames(entry[0], entry[1], names)
    const onObjects = readable.names[0]
    if (onObjects) for (let at = 0; at < onObjects.length; at++) append(names, onObjects[at] as string)
    append(readable.names, names)
    const under = getPrototypeOf(entry[0])
    append(readable.beneath, index === 0 || under === ObjectPrototype ? undefined : entry[2])
  }
  return readable
}

/** Where a value's kind stands in BUILTIN_NAMES, or -1 for null and undefined, whose fields no wallet reads. */
function kindOf(value: unknown): number {
  if (value === null || value === undefined) return -1
  if (isArray(value)) return 1
  if (typeof value === 'string') return 2
  if (typeof value === 'number') return 3
  if (typeof value === 'boolean') return 4
  return 0
}

/**
 * The first value in a capabilities value or an ERC-7715 permission request (itself, or one nested in it, lists' items
 * included) that lacks a name the page added where a read of it looks: a wallet looking that capability or field up
 * reads the page's value. Lists and plain values count as objects do where a wallet looks a capability up (the
 * capabilities themselves, and each capability's value), for reading a field of them finds the page's too; deeper, a
 * wallet reads a list's items and takes text as it is, so a name a polyfill added to Array.prototype or
 * String.prototype does not refuse a paymaster's URL. Where a kind's prototype has an object of the page's beneath it,
 * which can answer any name, a value of that kind is suspect whatever it holds. Walked with a bound on depth and count;
 * past it the value is suspect as soon as the page added any name.
 */
function plantedInCapabilities(capabilities: unknown, where: string, readable: Readable): PlantedField | undefined {
  let anyAdded: string | undefined
  let anyBeneath: string | undefined
  for (let index = 0; index < readable.names.length; index++) {
    anyAdded ??= (readable.names[index] as string[])[0]
    anyBeneath ??= readable.beneath[index]
  }
  if (anyAdded === undefined && anyBeneath === undefined) return undefined
  const pending: { value: unknown; depth: number }[] = [{ value: capabilities, depth: 0 }]
  for (let visited = 0; visited < pending.length; visited++) {
    const { value, depth } = pending[visited] as { value: unknown; depth: number }
    const kind = kindOf(value)
    if (kind < 0) continue
    if (visited >= MAX_CAPABILITY_OBJECTS || depth > MAX_CAPABILITY_DEPTH) {
      return anyAdded !== undefined ? { where, name: anyAdded } : { where, beneath: anyBeneath as string }
    }
    if (kind === 0 || depth <= 1) {
      const found = plantedAnywhere(value, where, readable)
      if (found) return found
    }
    if (typeof value !== 'object') continue
    const keys = ownKeys(value as object)
    for (let index = 0; index < keys.length; index++) {
      append(pending, { value: ownValue(value, keys[index] as PropertyKey), depth: depth + 1 })
    }
  }
  return undefined
}

/**
 * A name the page added that `value` lacks where a read of it looks (its kind's prototype, then Object.prototype), or
 * the prototype the page put an object of its own beneath: for a value a wallet may read any field of.
 */
function plantedAnywhere(value: unknown, where: string, readable: Readable): PlantedField | undefined {
  const kind = kindOf(value)
  if (kind < 0) return undefined
  const beneath = readable.beneath[kind]
  if (beneath !== undefined) return { where, beneath }
  const names = readable.names[kind] as string[]
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string
    if (!hasOwn(value as object, name)) return { where, name }
  }
  return undefined
}

/** The element type of an EIP-712 array type ("Person[2]" → "Person"), or undefined for a type that is no array. */
function elementType(type: string): string | undefined {
  if (type.length === 0 || stringCharCodeAt(type, type.length - 1) !== CLOSE_BRACKET) return undefined
  for (let index = type.length - 2; index >= 0; index--) {
    if (stringCharCodeAt(type, index) === OPEN_BRACKET) return stringSlice(type, 0, index) as string
  }
  return undefined
}

/**
 * How many items a wallet may read from a value of the EIP-712 array type whose element type is `element`: its
 * fixed size ("Person[2]" → 2), none past the end for a dynamic one ("Person[]"), and any number for a size that is
 * no plain decimal ("Person[02]"), which wallets read in different ways.
 */
function arraySize(type: string, element: string): number {
  const text = stringSlice(type, element.length + 1, type.length - 1) as string
  if (text.length === 0) return 0
  const size = decimal(text)
  return size === undefined ? MAX_INDEX + 1 : size
}

/** The type an EIP-712 type is an array (of arrays…) of: "Person[2][]" → "Person". */
function baseType(type: string): string {
  let base = type
  for (let element = elementType(base); element !== undefined; element = elementType(base)) base = element
  return base
}

/** A type name the data uses and `types` lacks, when the page defined it where a read of it looks. */
function plantedType(types: unknown, name: string): PlantedField | undefined {
  return plantedName(types, name, 'the types')
}

/**
 * A planted part of the type definitions a wallet reads to encode typed data, whatever the values: the primary type
 * or the domain's type looked up where `types` lacks it (a wallet that reads `types[name]` takes a struct from the
 * page, even for "address"), or a field missing its name or type.
 */
function plantedInTypes(types: unknown, primaryType: string): PlantedField | undefined {
  const top = plantedType(types, primaryType) ?? plantedType(types, 'EIP712Domain')
  if (top || types === null || typeof types !== 'object') return top
  const structs = ownKeys(types)
  for (let index = 0; index < structs.length; index++) {
    const struct = structs[index]
    const fields = typeof struct === 'string' ? ownValue(types, struct) : undefined
    if (!isArray(fields)) continue
    for (let at = 0; at < fields.length; at++) {
      const field = ownValue(fields, at)
      const entry = plantedIn(field, TYPE_FIELD_FIELDS, `field ${at} of type ${struct as string}`)
      if (entry) return entry
      const type = ownValue(field, 'type')
      const used = typeof type === 'string' ? plantedType(types, baseType(type)) : undefined
      if (used) return used
    }
  }
  return undefined
}

/** What a check of typed data reads once: the indexes and the names the page planted. */
type Planted = { indexes: PlantedIndexes; readable: Readable }

/**
 * The first field of a typed-data value that its `types` declare and it lacks where a wallet encoding it would read
 * it, walking structs and arrays of them as the encoder does. A struct or a list given as text, a number or a
 * boolean (or a struct as a list, a list as an object) has its fields and list methods read from the page's
 * prototypes.
 */
function plantedInValue(
  types: unknown,
  type: string,
  value: unknown,
  where: string,
  depth: number,
  planted: Planted,
): PlantedField | undefined {
  if (depth > MAX_STRUCT_DEPTH || value === null || value === undefined) return undefined
  const element = elementType(type)
  if (element !== undefined) {
    if (!isArray(value)) return plantedAnywhere(value, where, planted.readable)
    const short = plantedItem(planted.indexes, value, arraySize(type, element), where)
    if (short) return short
    for (let index = 0; index < value.length; index++) {
      const found = plantedInValue(types, element, ownValue(value, index), `${where}[${index}]`, depth + 1, planted)
      if (found) return found
    }
    return undefined
  }
  const fields = ownValue(types, type)
  if (!isArray(fields)) return undefined
  for (let index = 0; index < fields.length; index++) {
    const field = ownValue(fields, index)
    const name = ownValue(field, 'name')
    const fieldType = ownValue(field, 'type')
    if (typeof name !== 'string' || typeof fieldType !== 'string') continue
    const missing = plantedName(value, name, where)
    if (missing) return missing
    if (!hasOwn(value as object, name)) continue
    const found = plantedInValue(types, fieldType, ownValue(value, name), `${where}.${name}`, depth + 1, planted)
    if (found) return found
  }
  return undefined
}

/**
 * Typed data as a wallet reads it, given as an object or as the JSON text it parses into objects of this world: its
 * own fields, its type definitions, its domain's fields, and its message's as its types declare them.
 */
function plantedInTypedData(given: unknown, planted: Planted): PlantedField | undefined {
  let data = given
  if (typeof given === 'string') {
    try {
      data = jsonParse(given)
    } catch {
      return undefined
    }
  }
  if (isArray(data)) return plantedInEach(data, LEGACY_ENTRY_FIELDS, 'entry')
  const found =
    plantedIn(data, TYPED_DATA_FIELDS, 'the typed data') ??
    plantedIn(ownValue(data, 'domain'), DOMAIN_FIELDS, 'the domain')
  if (found) return found
  const types = ownValue(data, 'types')
  const primaryType = ownValue(data, 'primaryType')
  if (types === null || types === undefined || typeof primaryType !== 'string') return undefined
  return (
    plantedInTypes(types, primaryType) ??
    plantedInValue(types, 'EIP712Domain', ownValue(data, 'domain'), 'the domain', 0, planted) ??
    plantedInValue(types, primaryType, ownValue(data, 'message'), 'the message', 0, planted)
  )
}

/**
 * The first field the forwarded `params` leave out and the page defined on `Object.prototype`, among those a wallet
 * reads for `method`; undefined when the wallet can only read what the window showed.
 */
export function plantedField(method: InterceptedMethod, params: unknown): PlantedField | undefined {
  if (!isArray(params)) return undefined
  const indexes = plantedIndexes()
  const param = plantedItem(indexes, params, paramsRead(method), 'the list of params')
  if (param) return param
  const first = ownValue(params, 0)
  switch (method) {
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
    case 'eth_signTransaction':
      return plantedIn(first, TRANSACTION_FIELDS, 'the transaction')
    case 'wallet_sendCalls': {
      const calls = ownValue(first, 'calls')
      const field =
        plantedIn(first, BATCH_FIELDS, 'the batch') ??
        (isArray(calls) ? plantedInEach(calls, CALL_FIELDS, 'call') : undefined)
      if (field) return field
      const readable = readableNames()
      const shared = plantedInCapabilities(ownValue(first, 'capabilities'), "the batch's capabilities", readable)
      if (shared || !isArray(calls)) return shared
      for (let index = 0; index < calls.length; index++) {
        const where = `the capabilities of call ${index}`
        const found = plantedInCapabilities(ownValue(ownValue(calls, index), 'capabilities'), where, readable)
        if (found) return found
      }
      return undefined
    }
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
      // ERC-7715 requests, like capabilities, are an open set of fields (rules, policies, expiry, …) wallets add to.
      return plantedInCapabilities(first, 'the permission request', readableNames())
    case 'eth_signTypedData':
    case 'eth_signTypedData_v1':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v4': {
      const planted = { indexes, readable: readableNames() }
      for (let index = 0; index < params.length; index++) {
        const found = plantedInTypedData(ownValue(params, index), planted)
        if (found) return found
      }
      return undefined
    }
    default:
      return undefined
  }
}

/** How many positional params a wallet reads for `method`: the transaction or batch, or the data and the signer. */
function paramsRead(method: InterceptedMethod): number {
  switch (method) {
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
    case 'eth_signTransaction':
    case 'eth_sendRawTransaction':
    case 'eth_sendRawTransactionSync':
    case 'wallet_sendCalls':
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
      return 1
    default:
      return 2
  }
}

/**
 * Whether a wallet reading `payload.method` of `value`, a primitive given where a request belongs, would get one the
 * page defined. A number or a text has no fields of its own: a wallet that reads the method of whatever it is given
 * (MetaMask-style `_rpcRequest` and engines do) reads it from the primitive's prototype, from an object the page put
 * beneath that, or from Object.prototype, and sends what the page put there without anything to review.
 */
export function plantedMethod(value: unknown): boolean {
  if (value === null || typeof value === 'object' || typeof value === 'function') return false
  return plantedName(value, 'method', 'the request') !== undefined
}

/** Why the hook sent nothing: the wallet could have read a field the page planted instead of the one checked. */
export function plantedError(planted: PlantedField): ProviderError {
  let missing: string
  if (hasOwn(planted, 'name')) {
    const { where, name, on } = planted as { where: string; name: string; on?: string }
    missing =
      on === undefined
        ? `${where} has no "${name}", and the page defined "${name}" on every object (Object.prototype)`
        : `${where} has no "${name}", and the page defined "${name}" on ${on}`
  } else if (hasOwn(planted, 'beneath')) {
    const { where, beneath } = planted as { where: string; beneath: string }
    missing = `${where} reads any field it lacks through an object the page put beneath ${beneath}`
  } else {
    const { where, index } = planted as { where: string; index: number }
    missing = `${where} ends before item ${index}, and the page gave every array an item ${index} (on Array.prototype or what it inherits from)`
  }
  return {
    code: -32603,
    message: `Preflight did not send this to the wallet: ${missing}, so the wallet could have read the page's value instead of what Preflight checked. Reload the page and try again.`,
  }
}
