/**
 * Changes of who controls a contract, read out of the simulated logs: an owner handing over or renouncing ownership
 * (Ownable, Ownable2Step, ds-auth) or an admin its place (Compound), an authority set (ds-auth), a role granted or
 * given up (AccessControl), a proxy or beacon upgraded to other code or a proxy given another admin (ERC-1967). The
 * events say it whatever route the call took: a Safe, a ProxyAdmin, a timelock, a batch.
 */
import { type Address, getAddress, type Hex, size, slice, toEventSelector, zeroAddress } from 'viem'
import type { SimulatedLog } from './assetEvents.ts'
import { codeSizeRead, type Read } from './reads.ts'

/** What a contract calls the account in control: an owner (Ownable, ds-auth) or an admin (Compound). */
export type ControllerTitle = 'owner' | 'admin'

/** One change of control, as an event of `contract` reports it. */
export type ControlEvent =
  /**
   * Control handed over (`to` is the zero address when renounced), or offered to `to` to accept (Ownable2Step,
   * Compound's pending admin); `from` is null when the event does not name the previous controller.
   */
  | { kind: 'owner' | 'pendingOwner'; contract: Address; from: Address | null; to: Address; title: ControllerTitle }
  /** `role` granted to `account` by `sender`, or taken from `account` (revoked by `sender`, or renounced). */
  | { kind: 'roleGranted' | 'roleRevoked'; contract: Address; role: Hex; account: Address; sender: Address }
  /**
   * A proxy's or a beacon's code (its implementation, or the beacon it takes it from) replaced by `to`'s; or `to` made
   * the authority of a ds-auth contract (DSProxy), which decides who besides the owner may call it.
   */
  | { kind: 'implementation' | 'beacon' | 'authority'; contract: Address; to: Address }
  /** A proxy's admin, the account that may upgrade it, changed from `from` to `to`. */
  | { kind: 'admin'; contract: Address; from: Address; to: Address }

/** How one event signature is read: its kind, and where its addresses are (indexed topics, or words of data). */
type EventShape = { kind: ControlEvent['kind']; topics: number; data: number; title?: ControllerTitle }

/** The events read, by signature; the same name with other arguments is another event (Compound's Timelock). */
const SHAPES: Record<string, EventShape> = {
  'OwnershipTransferred(address,address)': { kind: 'owner', topics: 3, data: 0, title: 'owner' },
  'OwnershipTransferStarted(address,address)': { kind: 'pendingOwner', topics: 3, data: 0, title: 'owner' },
  'LogSetOwner(address)': { kind: 'owner', topics: 2, data: 0, title: 'owner' },
  'LogSetAuthority(address)': { kind: 'authority', topics: 2, data: 0 },
  'NewAdmin(address,address)': { kind: 'owner', topics: 1, data: 64, title: 'admin' },
  'NewAdmin(address)': { kind: 'owner', topics: 2, data: 0, title: 'admin' },
  'NewPendingAdmin(address,address)': { kind: 'pendingOwner', topics: 1, data: 64, title: 'admin' },
  'NewPendingAdmin(address)': { kind: 'pendingOwner', topics: 2, data: 0, title: 'admin' },
  'RoleGranted(bytes32,address,address)': { kind: 'roleGranted', topics: 4, data: 0 },
  'RoleRevoked(bytes32,address,address)': { kind: 'roleRevoked', topics: 4, data: 0 },
  'Upgraded(address)': { kind: 'implementation', topics: 2, data: 0 },
  // Compound's markets and Unitroller: a pending implementation accepts itself, so naming it hands the code over.
  'NewImplementation(address,address)': { kind: 'implementation', topics: 1, data: 64 },
  'NewPendingImplementation(address,address)': { kind: 'implementation', topics: 1, data: 64 },
  'BeaconUpgraded(address)': { kind: 'beacon', topics: 2, data: 0 },
  'AdminChanged(address,address)': { kind: 'admin', topics: 1, data: 64 },
}

let shapesByTopic: Map<Hex, EventShape> | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function shapeOfTopic(topic: Hex): EventShape | undefined {
  shapesByTopic ??= new Map(Object.entries(SHAPES).map(([signature, shape]) => [toEventSelector(signature), shape]))
  return shapesByTopic.get(topic)
}

/** A 32-byte word holding an address (an indexed topic, or a word of data); null when it holds more. */
function wordAddress(word: Hex | undefined): Address | null {
  if (!word || size(word) !== 32 || BigInt(slice(word, 0, 12)) !== 0n) return null
  return getAddress(slice(word, 12))
}

