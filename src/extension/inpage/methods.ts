/**
 * Which wallet methods the hook stops for review. A name is checked once, as the primitive string the hook read:
 * an intercepted name is reviewed, a name that differs from one only by case, spaces or invisible characters is
 * refused (a lenient wallet could read it as the real one), anything else passes through.
 */
import { INTERCEPTED_METHODS } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import { bare, put, stringCharCodeAt, stringToLowerCase, stringToUpperCase } from './intrinsics.ts'

export type MethodClass =
  | { kind: 'intercept'; method: InterceptedMethod }
  /**
   * `prelude`: a method a dapp sends as it uses the wallet (connecting, or estimating a transaction it is about to
   * send), worth waking the worker for and keeping it running while the page is in use (relay/keepAlive.ts).
   */
  | { kind: 'pass'; prelude: boolean }
  | { kind: 'refuse'; code: number; message: string }

const exact = bare<Record<string, InterceptedMethod>>()
const lookalike = bare<Record<string, InterceptedMethod>>()

/**
 * Characters a reader would not see, or would read as a space: Unicode's White_Space and Default_Ignorable_Code_Point
 * sets (controls and the C1 range whole), and any surrogate, since no method name has a character beyond the BMP.
 */
function isBlank(code: number): boolean {
  return (
    code <= 0x20 ||
    (code >= 0x7f && code <= 0xa0) ||
    code === 0xad ||
    code === 0x34f ||
    code === 0x61c ||
    code === 0x1680 ||
    (code >= 0x115f && code <= 0x1160) ||
    (code >= 0x17b4 && code <= 0x17b5) ||
    (code >= 0x180b && code <= 0x180f) ||
    (code >= 0x2000 && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202f) ||
    (code >= 0x205f && code <= 0x206f) ||
    code === 0x3000 ||
    code === 0x3164 ||
    (code >= 0xd800 && code <= 0xdfff) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff ||
    code === 0xffa0 ||
    (code >= 0xfff0 && code <= 0xfff8)
  )
}

/**
 * The name folded to lower case through upper case (so dotless ı and long ſ meet i and s) without blanks: what a
 * careless wallet might compare.
 */
function skeleton(name: string): string {
  const folded = stringToLowerCase(stringToUpperCase(name))
  let out = ''
  for (let index = 0; index < folded.length; index++) {
    if (!isBlank(stringCharCodeAt(folded, index))) out += folded[index]
  }
  return out
}

for (let index = 0; index < INTERCEPTED_METHODS.length; index++) {
  const method = INTERCEPTED_METHODS[index] as InterceptedMethod
  put(exact, method, method)
  put(lookalike, skeleton(method), method)
}

const PASS: MethodClass = { kind: 'pass', prelude: false }
const PRELUDE: MethodClass = { kind: 'pass', prelude: true }
/**
 * A dapp asks for the accounts as it connects (and reconnects on every load); viem, wagmi and ethers estimate a
 * transaction's gas through the wallet right before they send it.
 */
const preludes = bare<Record<string, true>>()
put(preludes, 'eth_requestAccounts', true)
put(preludes, 'eth_accounts', true)
put(preludes, 'eth_estimateGas', true)
/** Names already found to pass (a page calls the same few read methods over and over), up to a bound. */
const passing = bare<Record<string, true>>()
let passingCount = 0
const PASSING_LIMIT = 512

/** Classifies a method value read once from a request. */
export function classifyMethod(method: unknown): MethodClass {
  if (typeof method !== 'string') {
    return {
      kind: 'refuse',
      code: -32600,
      message: 'Preflight: the request method must be a string (it was read once and was not one).',
    }
  }
  const known = exact[method]
  if (known !== undefined) return { kind: 'intercept', method: known }
  if (preludes[method]) return PRELUDE
  if (passing[method]) return PASS
  if (method.length > 256) return { kind: 'refuse', code: 4200, message: 'Preflight: the method name is too long.' }
  const near = lookalike[skeleton(method)]
  if (near === undefined) {
    if (passingCount < PASSING_LIMIT) {
      passing[method] = true
      passingCount++
    }
    return PASS
  }
  return {
    kind: 'refuse',
    code: 4200,
    message: `Preflight: "${method}" is not a method it knows; did you mean ${near}? Spelled otherwise it is refused, so it cannot reach the wallet unchecked.`,
  }
}
