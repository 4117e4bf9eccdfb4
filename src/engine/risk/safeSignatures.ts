/**
 * Safe signatures a transaction gives by hash alone: an owner's `approveHash`, which counts on chain as that owner's
 * signature of a Safe transaction or message, and a Safe signing a message on chain for good (EIP-1271): by a delegate
 * call into SignMessageLib, or before 1.3.0 by calling its own `signMessage`. The calldata holds only a hash, so what
 * is approved or signed cannot be shown: the signer must compare the hash with the one their Safe app shows. The
 * simulated `ApproveHash` and `SignMsg` events catch the routes the calldata does not show (a module, a smart
 * account's own call).
 */
import { type Address, getAbiItem, type Hex, hexToBytes, isAddressEqual, keccak256, slice, toEventSelector } from 'viem'
import { decodeKnownFunction, printableText, safeAbi, signMessageLibAbi } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { type Call, safeDeployment, safeMessageHash } from '../safe/index.ts'
import type { SimulatedLog } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** What the powers of a Safe's signature reach, said wherever one is given blind. */
export const SIGNATURE_POWERS = 'a login, or a token permit or order that moves what the Safe holds'

/** Bytes a Safe would sign that its signer cannot read: what they stand for, and what to compare them with. */
export type UnreadableBytes = { what: string; check: string }

/**
 * What a Safe's signature of `bytes` covers, for a signer who sees only the bytes; null for text they can read. Any
 * 32 bytes are a hash: one can be ground until it decodes as text, and Safe apps send every message as its hash. An
 * EIP-712 encoding (0x1901, domain separator, struct hash) is named by the hash wallets show for it.
 */
export function unreadableBytes(bytes: Hex): UnreadableBytes | null {
  const raw = hexToBytes(bytes)
  const sameHash = 'shows you the message with this same hash'
  if (raw.length === 32) return { what: `whatever message has the hash ${bytes}`, check: sameHash }
  if (raw.length === 66 && raw[0] === 0x19 && raw[1] === 0x01) {
    return { what: `the EIP-712 message with the hash ${keccak256(bytes)}`, check: sameHash }
  }
  if (printableText(raw) !== null) return null
  return {
    what: `${raw.length} bytes that are neither text nor a message Preflight can read`,
    check: 'tells you what these bytes are',
  }
}

/**
 * A WARNING for each hash approved and each message a Safe signs on chain without text to read, however reached;
 * `chainId` is the chain simulated, under whose domain a signed message's SafeMessage hash is computed.
 */
export function hashSignatureWarnings(calls: Call[], logs: SimulatedLog[], chainId: number): Warning[] {
  const read = calls.flatMap((call) => readCall(call, chainId))
  // What the calldata shows is said from it, with the bytes signed; an event adds only an action it does not show.
  const shown = (safe: Address, kind: SafeSignature['kind'], hash: Hex, owner?: Address) =>
    read.some(
      (action) =>
        action.kind === kind &&
        isAddressEqual(action.safe, safe) &&
        action.hashes.includes(hash) &&
        (owner === undefined || (action.owner !== undefined && isAddressEqual(action.owner, owner))),
    )
  const fromLogs = logs.flatMap((log): Warning[] => {
    const [topic, first, second] = log.topics
    if (topic === eventTopics().approveHash && first && second) {
      const owner = slice(second, 12)
      return shown(log.address, 'approval', first, owner) ? [] : [approvalWarning(log.address, owner, first, true)]
    }
    if (topic === eventTopics().signMsg && first && !shown(log.address, 'signature', first)) {
      const what = `the message whose SafeMessage hash is ${first}`
      return [onChainSignatureWarning(log.address, { what, check: 'shows you that message with this same hash' }, null)]
    }
    return []
  })
  return [...read.flatMap((action) => action.warnings), ...fromLogs]
}

/**
 * A hash an owner approves for a Safe, or bytes a Safe signs on chain, as the calldata shows them: `hashes` are what
 * the matching event carries (the approved hash; the SafeMessage hash under either Safe domain, the version unread).
 */
type SafeSignature = {
  kind: 'approval' | 'signature'
  safe: Address
  owner?: Address
  hashes: Hex[]
  warnings: Warning[]
}

function readCall(call: Call, chainId: number): SafeSignature[] {
  if (!call.to) return []
  const decoded = decodeKnownFunction(call.data)
  if (decoded?.functionName === 'approveHash' && !call.delegate) {
    const hash = decoded.args[0] as Hex
    const warnings = [approvalWarning(call.to, call.from, hash, false)]
    return [{ kind: 'approval', safe: call.to, owner: call.from, hashes: [hash], warnings }]
  }
  if (decoded?.functionName !== 'signMessage') return []
  // Through SignMessageLib (1.3.0 on), or the Safe's own signMessage, which only the Safe itself may call (before).
  const signsAsSafe = call.delegate
    ? safeDeployment(call.to)?.name === 'SignMessageLib'
    : isAddressEqual(call.to, call.from)
  if (!signsAsSafe) return []
  const signs = decoded.args[0] as Hex
  const unreadable = unreadableBytes(signs)
  const hashes = ['1.3.0', '1.0.0'].map((version) => safeMessageHash(version, chainId, call.from, signs))
  const warnings = unreadable ? [onChainSignatureWarning(call.from, unreadable, signs)] : []
  return [{ kind: 'signature', safe: call.from, hashes, warnings }]
}

function approvalWarning(safe: Address, owner: Address, hash: Hex, hidden: boolean): Warning {
  const by = shortAddress(owner)
  const route = hidden ? ', by a route Preflight does not read from the calldata' : ''
  return makeWarning(
    'MULTISIG_BLIND_SIGNATURE',
    'WARNING',
    `This records the hash ${hash} as approved by ${by} on the Safe ${shortAddress(safe)}${route}. If ${by} is an ` +
      `owner, the approval counts for good as its signature of the Safe transaction or Safe message with that hash: ` +
      'once enough owners have approved or signed, anyone can execute the transaction, or the Safe accepts the ' +
      `message as its own (${SIGNATURE_POWERS}). The request carries only the hash, so what it approves cannot be ` +
      'shown. Continue only if your Safe app shows you the transaction or message with this same hash.',
    { safe: safe.toLowerCase(), owner: owner.toLowerCase(), approvedHash: hash },
  )
}

/** `signs` is what the calldata gives the Safe to sign; null when only the simulated SignMsg event shows it. */
function onChainSignatureWarning(safe: Address, unreadable: UnreadableBytes, signs: Hex | null): Warning {
  const route = signs ? '' : ', by a route Preflight does not read from the calldata'
  return makeWarning(
    'MULTISIG_BLIND_SIGNATURE',
    'WARNING',
    `This makes the Safe ${shortAddress(safe)} sign, on chain and for good, ${unreadable.what}${route}. From then ` +
      `on any contract that asks the Safe accepts it: ${SIGNATURE_POWERS}. The transaction does not carry the ` +
      `message, so what the Safe signs cannot be shown. Continue only if your Safe app ${unreadable.check}.`,
    { safe: safe.toLowerCase(), ...(signs ? { signs } : {}) },
  )
}

let topics: { approveHash: Hex; signMsg: Hex } | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function eventTopics(): { approveHash: Hex; signMsg: Hex } {
  topics ??= {
    approveHash: toEventSelector(getAbiItem({ abi: safeAbi, name: 'ApproveHash' })),
    signMsg: toEventSelector(getAbiItem({ abi: signMessageLibAbi, name: 'SignMsg' })),
  }
  return topics
}