/**
 * The event's address arguments in order: its indexed topics, then its data's words. An event whose addresses are all
 * indexed is also read with them all in the data, as some contracts emit it (a proxy's `Upgraded`); a role's topic
 * is no address, and is read apart.
 */
function addressesOf(log: SimulatedLog, shape: EventShape): Address[] | null {
  const isRole = shape.kind === 'roleGranted' || shape.kind === 'roleRevoked'
  const dataSize = size(log.data)
  const words: Hex[] = []
  if (log.topics.length === shape.topics && dataSize === shape.data) {
    words.push(...log.topics.slice(isRole ? 2 : 1))
  } else if (!isRole && shape.data === 0 && log.topics.length === 1 && dataSize === 32 * (shape.topics - 1)) {
    // All in the data: read below.
  } else return null
  for (let offset = 0; offset < dataSize; offset += 32) words.push(slice(log.data, offset, offset + 32))
  const addresses = words.map(wordAddress)
  return addresses.every((address) => address !== null) ? (addresses as Address[]) : null
}

/**
 * Every change of control the logs report, in log order; logs of another shape under the same name are skipped. Each
 * counts, even one a later event undoes: an owner for the length of a transaction can use every owner-only function.
 */
export function controlEvents(logs: SimulatedLog[]): ControlEvent[] {
  const events: ControlEvent[] = []
  for (const log of logs) {
    const shape = log.topics[0] && shapeOfTopic(log.topics[0])
    const words = shape ? addressesOf(log, shape) : null
    if (!shape || !words) continue
    const contract = getAddress(log.address)
    const { kind } = shape
    const [first, second] = words as [Address, ...Address[]]
    if (kind === 'roleGranted' || kind === 'roleRevoked') {
      const role = log.topics[1]?.toLowerCase() as Hex
      if (second) events.push({ kind, contract, role, account: first, sender: second })
    } else if (kind === 'owner' || kind === 'pendingOwner') {
      // With two addresses the first is the previous controller, except Compound's previous *pending* admin.
      const from = second && !(kind === 'pendingOwner' && shape.title === 'admin') ? first : null
      events.push({ kind, contract, from, to: second ?? first, title: shape.title ?? 'owner' })
    } else if (kind === 'admin') {
      if (second) events.push({ kind, contract, from: first, to: second })
    } else {
      // The new code (or authority) is the last address: Compound's events name the old implementation first.
      events.push({ kind, contract, to: second ?? first })
    }
  }
  return events
}

/** The account that gains control in an event, if one does. */
export function newController(event: ControlEvent): Address | null {
  switch (event.kind) {
    case 'roleGranted':
      return event.account
    case 'roleRevoked':
      return null
    default:
      return event.to
  }
}

/**
 * Whether an event may take control from `userAccount`'s side: not a contract's first owner being set up (from the
 * zero address), not a two-step offer withdrawn (to the zero address), not control coming to the user. Whoever gives
 * it counts: a Safe, a timelock or a manager contract the request drives is the previous owner or the role's sender.
 */
export function mayGiveAway(event: ControlEvent, userAccount: Address): boolean {
  const isUser = (address: Address) => address.toLowerCase() === userAccount.toLowerCase()
  switch (event.kind) {
    case 'owner':
      return event.from !== zeroAddress && event.from !== event.to && !isUser(event.to)
    case 'pendingOwner':
      return event.from !== zeroAddress && event.to !== zeroAddress && !isUser(event.to)
    case 'roleGranted':
      return !isUser(event.account)
    case 'roleRevoked':
      return true
    case 'admin':
      return event.from.toLowerCase() !== event.to.toLowerCase() && !isUser(event.to)
    case 'authority':
      return event.to !== zeroAddress && !isUser(event.to)
    default:
      return true
  }
}

/**
 * Code sizes the judgement needs for events that may take control from the user: the contract's before the
 * transactions (none means the request created it, and a new contract setting up its owner or proxy is no change of
 * control), and the new controller's (a person or code).
 */
export function controlReads(events: ControlEvent[], userAccount: Address): Read[] {
  const accounts = new Set<Address>()
  for (const event of events) {
    if (!mayGiveAway(event, userAccount)) continue
    accounts.add(event.contract)
    const gains = newController(event)
    if (gains && gains !== zeroAddress) accounts.add(gains)
  }
  return [...accounts].map(codeSizeRead)
}
