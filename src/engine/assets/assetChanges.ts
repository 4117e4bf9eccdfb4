/** Nets a simulation's movements and approvals into per-account changes with before/after values (internal model). */
import { type Address, getAddress, isAddressEqual, maxUint256, zeroAddress } from 'viem'
import { type AssetRef, type ReadResults, readKeys, type SimulationResult } from '../simulation/index.ts'
import { assetKey, type BalanceNet, balanceNets, ignoredAccount } from './balanceReconciliation.ts'

/** A balance change of one account in one asset (for ERC-721, one token: 1 → 0 or 0 → 1). */
export type TransferChange = {
  type: 'transfer'
  account: Address
  asset: AssetRef
  before: bigint
  after: bigint
  /** The account on the other side of the largest flow, or null when there is none (mint/burn). */
  counterparty: Address | null
}

/** The approval state an owner ends with for a spender. */
export type ApprovalChange = {
  type: 'approval'
  standard: 'ERC20' | 'ERC721' | 'FOR_ALL'
  token: Address
  owner: Address
  spender: Address
  tokenId: bigint | null
  before: bigint
  after: bigint
  /**
   * What the last approval event granted (allowance, or 1/0), when it differs from `after` because a later step of
   * the bundle spent it; defaults to `after`.
   */
  granted?: bigint
  /** The contract that keeps this ERC-20 allowance when it is not the token (Permit2). */
  via?: Address
}

export type AssetChange = TransferChange | ApprovalChange

/** What an approval grants, for its wording and warnings. */
export function grantedAmount(change: ApprovalChange): bigint {
  return change.granted ?? change.after
}

/** Every account's net changes, transfers first in order of appearance, then approvals. */
export function computeAssetChanges(result: SimulationResult): AssetChange[] {
  return [...transferChanges(result), ...approvalChanges(result)]
}

/**
 * Balance changes: each fungible net as its balance reads show it when they were made (the trace can miss a transfer,
 * events can lie or be missing), else as traced; NFTs from their first to their last owner.
 */
function transferChanges(result: SimulationResult): TransferChange[] {
  const nets = balanceNets(result)
  const changes: TransferChange[] = []
  for (const net of nets) {
    const change = fungibleChange(net, nets)
    if (change) changes.push(change)
  }
  const nftOwners = new Map<string, { asset: AssetRef; first: Address; last: Address }>()
  for (const { asset, from, to } of result.movements) {
    if (asset.standard !== 'ERC721') continue
    const key = assetKey(asset)
    const owners = nftOwners.get(key)
    if (owners) owners.last = to
    else nftOwners.set(key, { asset, first: from, last: to })
  }
  for (const { asset, first, last } of nftOwners.values()) {
    if (isAddressEqual(first, last)) continue
    const sender = !ignoredAccount(first)
    const receiver = !ignoredAccount(last)
    if (sender) changes.push(nftChange(first, asset, 1n, 0n, receiver ? last : null))
    if (receiver) changes.push(nftChange(last, asset, 0n, 1n, sender ? first : null))
  }
  return changes
}

/**
 * One account's change in a fungible asset, or null when it has none. The reads decide when they were made; a token
 * whose reads show nothing while its events move an amount is shown as its events say, never as "Receive 0" (the
 * disagreement is a warning of its own). The native reads are the node's own balances: what they do not show did not
 * happen to that account.
 */
function fungibleChange(net: BalanceNet, nets: BalanceNet[]): TransferChange | null {
  const { account, asset, read, traced } = net
  const readDelta = read ? read.after - read.before : null
  if (readDelta === 0n && (traced === 0n || asset.standard === 'NATIVE')) return null
  if (readDelta === null && traced === 0n) return null
  // Without a read to start from (or one the events would take below zero), the events' own amount is the balance.
  const floor = traced < 0n ? -traced : 0n
  const base = read && read.before >= floor ? read.before : floor
  const [before, after] = read && readDelta !== 0n ? [read.before, read.after] : [base, base + traced]
  return { type: 'transfer', account, asset, before, after, counterparty: counterpartyOf(net, after - before, nets) }
}

/**
 * The account on the other side of the largest traced flow; for a change only the reads show, the account whose read
 * change in the same asset is the largest one the other way. Null for a mint or burn, or when there is none.
 */
