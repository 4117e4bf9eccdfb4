/**
 * Changes of who controls a contract, read out of the simulated logs: an owner handing over or renouncing ownership
 * (Ownable, Ownable2Step), a role granted or given up (AccessControl), a proxy or beacon upgraded to other code or a
 * proxy given another admin (ERC-1967). The events say it whatever route the call took: a Safe, a ProxyAdmin, a
 * timelock, a batch.
 */
import {
  type AbiEvent,
  type Address,
  getAbiItem,
  getAddress,
  type Hex,
  size,
  slice,
  toEventSelector,
  zeroAddress,
} from 'viem'
import { contractControlAbi } from '../abi/index.ts'
import type { SimulatedLog } from './assetEvents.ts'
import { codeSizeRead, type Read } from './reads.ts'

/** One change of control, as an event of `contract` reports it. */
export type ControlEvent =
  /** Ownership handed over (`to` is the zero address when renounced), or offered to `to` to accept (Ownable2Step). */
  | { kind: 'owner' | 'pendingOwner'; contract: Address; from: Address; to: Address }
  /** `role` granted to `account` by `sender`, or taken from `account` (revoked by `sender`, or renounced). */
  | { kind: 'roleGranted' | 'roleRevoked'; contract: Address; role: Hex; account: Address; sender: Address }
  /** A proxy's or a beacon's code (its implementation, or the beacon it takes it from) replaced by `to`'s. */
  | { kind: 'implementation' | 'beacon'; contract: Address; to: Address }
  /** A proxy's admin, the account that may upgrade it, changed from `from` to `to`. */
  | { kind: 'admin'; contract: Address; from: Address; to: Address }

const EVENT_NAMES: Record<ControlEvent['kind'], string> = {
  owner: 'OwnershipTransferred',
  pendingOwner: 'OwnershipTransferStarted',
  roleGranted: 'RoleGranted',
  roleRevoked: 'RoleRevoked',
  implementation: 'Upgraded',
  beacon: 'BeaconUpgraded',
  admin: 'AdminChanged',
}

let kindsByTopic: Map<Hex, ControlEvent['kind']> | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function kindOfTopic(topic: Hex): ControlEvent['kind'] | undefined {
  kindsByTopic ??= new Map(
    Object.entries(EVENT_NAMES).map(([kind, name]) => [
      toEventSelector(getAbiItem({ abi: contractControlAbi, name } as never) as AbiEvent),
      kind as ControlEvent['kind'],
    ]),
  )
  return kindsByTopic.get(topic)
}

/** A 32-byte word holding an address (an indexed topic, or a word of data); null when it holds more. */
function wordAddress(word: Hex | undefined): Address | null {
  if (!word || size(word) !== 32 || BigInt(slice(word, 0, 12)) !== 0n) return null
  return getAddress(slice(word, 12))
}

/** The address a one-address event carries, indexed (ERC-1967) or, as some proxies emit it, in its data. */
function soleAddress(log: SimulatedLog): Address | null {
  if (log.topics.length === 2) return wordAddress(log.topics[1])
  return log.topics.length === 1 && size(log.data) === 32 ? wordAddress(log.data) : null
}

/** Every change of control the logs report, in log order; logs of another shape under the same name are skipped. */
export function controlEvents(logs: SimulatedLog[]): ControlEvent[] {
  const events: ControlEvent[] = []
  for (const log of logs) {
    const [topic, first, second, third] = log.topics
    const kind = topic && kindOfTopic(topic)
    if (!kind) continue
    const contract = getAddress(log.address)
    if ((kind === 'owner' || kind === 'pendingOwner') && log.topics.length === 3) {
      const from = wordAddress(first)
      const to = wordAddress(second)
      if (from && to) events.push({ kind, contract, from, to })
    } else if ((kind === 'roleGranted' || kind === 'roleRevoked') && log.topics.length === 4 && first) {
      const account = wordAddress(second)
      const sender = wordAddress(third)
      if (account && sender) events.push({ kind, contract, role: first.toLowerCase() as Hex, account, sender })
    } else if (kind === 'implementation' || kind === 'beacon') {
      const to = soleAddress(log)
      if (to) events.push({ kind, contract, to })
    } else if (kind === 'admin' && log.topics.length === 1 && size(log.data) === 64) {
      const from = wordAddress(slice(log.data, 0, 32))
      const to = wordAddress(slice(log.data, 32, 64))
      if (from && to) events.push({ kind, contract, from, to })
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
      return event.from !== zeroAddress && !isUser(event.to)
    case 'pendingOwner':
      return event.from !== zeroAddress && event.to !== zeroAddress && !isUser(event.to)
    case 'roleGranted':
      return !isUser(event.account)
    case 'roleRevoked':
      return true
    case 'admin':
      return event.from.toLowerCase() !== event.to.toLowerCase() && !isUser(event.to)
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
