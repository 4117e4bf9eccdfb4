/**
 * What every Safe signature request is checked for, whether the owners sign a transaction for the Safe to execute or a
 * message for it to sign in its own name: the signer must be an owner, the domain must name this chain, and the hash
 * must be the one the Safe computes.
 */
import type { Address, Hex, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { isSafeOwner, type SafeContext } from '../safe/index.ts'

/** The domains Safe contracts sign under: the wallet alone (before 1.3.0), or the chain and the wallet. */
export const SAFE_DOMAINS = new Set(['uint256 chainId,address verifyingContract', 'address verifyingContract'])

/** What a Safe's owners sign: a transaction for it to execute, or a message for it to sign in its own name. */
export type SafeSigned = 'transaction' | 'message'

/**
 * A signer who is not an owner adds nothing (WARNING: harmless by itself, but the request is not what it claims). A
 * domain for another chain makes the signature valid where this preview shows nothing, and Safes often share
 * addresses across chains (CRITICAL).
 */
export function safeSignerWarnings(
  signed: SafeSigned,
  safe: SafeContext,
  signer: Address,
  domainChainId: bigint | null,
  chainId: number,
): Warning[] {
  const warnings: Warning[] = []
  if (!isSafeOwner(safe, signer)) {
    const instead =
      signed === 'transaction'
        ? 'cannot confirm this transaction. The changes shown are what it would do if the owners executed it.'
        : 'does not count toward the Safe’s signature.'
    warnings.push(
      makeWarning(
        'MULTISIG_SIGNER_NOT_OWNER',
        'WARNING',
        `Your account ${shortAddress(signer)} is not an owner of the Safe ${shortAddress(safe.address)}, so your ` +
          `signature ${instead}`,
        { signer: signer.toLowerCase(), owners: safe.owners.map((owner) => owner.toLowerCase()).join(',') },
      ),
    )
  }
  if (domainChainId !== null && domainChainId !== BigInt(chainId)) {
    const checked = signed === 'transaction' ? 'the simulation ran' : 'it was checked'
    warnings.push(
      makeWarning(
        'MULTISIG_CHAIN_MISMATCH',
        'CRITICAL',
        `This Safe ${signed} is for chain ${domainChainId}, but ${checked} on chain ${chainId}. Your signature ` +
          'would be valid on the other chain, where its effect has not been checked. Do not sign it unless you meant ' +
          'that chain.',
        { messageChainId: domainChainId.toString(), chainId: String(chainId) },
      ),
    )
  }
  return warnings
}

/**
 * A WARNING when the Safe computes another hash than the one the signer would sign, so the signature confirms
 * nothing; `rule` says how the Safe hashes (e.g. "with the chain id in the domain").
 */
export function hashMismatchWarnings(
  signed: SafeSigned,
  safe: SafeContext,
  rule: string,
  expected: Hex,
  signedHash: Hex,
): Warning[] {
  if (expected === signedHash) return []
  const key = signed === 'transaction' ? 'SafeTxHash' : 'SafeMessageHash'
  // A message's Safe is its domain's, so only a transaction's request can be another Safe's.
  const cause = signed === 'transaction' ? 'or another Safe' : 'or with a type the Safe does not hash'
  return [
    makeWarning(
      'MULTISIG_HASH_MISMATCH',
      'WARNING',
      `The Safe ${shortAddress(safe.address)} runs Safe ${safe.version}, which hashes its ${signed}s ${rule}, so it ` +
        `computes ${expected} for this ${signed}, not the ${signedHash} you would sign. Your signature cannot ` +
        `confirm it on this Safe: the request was made for another Safe version ${cause}.`,
      { [`expected${key}`]: expected, messageHash: signedHash },
    ),
  ]
}
