/**
 * CoW Protocol orders signed on chain: `setPreSignature(orderUid, true)` on the settlement makes the order valid for any
 * solver to fill, and is how a Safe (or any contract) signs its swaps. The transaction carries only the order's ID:
 * its digest, its owner and its expiry. What it sells, for how much and to whom stays off chain, so the simulation
 * shows nothing moving. The simulated `PreSignature` event catches the routes the calldata does not show.
 */
import {
  type Address,
  decodeAbiParameters,
  getAbiItem,
  type Hex,
  hexToNumber,
  size,
  slice,
  toEventSelector,
} from 'viem'
import { cowSettlementAbi, decodeKnownFunction } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import type { SimulatedLog } from '../simulation/index.ts'
import { SIGNATURE_POWERS } from './safeSignatures.ts'
import { makeWarning } from './warnings.ts'

/** An order ID: the order's EIP-712 digest, its owner and the time it is valid until. */
type OrderUid = { uid: Hex; digest: Hex; owner: Address; validTo: number }

/** GPv2's order ID: 32 bytes of digest, 20 of owner, 4 of validTo. */
const UID_BYTES = 56

/**
 * A WARNING for each order pre-signed, from the calldata and from the events; `isSafe` tells which owners are Safes,
 * whose pre-signatures are signatures given by hash (MULTISIG_BLIND_SIGNATURE).
 */
export function preSignatureWarnings(
  calls: Call[],
  logs: SimulatedLog[],
  isSafe: (owner: Address) => boolean,
): Warning[] {
  const fromCalls = calls.flatMap((call) => {
    const decoded = call.to ? decodeKnownFunction(call.data) : null
    if (decoded?.functionName !== 'setPreSignature' || decoded.args[1] !== true) return []
    const order = readUid(decoded.args[0] as Hex)
    return order ? [order] : []
  })
  const fromLogs = logs.flatMap((log) => {
    if (log.topics[0] !== preSignatureTopic() || log.topics.length !== 2) return []
    try {
      const [uid, signed] = decodeAbiParameters([{ type: 'bytes' }, { type: 'bool' }], log.data)
      const order = signed ? readUid(uid) : null
      return order && !fromCalls.some((shown) => shown.uid === order.uid) ? [order] : []
    } catch {
      // Another contract's event with this signature and other data: not an order.
      return []
    }
  })
  return [...fromCalls, ...fromLogs].map((order) => preSignatureWarning(order, isSafe(order.owner)))
}

function readUid(uid: Hex): OrderUid | null {
  if (size(uid) !== UID_BYTES) return null
  const lower = uid.toLowerCase() as Hex
  return {
    uid: lower,
    digest: slice(lower, 0, 32),
    owner: slice(lower, 32, 52),
    validTo: hexToNumber(slice(lower, 52, 56)),
  }
}

function preSignatureWarning(order: OrderUid, safe: boolean): Warning {
  const until = new Date(order.validTo * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
  const powers = safe
    ? ` It is the Safe's own signature, as good as one of a message (${SIGNATURE_POWERS}): no owner is asked again.`
    : ''
  return makeWarning(
    safe ? 'MULTISIG_BLIND_SIGNATURE' : 'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `This signs a CoW Protocol order for ${shortAddress(order.owner)} on chain, valid until ${until}: from then on ` +
      'any solver can fill it, selling what the order sells, at its price, to whoever it pays. The transaction ' +
      `carries only the order's ID, so none of that can be shown, and nothing moves in the simulation.${powers} ` +
      `Continue only if your app shows you the order with the ID ${order.uid}.`,
    { owner: order.owner, orderUid: order.uid, orderDigest: order.digest, validTo: order.validTo },
  )
}

let topic: Hex | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function preSignatureTopic(): Hex {
  topic ??= toEventSelector(getAbiItem({ abi: cowSettlementAbi, name: 'PreSignature' }))
  return topic
}
