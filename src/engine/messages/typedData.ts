/**
 * EIP-712 payloads: validation with errors that name the offending field, normalisation of the values (integers as
 * bigint, addresses and bytes in lowercase hex) and hashing through viem. Everything downstream of `parseTypedData`
 * can rely on the values matching their declared types.
 */
import {
  concat,
  getTypesForEIP712Domain,
  type Hex,
  hashDomain,
  hashStruct,
  isAddress,
  keccak256,
  numberToHex,
  stringToHex,
  type TypedDataDomain,
  validateTypedData,
} from 'viem'
import { serialize } from '../abi/index.ts'
import { type Address, type InvalidRequest, isRecord, type SerializedValue, type TypedDataField } from '../api/index.ts'

/** A value that matches its EIP-712 type: integers are bigint, addresses/bytes lowercase hex, structs are objects. */
export type TypedValue = bigint | boolean | string | TypedValue[] | { [field: string]: TypedValue }

export type TypedStruct = { [field: string]: TypedValue }

/**
 * An address the payload wrote in another form than 0x and 40 hex digits with a valid checksum (a decimal number, hex
 * without 0x, a wrong checksum, a short or a number value): wallets accept these and sign the address they read, which
 * is `address`. `field` is where it sits, e.g. `domain.verifyingContract`.
 */
export type UnusualAddress = { field: string; written: string; address: Address }

/**
 * A validated EIP-712 payload; `domain` holds exactly the fields `types.EIP712Domain` declares. `unusualAddresses`
 * lists every address written in a form other than the canonical one (see UnusualAddress). The last two fields name
 * where wallets part ways on what the payload signs: MetaMask's encoder and viem sign the domain's declared fields and
 * `primaryType`; encoders built on ethers (v5, v6) take the domain's type from the fields it holds and sign the one
 * type no other refers to, whatever `primaryType` says.
 */
export type TypedData = {
  types: Record<string, TypedDataField[]>
  domain: TypedStruct
  primaryType: string
  message: TypedStruct
  unusualAddresses: UnusualAddress[]
  /** EIP-712 domain fields (chainId, verifyingContract, …) the domain holds but `types.EIP712Domain` leaves out. */
  undeclaredDomainFields: string[]
  /** The one type nothing refers to, when that is not `primaryType`: what ethers-based wallets sign instead. */
  otherRoot: string | undefined
}

type TypedDataResult = { ok: true; typedData: TypedData } | { ok: false; error: InvalidRequest }

/** The three hashes a signer can compare with a hardware wallet: the digest signed, the domain and the struct hash. */
type TypedDataHashes = { hash: Hex; domainHash: Hex; messageHash: Hex }

/** Domain fields EIP-712 defines, with the only type each may have. */
const DOMAIN_FIELD_TYPES: Record<string, string> = {
  name: 'string',
  version: 'string',
  chainId: 'uint256',
  verifyingContract: 'address',
  salt: 'bytes32',
}

/** More struct types than any real protocol uses: a bound on the work (and recursion depth) a payload can cause. */
const MAX_TYPES = 256

/**
 * Longer field types, or more array dimensions, than any real protocol writes: reading a type's array suffixes took
 * time growing with the square of its length (9 s for `uint8[][]…` of 800 kB) and recursed once per dimension.
 */
const MAX_TYPE_TEXT = 256
const MAX_ARRAY_DIMENSIONS = 8

/** Integers longer than this cannot be in range for any EIP-712 integer type (2^256 has 78 digits). */
const MAX_INTEGER_TEXT = 80

/** Word characters only: MetaMask's encoder finds a field's struct type by its leading word characters. */
const STRUCT_NAME = /^\w+$/
/** What a type's encoding uses as syntax (its field list, separators, array suffixes): never part of a name. */
const NAME_SYNTAX = /[\s(),[\]]/
/** The leading word characters of a name: the struct MetaMask's encoder looks up for it. */
const LEADING_WORD = /^\w*/
const SOLIDITY_LIKE = /^(u?int|bytes)[0-9]*$/
const INTEGER_TYPE = /^(u?)int([0-9]+)$/
const FIXED_BYTES_TYPE = /^bytes([0-9]+)$/
const ARRAY_SUFFIX = /^(.*)\[([0-9]*)\]$/

