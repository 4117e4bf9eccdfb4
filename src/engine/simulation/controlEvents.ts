/**
 * Changes of who controls a contract, read out of the simulated logs: an owner handing over or renouncing ownership
 * (Ownable, Ownable2Step), a role granted or given up (AccessControl), a proxy upgraded to other code or given another
 * admin (ERC-1967). The events say it whatever route the call took: a Safe, a ProxyAdmin, a timelock, a batch.
 */
import { type AbiEvent, type Address, getAbiItem, getAddress, type Hex, size, slice, toEventSelector } from 'viem'
import { contractControlAbi } from '../abi/index.ts'
import type { SimulatedLog } from './assetEvents.ts'
import { codeSizeRead, type Read } from './reads.ts'

/** One change of control, as an event of `contract` reports it. */
export type ControlEvent =
  /** Ownership handed over (`to` is the zero address when renounced), or offered to `to` to accept (Ownable2Step). */
  | { kind: 'owner' | 'pendingOwner'; contract: Address; from: Address; to: Address }
  /** `role` granted to `account` by `sender`, or taken from `account` (revoked by `sender`, or renounced). */
  | { kind: 'roleGranted' | 'roleRevoked'; contract: Address; role: Hex; account: Address; sender: Address }
  /** A proxy's code (its implementation, or the beacon it takes it from) replaced by `to`'s. */
  | { kind: 'implementation' | 'beacon'; contract: Address; to: Address }
  /** A proxy's admin, the account that may upgrade it, changed from `from` to `to`. */
  | { kind: 'admin'; contract: Address; from: Address; to: Address }

type Topics = Record<
  'owner' | 'pendingOwner' | 'roleGranted' | 'roleRevoked' | 'implementation' | 'beacon' | 'admin',
  Hex
>

let topics: Topics | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function controlTopics(): Topics {
  const of = (name: string) => toEventSelector(getAbiItem({ abi: contractControlAbi, name } as never) as AbiEvent)
  topics ??= {
    owner: of('OwnershipTransferred'),
    pendingOwner: of('OwnershipTransferStarted'),
    roleGranted: of('RoleGranted'),
    roleRevoked: of('RoleRevoked'),
    implementation: of('Upgraded'),
    beacon: of('BeaconUpgraded'),
    admin: of('AdminChanged'),
  }
  return topics
}

let topicSet: Set<Hex> | undefined
const controlTopicSet = () => {
  topicSet ??= new Set(Object.values(controlTopics()))
  return topicSet
}

/** An indexed address topic, or null when the 32 bytes hold more than an address. */
function topicAddress(topic: Hex | undefined): Address | null {
  if (!topic || size(topic) !== 32 || BigInt(slice(topic, 0, 12)) !== 0n) return null
  return getAddress(slice(topic, 12))
}

/** Every change of control the logs report, in log order; logs of another shape under the same name are skipped. */
export function controlEvents(logs: SimulatedLog[]): ControlEvent[] {
  const known = controlTopics()
  const events: ControlEvent[] = []
  for (const log of logs) {
    const [topic, first, second, third] = log.topics
    if (!topic || !controlTopicSet().has(topic)) continue
    const contract = getAddress(log.address)
    if ((topic === known.owner || topic === known.pendingOwner) && log.topics.length === 3) {
      const from = topicAddress(first)
      const to = topicAddress(second)
      if (from && to) events.push({ kind: topic === known.owner ? 'owner' : 'pendingOwner', contract, from, to })
    } else if ((topic === known.roleGranted || topic === known.roleRevoked) && log.topics.length === 4 && first) {
      const account = topicAddress(second)
      const sender = topicAddress(third)
      const kind = topic === known.roleGranted ? 'roleGranted' : 'roleRevoked'
      if (account && sender) events.push({ kind, contract, role: first.toLowerCase() as Hex, account, sender })
    } else if ((topic === known.implementation || topic === known.beacon) && log.topics.length === 2) {
      const to = topicAddress(first)
      if (to) events.push({ kind: topic === known.implementation ? 'implementation' : 'beacon', contract, to })
    } else if (topic === known.admin && log.topics.length === 1 && size(log.data) === 64) {
      const from = topicAddress(slice(log.data, 0, 32))
      const to = topicAddress(slice(log.data, 32, 64))
      if (from && to) events.push({ kind: 'admin', contract, from, to })
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
 * Code sizes the judgement needs: the contract's before the transactions (none means the request created it, and a
 * new contract setting up its owner or proxy is no change of control), and the new controller's (a person or code).
 */
export function controlReads(events: ControlEvent[]): Read[] {
  const accounts = new Set<Address>()
  for (const event of events) {
    accounts.add(event.contract)
    const gains = newController(event)
    if (gains) accounts.add(gains)
  }
  return [...accounts].map(codeSizeRead)
}
