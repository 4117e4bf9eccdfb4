/**
 * Safe messages (EIP-1271): typed data whose primary type is a single `bytes` field under a Safe's domain, which the
 * owners sign so that the Safe itself signs those bytes. Safe{Wallet} puts there the 32-byte hash of the message a dapp
 * asked the Safe to sign (EIP-712 or EIP-191), so the owners see a hash and nothing of what it stands for: a login, or a
 * permit or order that moves everything the Safe holds.
 */
import { type Address, hexToBytes, size } from 'viem'
import { printableText } from '../abi/index.ts'
import type { Hex, SafeMessageContext, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning, SIGNATURE_POWERS, type UnreadableBytes, unreadableBytes } from '../risk/index.ts'
import { type SafeContext, safeHashing, safeMessageHash } from '../safe/index.ts'
import { hashMismatchWarnings, SAFE_DOMAINS, safeSignerWarnings } from './safeChecks.ts'
import { hashTypedPayload, structSignature, type TypedData } from './typedData.ts'

/** A Safe message as signed: the Safe, the chain the domain names, the bytes and the hashes. */
export type SafeMessage = {
  wallet: Address
  /** The chain the domain names; null for a pre-1.3.0 domain. */
  chainId: bigint | null
  message: Hex
  /** keccak256 of the EIP-712 encoding: the hash the owners sign. */
  hash: Hex
  domainHash: Hex
  messageHash: Hex
}

/** The Safe message a validated payload describes, or null when it is not shaped as one. */
export function findSafeMessage(typedData: TypedData): SafeMessage | null {
  const { types, primaryType, message, domain } = typedData
  const fields = types[primaryType] ?? []
  const [field] = fields
  if (fields.length !== 1 || field?.type !== 'bytes') return null
  if (!SAFE_DOMAINS.has(structSignature(types, 'EIP712Domain'))) return null
  const hashes = hashTypedPayload(typedData)
  return {
    wallet: domain.verifyingContract as Address,
    chainId: typeof domain.chainId === 'bigint' ? domain.chainId : null,
    message: message[field.name] as Hex,
    hash: hashes.hash,
    domainHash: hashes.domainHash,
    messageHash: hashes.messageHash,
  }
}

/** What the window and the API show of a Safe message: the Safe, what it signs, the hashes to compare. */
export function safeMessageContext(safeMessage: SafeMessage, safe: SafeContext): SafeMessageContext {
  return {
    wallet: safe.address.toLowerCase() as Address,
    version: safe.version,
    owners: safe.owners.map((owner) => owner.toLowerCase() as Address),
    threshold: safe.threshold,
    message: safeMessage.message,
    // Bytes that stand for something else (a hash that happens to decode) are not shown as text.
    text: unreadableBytes(safeMessage.message) ? null : printableText(hexToBytes(safeMessage.message)),
    safeMessageHash: safeMessage.hash,
    domainHash: safeMessage.domainHash,
    messageHash: safeMessage.messageHash,
  }
}

/**
 * What is off about a Safe message request: the checks every Safe signature gets, a hash the Safe would not compute,
 * and bytes that are no text (MULTISIG_BLIND_SIGNATURE, WARNING): the Safe would sign, in its own name, something the
 * request does not show. Safe apps send every dapp's message this way, so the warning says how to check it.
 */
export function safeMessageWarnings(
  safeMessage: SafeMessage,
  safe: SafeContext,
  signer: Address,
  chainId: number,
): Warning[] {
  const warnings = safeSignerWarnings('message', safe, signer, safeMessage.chainId, chainId)
  // Hashed for the chain the domain names: another chain is reported above, not again here. A renamed type or field,
  // a domain of another shape or another Safe all hash to something the Safe would not check.
  const { domainHasChainId } = safeHashing(safe.version)
  const expected = safeMessageHash(
    safe.version,
    safeMessage.chainId ?? BigInt(chainId),
    safe.address,
    safeMessage.message,
  )
  const rule = `as SafeMessage(bytes message) ${domainHasChainId ? 'with' : 'without'} the chain id in the domain`
  warnings.push(...hashMismatchWarnings('message', safe, rule, expected, safeMessage.hash))
  const unreadable = unreadableBytes(safeMessage.message)
  if (unreadable) warnings.push(blindMessageWarning(safe, unreadable, safeMessage))
  return warnings
}

function blindMessageWarning(safe: SafeContext, unreadable: UnreadableBytes, safeMessage: SafeMessage): Warning {
  const quorum = safe.threshold > 1 ? ` once ${safe.threshold} owners have signed` : ''
  // Safe{Wallet} reduces every dapp message to its 32-byte hash: said, so a person knows this is the usual shape.
  const usual =
    size(safeMessage.message) === 32 ? ' Safe apps send every dapp’s message to the owners this way, as a hash.' : ''
  return makeWarning(
    'MULTISIG_BLIND_SIGNATURE',
    'WARNING',
    `With this signature the Safe ${shortAddress(safe.address)} signs, in its own name, ${unreadable.what}. Any ` +
      `contract that asks the Safe accepts it${quorum}: ${SIGNATURE_POWERS}.${usual} What the Safe signs cannot be ` +
      `shown here. Sign only if your Safe app ${unreadable.check}.`,
    { safe: safe.address.toLowerCase(), signs: safeMessage.message, safeMessageHash: safeMessage.hash },
  )
}