function counterpartyOf(net: BalanceNet, delta: bigint, nets: BalanceNet[]): Address | null {
  const largest = <T>(entries: [T, bigint][]) =>
    entries.sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0))[0]?.[0]
  if (net.flows.size > 0) {
    const other = largest([...net.flows.entries()])
    return other && other !== zeroAddress ? getAddress(other) : null
  }
  const key = assetKey(net.asset)
  const opposite = nets.flatMap((other): [Address, bigint][] => {
    if (assetKey(other.asset) !== key || !other.read || isAddressEqual(other.account, net.account)) return []
    const change = other.read.after - other.read.before
    return (delta < 0n ? change > 0n : change < 0n) ? [[other.account, change < 0n ? -change : change]] : []
  })
  return largest(opposite) ?? null
}

function nftChange(account: Address, asset: AssetRef, before: bigint, after: bigint, counterparty: Address | null) {
  return { type: 'transfer', account, asset, before, after, counterparty } satisfies TransferChange
}

function approvalChanges(result: SimulationResult): ApprovalChange[] {
  const latest = new Map<string, ApprovalChange>()
  for (const event of result.approvals) {
    if (event.kind === 'ERC721' && isAddressEqual(event.spender, zeroAddress)) continue
    const tokenId = event.kind === 'ERC721' ? event.tokenId : null
    const via = event.kind === 'ERC20' ? event.via : undefined
    const key = [event.kind, via ?? '', event.token, event.owner, event.kind === 'ERC721' ? tokenId : event.spender]
      .join('|')
      .toLowerCase()
    const change: ApprovalChange = {
      type: 'approval',
      standard: event.kind,
      token: event.token,
      owner: event.owner,
      spender: event.spender,
      tokenId,
      before: 0n,
      after: 0n,
      granted: event.kind === 'ERC20' ? event.amount : event.kind === 'FOR_ALL' && !event.approved ? 0n : 1n,
      ...(via ? { via } : {}),
    }
    if (event.kind === 'ERC20') {
      const key = via
        ? readKeys.allowanceVia(via, event.token, event.owner, event.spender)
        : readKeys.allowance(event.token, event.owner, event.spender)
      const [before, after] = readPair(result.reads, key)
      change.before = typeof before === 'bigint' ? before : 0n
      change.after = typeof after === 'bigint' ? after : event.amount
    } else if (event.kind === 'FOR_ALL') {
      const [before, after] = readPair(result.reads, readKeys.approvedForAll(event.token, event.owner, event.spender))
      change.before = before === true ? maxUint256 : 0n
      change.after = (typeof after === 'boolean' ? after : event.approved) ? maxUint256 : 0n
    } else {
      change.after = 1n
    }
    latest.set(key, change)
  }
  const shown = new Set([...latest.values()].map((change) => approvalReadKey(change)))
  return [...latest.values(), ...silentApprovals(result.reads, shown)]
}

/** The read key of an approval's state: its allowance, or its approval for all; null for one NFT's approval. */
function approvalReadKey(change: ApprovalChange): string | null {
  if (change.standard === 'FOR_ALL') return readKeys.approvedForAll(change.token, change.owner, change.spender)
  if (change.standard === 'ERC721') return null
  return change.via
    ? readKeys.allowanceVia(change.via, change.token, change.owner, change.spender)
    : readKeys.allowance(change.token, change.owner, change.spender)
}

/**
 * Approvals the reads show changing while no event reported them: a token whose approve() emits no Approval still
 * grants what it grants. Only the allowances and approvals for all the scan read (those the calldata asks for).
 */
function silentApprovals(reads: ReadResults, shown: Set<string | null>): ApprovalChange[] {
  const changes: ApprovalChange[] = []
  for (const [key, before] of reads.before) {
    const after = reads.after.get(key)
    if (shown.has(key) || after === undefined || after === before) continue
    const [kind, token, owner, spender, extra] = key.split(':')
    if ((kind !== 'allowance' && kind !== 'forall') || !token || !owner || !spender || extra !== undefined) continue
    const parties = {
      token: getAddress(token),
      owner: getAddress(owner),
      spender: getAddress(spender),
    }
    if (kind === 'allowance' && typeof before === 'bigint' && typeof after === 'bigint') {
      changes.push({ ...parties, type: 'approval', standard: 'ERC20', tokenId: null, before, after })
    } else if (kind === 'forall' && typeof before === 'boolean' && typeof after === 'boolean') {
      const [from, to] = [before, after].map((approved) => (approved ? maxUint256 : 0n)) as [bigint, bigint]
      changes.push({ ...parties, type: 'approval', standard: 'FOR_ALL', tokenId: null, before: from, after: to })
    }
  }
  return changes
}

function readPair(reads: ReadResults, key: string): [unknown, unknown] {
  return [reads.before.get(key), reads.after.get(key)]
}