/** What the recursive walk carries: the payload's types, and the unusual addresses found so far. */
type Walk = { types: Record<string, TypedDataField[]>; root: string; unusual: UnusualAddress[] }

/** Thrown inside the recursive walk only, and turned into an InvalidRequest value at its single entry point. */
class PayloadError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`)
  }
}

/**
 * Validates an EIP-712 payload and returns it normalised, or an error naming the field (`path` is where the payload
 * sits in the request, e.g. `message.data`), so a bad payload never reaches the hashing or the simulation.
 */
export function parseTypedData(payload: unknown, path = 'message.data'): TypedDataResult {
  try {
    return { ok: true, typedData: normalise(payload, path) }
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error
    return { ok: false, error: { kind: 'INVALID_REQUEST', field: error.field, message: error.reason } }
  }
}

/**
 * Hashes a validated payload with viem: the EIP-712 digest, the domain separator and the primary type's struct hash.
 * The digest is assembled from the other two as hashTypedData does (same validation, same parts) rather than by
 * calling it, which would hash the domain and the message a second time.
 */
export function hashTypedPayload(typedData: TypedData): TypedDataHashes {
  const { types, primaryType } = typedData
  const domain = typedData.domain as TypedDataDomain
  const message = typedData.message as Record<string, unknown>
  validateTypedData({
    domain,
    message,
    primaryType,
    types: { EIP712Domain: getTypesForEIP712Domain({ domain }), ...types },
  } as never)
  const domainHash = hashDomain({ types, domain })
  const messageHash = hashStruct({ types, primaryType, data: message })
  const parts: Hex[] = primaryType === 'EIP712Domain' ? ['0x1901', domainHash] : ['0x1901', domainHash, messageHash]
  return { hash: keccak256(concat(parts)), domainHash, messageHash }
}

/** The struct's fields as EIP-712's encodeType writes them ("address to,uint256 value"), for matching known shapes. */
export function structSignature(types: Record<string, TypedDataField[]>, typeName: string): string {
  return (types[typeName] ?? []).map((field) => `${field.type} ${field.name}`).join(',')
}

/** The primary type's fields with their values as strings, for showing any typed-data message to the user. */
export function decodeTypedMessage(typedData: TypedData): {
  primaryType: string
  fields: { name: string; type: string; value: SerializedValue }[]
} {
  // Structs are built in declared field order, so serialising their values yields ABI-style tuples.
  const fields = typedData.types[typedData.primaryType] ?? []
  return {
    primaryType: typedData.primaryType,
    fields: fields.map((field) => ({
      name: field.name,
      type: field.type,
      value: serialize(typedData.message[field.name]),
    })),
  }
}

/** Every address-typed value of the domain and the message (nested structs and arrays included), lowercase. */
export function addressesInTypedData(typedData: TypedData): Address[] {
  return [...new Set(valuesOfType(typedData, 'address').map(({ value }) => value as Address))]
}

/** Every value of the domain and the message whose type is `leafType`, nested structs and arrays included, by path. */
export function valuesOfType(typedData: TypedData, leafType: string): { path: string; value: TypedValue }[] {
  const found: { path: string; value: TypedValue }[] = []
  const visit = (type: string, value: TypedValue | undefined, path: string) => {
    if (value === undefined) return
    const array = ARRAY_SUFFIX.exec(type)
    if (array) {
      for (const [index, item] of (value as TypedValue[]).entries())
        visit(array[1] as string, item, `${path}[${index}]`)
    } else if (type === leafType) {
      found.push({ path, value })
    } else {
      for (const field of typedData.types[type] ?? []) {
        visit(field.type, (value as TypedStruct)[field.name], `${path}.${field.name}`)
      }
    }
  }
  visit('EIP712Domain', typedData.domain, 'domain')
  visit(typedData.primaryType, typedData.message, 'message')
  return found
}

function normalise(payload: unknown, path: string): TypedData {
  if (!isRecord(payload)) {
    throw new PayloadError(path, 'expected an object with types, domain, primaryType and message')
  }
  const types = parseTypes(payload.types, `${path}.types`)
  const primaryType = payload.primaryType
  if (typeof primaryType !== 'string' || primaryType === '') {
    throw new PayloadError(`${path}.primaryType`, `expected the name of a type, got ${preview(primaryType)}`)
  }
  if (primaryType === 'EIP712Domain') {
    throw new PayloadError(`${path}.primaryType`, 'EIP712Domain describes the domain; name the type of the message')
  }
  if (!types[primaryType]) {
    throw new PayloadError(`${path}.primaryType`, `"${primaryType}" is not defined in ${path}.types`)
  }
  rejectCycles(types, `${path}.types`)
  const walk: Walk = { types, root: `${path}.`, unusual: [] }
  const domain = parseDomain(walk, payload.domain, `${path}.domain`)
  if (!isRecord(payload.message)) {
    throw new PayloadError(
      `${path}.message`,
      `expected an object of ${primaryType} fields, got ${preview(payload.message)}`,
    )
  }
  const message = parseStruct(walk, primaryType, payload.message, `${path}.message`)
  const declared = new Set((types.EIP712Domain ?? []).map((field) => field.name))
  const undeclaredDomainFields = Object.keys(payload.domain as Record<string, unknown>).filter(
    (name) => Object.hasOwn(DOMAIN_FIELD_TYPES, name) && !declared.has(name),
  )
  const roots = rootTypes(types)
  const otherRoot = roots.length === 1 && roots[0] !== primaryType ? roots[0] : undefined
  return { types, domain, primaryType, message, unusualAddresses: walk.unusual, undeclaredDomainFields, otherRoot }
}

function parseTypes(value: unknown, path: string): Record<string, TypedDataField[]> {
  if (!isRecord(value)) throw new PayloadError(path, `expected an object of type definitions, got ${preview(value)}`)
  if (!Object.hasOwn(value, 'EIP712Domain')) {
    throw new PayloadError(`${path}.EIP712Domain`, 'missing: the domain type must be declared so the domain is signed')
  }
  const entries = Object.entries(value)
  if (entries.length > MAX_TYPES) throw new PayloadError(path, `declares ${entries.length} types; at most ${MAX_TYPES}`)
  // No prototype: every later `types[name]` finds declared types only, never `__proto__` or `constructor`.
  const types: Record<string, TypedDataField[]> = Object.create(null)
  for (const [name, fields] of entries) {
    const typePath = `${path}.${name}`
    if (
      NAME_SYNTAX.test(name) ||
      !LEADING_WORD.exec(name)?.[0] ||
      SOLIDITY_LIKE.test(name) ||
      name === 'address' ||
      name === 'bool' ||
      name === 'string'
    ) {
      throw new PayloadError(typePath, `"${name}" is not a valid struct type name`)
    }
    if (!Array.isArray(fields))
      throw new PayloadError(typePath, `expected an array of {name, type}, got ${preview(fields)}`)
    const seen = new Set<string>()
    types[name] = fields.map((field, index) => {
      const fieldPath = `${typePath}[${index}]`
      if (!isRecord(field) || typeof field.name !== 'string' || typeof field.type !== 'string') {
        throw new PayloadError(fieldPath, `expected {name: string, type: string}, got ${preview(field)}`)
      }
      if (field.name === '') throw new PayloadError(`${fieldPath}.name`, 'empty field name')
      if (field.type.length > MAX_TYPE_TEXT) {
        throw new PayloadError(`${fieldPath}.type`, `longer than ${MAX_TYPE_TEXT} characters`)
      }
      if (field.type.split('[').length - 1 > MAX_ARRAY_DIMENSIONS) {
        throw new PayloadError(`${fieldPath}.type`, `more than ${MAX_ARRAY_DIMENSIONS} array dimensions`)
      }
      if (seen.has(field.name)) throw new PayloadError(`${fieldPath}.name`, `"${field.name}" is declared twice`)
      seen.add(field.name)
      return { name: field.name, type: field.type }
    })
  }
  for (const [name, fields] of Object.entries(types)) {
    fields.forEach((field, index) => {
      if (!isKnownType(types, field.type)) {
        throw new PayloadError(
          `${path}.${name}[${index}].type`,
          `"${field.type}" is neither an EIP-712 type nor defined`,
        )
      }
    })
  }
  for (const name of Object.keys(types)) {
    if (!STRUCT_NAME.test(name) && !isEncodedAlike(types, name)) {
      throw new PayloadError(
        `${path}.${name}`,
        `"${name}" is not a valid struct type name: wallets look a struct up by the word characters its name begins ` +
          'with, so one they reach through a field, or one that holds structs, would be encoded differently by each',
      )
    }
  }
  ;(types.EIP712Domain ?? []).forEach((field, index) => {
    const expected = Object.hasOwn(DOMAIN_FIELD_TYPES, field.name) ? DOMAIN_FIELD_TYPES[field.name] : undefined
    if (expected && field.type !== expected) {
      throw new PayloadError(
        `${path}.EIP712Domain[${index}].type`,
        `${field.name} must be ${expected}, got "${field.type}"`,
      )
    }
  })
  return types
}

/**
 * Whether every wallet encodes a struct whose name goes past word characters (Hyperliquid signs
 * `HyperliquidTransaction:ApproveAgent`) as it is written. MetaMask's encoder, and viem's after it, find a struct's
 * dependencies under its leading word characters only: that is harmless for a struct no field refers to, whose own
 * fields hold no struct, and whose leading word names no other struct.
 */
function isEncodedAlike(types: Record<string, TypedDataField[]>, name: string): boolean {
  const fields = Object.values(types).flat()
  const leading = LEADING_WORD.exec(name)?.[0] ?? ''
  return (
    !Object.hasOwn(types, leading) &&
    fields.every((field) => baseType(field.type) !== name) &&
    (types[name] ?? []).every((field) => !Object.hasOwn(types, baseType(field.type)))
  )
}

function isKnownType(types: Record<string, TypedDataField[]>, type: string): boolean {
  const array = ARRAY_SUFFIX.exec(type)
  if (array) return isKnownType(types, array[1] as string)
  if (Object.hasOwn(types, type)) return true
  if (type === 'address' || type === 'bool' || type === 'string' || type === 'bytes') return true
  const integer = INTEGER_TYPE.exec(type)
  if (integer) return isIntegerSize(Number(integer[2]))
  const bytes = FIXED_BYTES_TYPE.exec(type)
  return bytes ? Number(bytes[1]) >= 1 && Number(bytes[1]) <= 32 : false
}

function isIntegerSize(bits: number): boolean {
  return bits >= 8 && bits <= 256 && bits % 8 === 0
}

/** A type that contains itself can only be satisfied by an infinite value (or an empty array): refuse it outright. */
function rejectCycles(types: Record<string, TypedDataField[]>, path: string): void {
  const done = new Set<string>()
  const visit = (name: string, trail: string[]) => {
    if (done.has(name)) return
    const start = trail.indexOf(name)
    if (start !== -1) {
      const cycle = [...trail.slice(start), name].join(' → ')
      throw new PayloadError(`${path}.${name}`, `cyclic type: ${cycle} refers back to itself`)
    }
    for (const field of types[name] ?? []) {
      const base = baseType(field.type)
      if (types[base]) visit(base, [...trail, name])
    }
    done.add(name)
  }
  for (const name of Object.keys(types)) visit(name, [])
}

/** The struct types no other struct refers to (the domain's aside): the candidates for what is signed. */
function rootTypes(types: Record<string, TypedDataField[]>): string[] {
  const referred = new Set<string>()
  for (const fields of Object.values(types)) for (const field of fields) referred.add(baseType(field.type))
  return Object.keys(types).filter((name) => name !== 'EIP712Domain' && !referred.has(name))
}

function baseType(type: string): string {
  return type.replace(/(\[[0-9]*\])+$/, '')
}

function parseDomain(walk: Walk, value: unknown, path: string): TypedStruct {
  if (!isRecord(value)) throw new PayloadError(path, `expected an object, got ${preview(value)}`)
  const declared = walk.types.EIP712Domain ?? []
  if (declared.length === 0 || Object.keys(value).length === 0) {
    throw new PayloadError(path, 'empty: a domain must name at least the contract or chain the signature is for')
  }
  return parseStruct(walk, 'EIP712Domain', value, path)
}

function parseStruct(walk: Walk, typeName: string, value: Record<string, unknown>, path: string): TypedStruct {
  const struct: TypedStruct = Object.create(null)
  for (const field of walk.types[typeName] ?? []) {
    const fieldPath = `${path}.${field.name}`
    // Own properties only: a field named `constructor` must not find Object's.
    const fieldValue = Object.hasOwn(value, field.name) ? value[field.name] : undefined
    if (fieldValue === undefined || fieldValue === null) {
      throw new PayloadError(fieldPath, `missing (declared as ${field.type} in ${typeName})`)
    }
    struct[field.name] = parseValue(walk, field.type, fieldValue, fieldPath)
  }
  return struct
}

function parseValue(walk: Walk, type: string, value: unknown, path: string): TypedValue {
  const fail = (): never => {
    throw new PayloadError(path, `expected ${type}, got ${preview(value)}`)
  }
  const array = ARRAY_SUFFIX.exec(type)
  if (array) {
    if (!Array.isArray(value)) return fail()
    const length = array[2]
    if (length !== '' && value.length !== Number(length)) {
      throw new PayloadError(path, `expected ${type} with ${length} items, got ${value.length}`)
    }
    return value.map((item, index) => parseValue(walk, array[1] as string, item, `${path}[${index}]`))
  }
  if (walk.types[type]) {
    if (!isRecord(value)) return fail()
    return parseStruct(walk, type, value, path)
  }
  if (type === 'address') return parseAddress(walk, value, path)
  // Some wallets sign the string "false" as true: a bool written as text is refused, not guessed.
  if (type === 'bool') return typeof value === 'boolean' ? value : fail()
  if (type === 'string') return typeof value === 'string' ? value : fail()
  if (type === 'bytes') {
    if (typeof value !== 'string') return fail()
    // MetaMask's encoder reads "0X…" as hex and viem as text: the two sign different bytes.
    if (value.startsWith('0X')) throw upperCaseHex('bytes', value, path)
    // As wallets encode bytes: 0x-hex (an odd digit count gets a leading zero), any other text as its UTF-8 bytes.
    if (/^0x[0-9a-f]*$/i.test(value)) return `0x${value.length % 2 === 0 ? '' : '0'}${value.slice(2)}`.toLowerCase()
    return stringToHex(value)
  }
  const bytes = FIXED_BYTES_TYPE.exec(type)
  if (bytes) {
    const size = Number(bytes[1])
    const pattern = new RegExp(`^0x[0-9a-fA-F]{${size * 2}}$`)
    return typeof value === 'string' && pattern.test(value) ? value.toLowerCase() : fail()
  }
  const integer = INTEGER_TYPE.exec(type)
  if (integer) return parseInteger(value, integer[1] === 'u', Number(integer[2]), type, path)
  return fail()
}

function parseInteger(value: unknown, unsigned: boolean, bits: number, type: string, path: string): bigint {
  const number = toBigInt(value, type, path)
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1))
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n
  if (number < min || number > max) {
    throw new PayloadError(path, `expected ${type}, got ${preview(value)} (out of range ${min} to ${max})`)
  }
  return number
}

/**
 * An address in every form MetaMask's EIP-712 encoder (@metamask/eth-sig-util, signTypedData_v4) accepts, read as it
 * reads it, so the scan sees the address the wallet signs: 0x-hex of up to 20 bytes in any case (left-padded with
 * zeros), a JavaScript number, and any other text through the encoder's base-10 reading (decimal digits, with letters
 * worth 10 to 35, the legacy ethereumjs-abi behaviour). Anything but 0x and 40 hex digits with a valid (or no)
 * checksum is noted as unusual.
 */
function parseAddress(walk: Walk, value: unknown, path: string): Address {
  let address: Address
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new PayloadError(path, `expected address, got the number ${preview(value)}`)
    }
    address = numberToHex(value, { size: 20 })
  } else if (typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value)) {
    const digits = value.slice(2).replace(/^0+/, '')
    if (value.length > 42) {
      // The wallet refuses it too ("expected address to be 20 bytes"), even when the extra digits are zeros.
      throw new PayloadError(path, `expected address, got ${preview(value)} (more than 20 bytes)`)
    }
    address = `0x${digits.padStart(40, '0')}`.toLowerCase() as Address
  } else if (typeof value === 'string' && value.length > 0 && value.length <= MAX_INTEGER_TEXT) {
    const reading = base10Reading(value)
    // Characters below "0" (a space, a minus) read as negative digits: no address, and the wallet refuses it too.
    if (reading < 0n) throw new PayloadError(path, `expected address, got ${preview(value)}`)
    address = numberToHex(leadingBytes(reading, 20), { size: 20 })
  } else {
    throw new PayloadError(path, `expected address, got ${preview(value)}`)
  }
  if (!isCanonicalAddress(value)) {
    walk.unusual.push({ field: path.slice(walk.root.length), written: String(value), address })
  }
  return address
}

/** 0x and 40 hex digits, all lowercase, all uppercase or with a valid EIP-55 checksum. */
function isCanonicalAddress(value: unknown): boolean {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false
  const digits = value.slice(2)
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || isAddress(value, { strict: true })
}

/** The legacy encoder's reading of text as a number: each character a base-10 digit, letters worth 10 to 35. */
function base10Reading(text: string): bigint {
  let result = 0n
  for (let index = 0; index < text.length; index++) {
    const code = BigInt(text.charCodeAt(index) - 48)
    result *= 10n
    if (code >= 49n) result += code - 49n + 10n
    else if (code >= 17n) result += code - 17n + 10n
    else result += code
  }
  return result
}

/** The first `size` bytes of a non-negative number's big-endian bytes, as the encoder truncates a long value. */
function leadingBytes(value: bigint, size: number): bigint {
  const length = value === 0n ? 1 : Math.ceil(value.toString(16).length / 2)
  return length <= size ? value : value >> BigInt((length - size) * 8)
}

function toBigInt(value: unknown, type: string, path: string): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      throw new PayloadError(path, `expected ${type}, got ${preview(value)} (not an integer)`)
    if (!Number.isSafeInteger(value)) {
      throw new PayloadError(
        path,
        `expected ${type}, got the number ${value}, beyond 2^53 where JSON numbers lose precision; send it as a string`,
      )
    }
    return BigInt(value)
  }
  if (typeof value === 'string') {
    if (value.length > MAX_INTEGER_TEXT) {
      throw new PayloadError(path, `expected ${type}, got a ${value.length}-character number (out of range)`)
    }
    // ethers 5 reads "0X…" as another number (bn.js takes the X for a hex digit) where BigInt() and the others read
    // the hex after it: what is shown would not be what such a wallet signs.
    if (/^\s*-?0X/.test(value)) throw upperCaseHex(type, value, path)
    // Wallets read integer text with BigInt(): decimal, 0x, 0o or 0b, surrounding spaces, "" as 0.
    try {
      return BigInt(value)
    } catch {
      throw new PayloadError(path, `expected ${type}, got ${preview(value)}`)
    }
  }
  throw new PayloadError(path, `expected ${type}, got ${preview(value)}`)
}

/** The refusal of hex written with `0X`, which wallets read as different values (see its callers). */
function upperCaseHex(type: string, value: string, path: string): PayloadError {
  return new PayloadError(
    path,
    `expected ${type}, got ${preview(value)}: write 0x in lowercase, wallets read 0X differently`,
  )
}

/** A short rendering of a bad value for error messages (page input can be huge). */
function preview(value: unknown): string {
  if (value === undefined) return 'nothing'
  let text: string
  try {
    text = typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value))
  } catch {
    text = Object.prototype.toString.call(value)
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}
