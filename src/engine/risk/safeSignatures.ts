/**
 * Safe signatures a transaction gives by hash alone: an owner's `approveHash`, which counts on chain as that owner's
 * signature of a Safe transaction, and a Safe's delegate call into SignMessageLib, which makes the Safe sign a message
 * on chain for good (EIP-1271). The calldata holds only a hash, so neither what the approved transaction does nor
 * what the signed message says can be shown: the signer must compare the hash with the one their Safe app shows.
 */
import { hexToBytes } from 'viem'
import { decodeKnownFunction, printableText } from '../abi/index.ts'
import type { Hex, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { type Call, safeDeployment } from '../safe/index.ts'
import { makeWarning } from './warnings.ts'

/** A WARNING for each approveHash call and each SignMessageLib signature of bytes that are not text. */
export function hashSignatureWarnings(calls: Call[]): Warning[] {
  return calls.flatMap((call) => {
    if (!call.to) return []
    const decoded = decodeKnownFunction(call.data)
    if (decoded?.functionName === 'approveHash' && !call.delegate) {
      const hash = decoded.args[0] as string
      return [
        makeWarning(
          'MULTISIG_BLIND_SIGNATURE',
          'WARNING',
          `This approves, as ${shortAddress(call.from)}, an owner of the Safe ${shortAddress(call.to)}, the Safe ` +
            `transaction with the hash ${hash}. On chain the approval counts as that owner's signature, and once ` +
            'enough owners have approved, anyone can execute the transaction. The request carries only the hash, so ' +
            'what that transaction does cannot be shown. Send this only if your Safe app shows you the transaction ' +
            'with this same safeTxHash.',
          { safe: call.to.toLowerCase(), owner: call.from.toLowerCase(), safeTxHash: hash },
        ),
      ]
    }
    if (
      decoded?.functionName === 'signMessage' &&
      call.delegate &&
      safeDeployment(call.to)?.name === 'SignMessageLib'
    ) {
      const signs = decoded.args[0] as Hex
      const what = unreadableBytes(signs)
      if (what === null) return []
      return [
        makeWarning(
          'MULTISIG_BLIND_SIGNATURE',
          'WARNING',
          `This makes the Safe ${shortAddress(call.from)} sign, on chain and for good, ${what}. From then on any ` +
            'contract that asks the Safe accepts it: a login, or a token permit or order that moves what the Safe ' +
            'holds. The request carries only the hash, so what the Safe signs cannot be shown. Sign only if your Safe ' +
            'app shows you the message and this same hash.',
          { safe: call.from.toLowerCase(), signs },
        ),
      ]
    }
    return []
  })
}

/**
 * What a signature of `bytes` covers, in words, for a signer who sees only the bytes (a Safe signing in its own name):
 * a hash, or bytes that are no text; null when they are text the signer can read.
 */
export function unreadableBytes(bytes: Hex): string | null {
  const raw = hexToBytes(bytes)
  if (printableText(raw) !== null) return null
  return raw.length === 32
    ? `whatever message has the hash ${bytes.toLowerCase()}`
    : `${raw.length} bytes that are neither text nor a message Preflight can read`
}
