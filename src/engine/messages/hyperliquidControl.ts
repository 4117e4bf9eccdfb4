/**
 * Hyperliquid's signed grants of control over an account: `approveAgent` (an API wallet that places and cancels orders
 * for the account, all but withdrawing) and `convertToMultiSigUser` (the account then acts only on the signatures of the
 * users it lists). Like its sends, they are EIP-712 messages Hyperliquid's own chain executes once its API receives
 * them (the struct names and fields of its SDKs' signing.py), so nothing on the wallet's chain shows what they do. An
 * agent can trade the account's funds away to a counterparty of its choosing; the listed users take the account.
 */
import { type Address, isAddress, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** Who a Hyperliquid signature gives control to: an agent that trades for the account, or the users of a multi-sig. */
export type HyperliquidControl =
  | { kind: 'agent'; agent: Address; name: string }
  | { kind: 'multiSig'; users: string[] | null; threshold: unknown }

const APPROVE_AGENT = 'string hyperliquidChain,address agentAddress,string agentName,uint64 nonce'
const CONVERT_TO_MULTI_SIG = 'string hyperliquidChain,string signers,uint64 nonce'

/** The Hyperliquid grant of control a payload signs, or null when it is none. */
export function findHyperliquidControl(typedData: TypedData): HyperliquidControl | null {
  const shape = structSignature(typedData.types, typedData.primaryType)
  const { message } = typedData
  if (shape === APPROVE_AGENT) {
    return { kind: 'agent', agent: message.agentAddress as Address, name: message.agentName as string }
  }
  if (shape !== CONVERT_TO_MULTI_SIG) return null
  // `signers` is JSON text: {"authorizedUsers": [...], "threshold": n}, or "null" to turn the multi-sig back.
  let signers: unknown = null
  try {
    signers = JSON.parse(message.signers as string)
  } catch {
    return { kind: 'multiSig', users: null, threshold: null }
  }
  if (signers === null) return null
  const listed = (signers as { authorizedUsers?: unknown }).authorizedUsers
  const users = Array.isArray(listed) && listed.every((user) => typeof user === 'string') ? listed : null
  return { kind: 'multiSig', users, threshold: (signers as { threshold?: unknown }).threshold ?? null }
}

/**
 * SET_OWNER_AUTHORITY (WARNING) for an agent other than the signer; USER_ACCOUNT_OWNER_CHANGE (WARNING) for a
 * multi-sig of anyone but the signer alone, naming who then controls the account.
 */
export function hyperliquidControlWarnings(control: HyperliquidControl, signer: Address): Warning[] {
  if (control.kind === 'agent') {
    if (isAddressEqual(control.agent, signer)) return []
    const who = shortAddress(control.agent)
    return [
      makeWarning(
        'SET_OWNER_AUTHORITY',
        'WARNING',
        `This signature makes ${who} an agent of your Hyperliquid ` +
          `account as soon as Hyperliquid receives it: ${who} can then place and cancel orders for the account, and ` +
          'so trade its funds away to a counterparty of its choosing, though not withdraw them. Sign it only on ' +
          'Hyperliquid, or for a trading tool you trust.',
        { venue: 'Hyperliquid', agent: control.agent.toLowerCase(), agentName: control.name },
      ),
    ]
  }
  const users = control.users
  const own =
    users !== null && users.length > 0 && users.every((user) => isAddress(user) && isAddressEqual(user, signer))
  if (own) return []
  const who =
    users === null ? 'the users its signers text names' : users.map((user) => shortAddress(user as Address)).join(', ')
  return [
    makeWarning(
      'USER_ACCOUNT_OWNER_CHANGE',
      'WARNING',
      `This signature turns your Hyperliquid account into a multi-sig of ${who} (threshold ${String(control.threshold)}) ` +
        'as soon as Hyperliquid receives it: from then on only their signatures move its funds, not yours alone. Sign ' +
        'it only if those addresses are yours.',
      { venue: 'Hyperliquid', authorizedUsers: users, threshold: control.threshold },
    ),
  ]
}
