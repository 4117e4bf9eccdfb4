/**
 * Turns a failed call's return data into a reason a person can read: Error(string) (Safe's GS0xx codes explained),
 * Panic, known custom errors.
 */
import { decodeErrorResult, formatUnits, type Hex, size } from 'viem'
import { knownErrorsAbi } from './abis.ts'

const PANIC_REASONS: Record<number, string> = {
  1: 'an assertion failed',
  17: 'an arithmetic operation overflowed or underflowed',
  18: 'division or modulo by zero',
  33: 'a value was converted to an invalid enum',
  34: 'storage byte array was incorrectly encoded',
  49: 'pop() on an empty array',
  50: 'an array index was out of bounds',
  65: 'too much memory was allocated',
  81: 'an uninitialised function was called',
}

/** The revert reason (raw, for `revertReason`) and an explanation (for `humanReadableError`). */
type DecodedRevert = { reason: string; explanation: string }

/** Decodes revert data; unknown data is reported by its selector so a person can look it up. */
export function decodeRevert(data: Hex): DecodedRevert {
  if (size(data) === 0) {
    return { reason: 'execution reverted', explanation: 'The transaction reverted without giving a reason.' }
  }
  try {
    const decoded = decodeErrorResult({ abi: knownErrorsAbi, data }) as { errorName: string; args?: readonly unknown[] }
    if (decoded.errorName === 'Error') {
      const message = String(decoded.args?.[0] ?? '')
      const safe = explainSafeCode(message)
      return {
        reason: `execution reverted: ${message}`,
        explanation: safe ? `The transaction would fail. ${safe}.` : `The transaction would fail: ${message}.`,
      }
    }
    if (decoded.errorName === 'Panic') {
      const code = Number(decoded.args?.[0] ?? 0)
      const meaning = PANIC_REASONS[code] ?? 'the contract panicked'
      return {
        reason: `execution reverted: Panic(0x${code.toString(16).padStart(2, '0')})`,
        explanation: `The transaction would fail: ${meaning}.`,
      }
    }
    const args = (decoded.args ?? []).map((arg) => (typeof arg === 'bigint' ? arg.toString() : String(arg)))
    return {
      reason: `execution reverted: ${decoded.errorName}(${args.join(', ')})`,
      explanation: `The transaction would fail: ${explainCustomError(decoded.errorName, decoded.args ?? [])}.`,
    }
  } catch {
    return {
      reason: `execution reverted: custom error ${data.slice(0, 10)}`,
      explanation: `The transaction would fail with a contract error the scanner does not know (selector ${data.slice(0, 10)}).`,
    }
  }
}

function explainCustomError(name: string, args: readonly unknown[]): string {
  const amount = (value: unknown) => formatUnits(BigInt(value as bigint), 0)
  switch (name) {
    case 'ERC20InsufficientBalance':
      return `the sender ${args[0]} holds ${amount(args[1])} base units of the token but ${amount(args[2])} are needed`
    case 'ERC20InsufficientAllowance':
      return `the spender ${args[0]} is allowed ${amount(args[1])} base units of the token but ${amount(args[2])} are needed`
    case 'ERC721NonexistentToken':
      return `token #${amount(args[0])} does not exist`
    case 'ERC721IncorrectOwner':
      return `${args[0]} does not own token #${amount(args[1])}; its owner is ${args[2]}`
    case 'ERC721InsufficientApproval':
      return `${args[0]} is not approved to move token #${amount(args[1])}`
    case 'ERC1155InsufficientBalance':
      return `the sender ${args[0]} holds ${amount(args[1])} of token #${amount(args[3])} but ${amount(args[2])} are needed`
    case 'ERC1155MissingApprovalForAll':
      return `${args[0]} is not approved to move the tokens of ${args[1]}`
    case 'ERC2612ExpiredSignature':
      return `the permit signature expired at ${amount(args[0])}`
    case 'ERC2612InvalidSigner':
      return `the permit was signed by ${args[0]}, not by the owner ${args[1]}`
    case 'OwnableUnauthorizedAccount':
      return `${args[0]} is not allowed to call this function (only the owner is)`
    default:
      return `the contract raised ${name}`
  }
}

const GS_CODES: Record<string, string> = {
  GS000: 'the Safe could not finish its setup',
  GS001: 'the threshold has not been set up yet',
  GS002: 'a call to set up modules failed: the address is not a contract',
  GS010: 'there was not enough gas left to run the Safe transaction with the requested safeTxGas',
  GS011: 'paying the refund in native currency failed',
  GS012: 'paying the refund in tokens failed',
  GS013: 'the Safe transaction itself failed (its inner call reverted) and neither safeTxGas nor gasPrice was set',
  GS020: 'the signatures are too short for the required number of confirmations (not enough signatures)',
  GS021: 'a contract signature points to data outside the signatures (malformed signatures)',
  GS022: 'a contract signature is too short (malformed signatures)',
  GS023: 'a contract signature points beyond the end of the signature data (malformed signatures)',
  GS024: 'a contract signature was rejected by the signing contract',
  GS025:
    'the transaction hash was not approved by the owner: the sender is not that owner and it has not called approveHash',
  GS026: 'a signer is not an owner of the Safe, or the signatures are not sorted by owner address',
  GS030: 'only owners can approve a transaction hash',
  GS031: 'this method can only be called by the Safe itself',
  GS100: 'modules have already been set up',
  GS101: 'the module address is invalid',
  GS102: 'the module is already enabled',
  GS103: 'the module is invalid or not enabled (wrong previous module)',
  GS104: 'the caller is not an enabled module',
  GS200: 'owners have already been set up',
  GS201: 'the threshold is higher than the number of owners',
  GS202: 'the threshold must be at least 1',
  GS203: 'an owner address is invalid (zero, the sentinel, or the Safe itself)',
  GS204: 'an owner appears twice',
  GS205: 'the owner is invalid or the previous owner given is wrong',
  GS300: 'the guard does not support the guard interface',
  GS400: 'the fallback handler cannot be the Safe itself',
}

/** Plain-English meaning of a Safe revert code such as "GS013", or null for other reasons. */
export function explainSafeCode(reason: string): string | null {
  const code = reason.trim().toUpperCase()
  const meaning = GS_CODES[code]
  return meaning ? `Safe error ${code}: ${meaning}` : null
}
