/** Field validators for scan requests: each returns the parsed value or an InvalidRequest naming the field and why. */
import { type Address, getAddress, type Hex, isAddress, isHex, maxUint256 } from 'viem'
import type { InvalidRequest } from './engine.ts'

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: InvalidRequest }

/** Builds the error value for a bad field. */
export function invalid(field: string, message: string): { ok: false; error: InvalidRequest } {
  return { ok: false, error: { kind: 'INVALID_REQUEST', field, message } }
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A 20-byte hex address, all lowercase, all uppercase or EIP-55 checksummed. A mixed-case address whose checksum is
 * wrong is refused: the capitals claim a checksum, so a mismatch means a typo or an edited address, and wallets
 * refuse it too.
 */
export function parseAddress(value: unknown, field: string): Parsed<Address> {
  if (typeof value !== 'string') return invalid(field, 'must be a 0x-prefixed 20-byte hex address string')
  if (!isAddress(value, { strict: false })) {
    return invalid(field, `"${value.slice(0, 60)}" is not a 20-byte hex address (0x followed by 40 hex digits)`)
  }
  const digits = value.slice(2)
  const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase()
  if (mixedCase && !isAddress(value, { strict: true })) {
    return invalid(
      field,
      `"${value}" has a wrong EIP-55 checksum (its capital letters do not match the address): check it for a typo, ` +
        'or send it all-lowercase',
    )
  }
  return { ok: true, value: getAddress(value) }
}

/** Longer amount strings are refused before parsing (a 0x-hex 2^256-1 has 66 characters, a decimal one 78). */
const MAX_AMOUNT_TEXT = 80

/** A non-negative integer up to 2^256-1 given as a decimal string, a 0x-hex string or a safe JSON integer. */
export function parseAmount(value: unknown, field: string): Parsed<bigint> {
  // 2^256 has 78 decimal digits: a longer string cannot be in range, and turning it into a BigInt costs more than
  // linear time in its length.
  if (typeof value === 'string' && value.length > MAX_AMOUNT_TEXT) {
    return invalid(field, `has ${value.length} characters; an amount up to 2^256-1 needs at most 78`)
  }
  let amount: bigint
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return invalid(field, 'must be a non-negative integer; send large amounts as decimal strings')
    }
    amount = BigInt(value)
  } else if (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)) {
    amount = BigInt(value)
  } else if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) {
    amount = BigInt(value)
  } else {
    return invalid(field, 'must be a non-negative integer as a decimal string ("1000") or a 0x-hex string ("0x3e8")')
  }
  if (amount > maxUint256) return invalid(field, 'is larger than 2^256-1')
  return { ok: true, value: amount }
}

/** Hex bytes with an even number of digits ("0x" for none). */
export function parseBytes(value: unknown, field: string): Parsed<Hex> {
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0) {
    return invalid(field, 'must be 0x-prefixed hex bytes with an even number of hex digits')
  }
  return { ok: true, value: value.toLowerCase() as Hex }
}

/** A page origin such as "https://app.example.org"; any absolute URL is accepted and reduced to its origin. */
export function parseOrigin(value: unknown, field: string): Parsed<string> {
  if (typeof value !== 'string' || value.length === 0) {
    return invalid(field, 'must be the URL of the requesting application, e.g. "https://app.example.org"')
  }
  try {
    const url = new URL(value)
    return { ok: true, value: url.origin === 'null' ? value : url.origin }
  } catch {
    return invalid(field, `"${value.slice(0, 80)}" is not an absolute URL such as "https://app.example.org"`)
  }
}
