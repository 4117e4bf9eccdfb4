/**
 * A Safe's configuration — who and what controls it — as the simulation reads it before and after the transactions,
 * and the changes between the two. The simulation's own override of the nonce (a message's) is told apart from what
 * the transactions did, so only real changes are reported.
 */
import { type Address, type Hex, isAddressEqual, toEventSelector, zeroAddress } from 'viem'
import { safeDeployment } from './deployments.ts'

/** Everything that decides who controls a Safe. Slot fields are null where the Safe cannot show its storage (< 1.3.0). */
export type SafeConfig = {
  singleton: Address
  owners: Address[]
  threshold: bigint
  nonce: bigint
  version: string | null
  /** The first page of enabled modules, newest first; `moreModules` when there are more than it holds. */
  modules: Address[]
  moreModules: boolean
  guard: Address | null
  /** Safe 1.5.0's guard on module transactions (zero before 1.5.0). */
  moduleGuard: Address | null
  fallbackHandler: Address | null
}

export type AddressField = 'singleton' | 'guard' | 'moduleGuard' | 'fallbackHandler'
export type ListField = 'owners' | 'modules'
export type NumberField = 'threshold' | 'nonce'
export type SafeConfigField = AddressField | ListField | NumberField

/** One field of a Safe's configuration that the transactions changed. */
export type SafeConfigChange =
  | { safe: Address; field: AddressField; before: Address; after: Address }
  | { safe: Address; field: ListField; before: Address[]; after: Address[]; added: Address[]; removed: Address[] }
  | { safe: Address; field: NumberField; before: bigint; after: bigint }

/** What the simulation itself did to a Safe, so its overrides are not reported as the transactions' changes. */
export type SimulationOverrides = {
  /** A message's nonce written into the nonce slot for the transactions, or null. */
  nonce: bigint | null
}

/** A simulated log, as far as these checks read it. */
type Log = { address: Address; topics: readonly Hex[]; data: Hex }

let topics: { executed: Set<Hex> } | undefined
/** The Safe events' topics, hashed on first use: hashing while a service worker starts delays its first answer. */
const safeTopics = () =>
  (topics ??= {
    executed: new Set([
      toEventSelector('ExecutionSuccess(bytes32,uint256)'),
      toEventSelector('ExecutionFailure(bytes32,uint256)'),
    ]),
  })

/** True when the configuration read is a Safe's: it has owners and a threshold. */
export function isSafeConfig(config: SafeConfig | null | undefined): config is SafeConfig {
  return !!config && config.owners.length > 0 && config.threshold > 0n
}

/** Each field the transactions changed, in the order a signer should read them (who runs the code first). */
export function safeConfigChanges(
  safe: Address,
  before: SafeConfig,
  after: SafeConfig,
  overrides: SimulationOverrides,
  logs: Log[],
): SafeConfigChange[] {
  const own = logs.filter((log) => isAddressEqual(log.address, safe))
  const changes: SafeConfigChange[] = []
  // Code that is not a Safe singleton answers every other read now: only the swap itself can be trusted.
  if (!isAddressEqual(before.singleton, after.singleton) && safeDeployment(after.singleton)?.role !== 'singleton') {
    return [{ safe, field: 'singleton', before: before.singleton, after: after.singleton }]
  }
  const address = (field: AddressField) => {
    const was = before[field]
    const now = after[field]
    // A field the Safe cannot show on either side (pre-1.3.0 storage) is unknown, not changed.
    if (was === null || now === null || isAddressEqual(was, now)) return
    changes.push({ safe, field, before: was, after: now })
  }
  const list = (field: ListField) => {
    const added = after[field].filter((entry) => !includes(before[field], entry))
    const removed = before[field].filter((entry) => !includes(after[field], entry))
    if (added.length === 0 && removed.length === 0) return
    changes.push({ safe, field, before: before[field], after: after[field], added, removed })
  }
  address('singleton')
  list('owners')
  if (after.threshold !== before.threshold)
    changes.push({ safe, field: 'threshold', before: before.threshold, after: after.threshold })
  list('modules')
  address('guard')
  address('moduleGuard')
  address('fallbackHandler')
  // Each executed Safe transaction uses one nonce; any other jump invalidates the Safe's queued transactions.
  const { executed } = safeTopics()
  const executions = BigInt(own.filter((log) => executed.has(log.topics[0] as Hex)).length)
  const expected = (overrides.nonce ?? before.nonce) + executions
  if (after.nonce !== expected) changes.push({ safe, field: 'nonce', before: before.nonce, after: after.nonce })
  return changes
}

function includes(list: Address[], address: Address): boolean {
  return list.some((entry) => isAddressEqual(entry, address))
}

/** True for the zero address: no guard, no handler. */
export function isUnset(address: Address): boolean {
  return isAddressEqual(address, zeroAddress)
}
