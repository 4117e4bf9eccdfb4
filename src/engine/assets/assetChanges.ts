/** Nets a simulation's movements and approvals into per-account changes with before/after values (internal model). */
import { type Address, getAddress, isAddressEqual, maxUint256, zeroAddress } from 'viem'
import {
  type AssetRef,
  READER_ADDRESS,
  type ReadResults,
  readKeys,
  type SimulationResult,
} from '../simulation/index.ts'

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

/** One asset's identity, as changes are netted per asset: the native currency, a token, or one NFT. */
export const assetKey = (asset: AssetRef) =>
  asset.standard === 'NATIVE'
    ? 'native'
    : asset.standard === 'ERC20'
      ? `erc20:${asset.token.toLowerCase()}`
      : `${asset.standard}:${asset.token.toLowerCase()}:${asset.tokenId}`

const ignored = (account: Address) => isAddressEqual(account, zeroAddress) || isAddressEqual(account, READER_ADDRESS)

/** What an approval grants, for its wording and warnings. */
export function grantedAmount(change: ApprovalChange): bigint {
  return change.granted ?? change.after
}

/** Every account's net changes, transfers first in order of appearance, then approvals. */
export function computeAssetChanges(result: SimulationResult): AssetChange[] {
  return [...transferChanges(result), ...approvalChanges(result)]
}

function transferChanges(result: SimulationResult): TransferChange[] {
  type Net = { account: Address; asset: AssetRef; delta: bigint; flows: Map<string, bigint> }
  const nets = new Map<string, Net>()
  const nftOwners = new Map<string, { asset: AssetRef; first: Address; last: Address }>()
  const touch = (account: Address, asset: AssetRef, delta: bigint, other: Address) => {
    const key = `${assetKey(asset)}|${account.toLowerCase()}`
    const net = nets.get(key) ?? { account, asset, delta: 0n, flows: new Map() }
    net.delta += delta
    const otherKey = other.toLowerCase()
    net.flows.set(otherKey, (net.flows.get(otherKey) ?? 0n) + (delta < 0n ? -delta : delta))
    nets.set(key, net)
  }
  for (const { asset, from, to, amount } of result.movements) {
    if (asset.standard === 'ERC721') {
      const key = assetKey(asset)
      const owners = nftOwners.get(key)
      if (owners) owners.last = to
      else nftOwners.set(key, { asset, first: from, last: to })
      continue
    }
    if (amount === 0n || isAddressEqual(from, to)) continue
    touch(from, asset, -amount, to)
    touch(to, asset, amount, from)
  }
  const changes: TransferChange[] = []
  for (const net of nets.values()) {
    if (net.delta === 0n || ignored(net.account)) continue
    const [before, after] = beforeAfter(result.reads, balanceKey(net.asset, net.account), net.delta)
    const counterparty = [...net.flows.entries()].sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0))[0]?.[0]
    changes.push({
      type: 'transfer',
      account: net.account,
      asset: net.asset,
      before,
      after,
      counterparty: counterparty && counterparty !== zeroAddress ? getAddress(counterparty) : null,
    })
  }
  for (const { asset, first, last } of nftOwners.values()) {
    if (isAddressEqual(first, last)) continue
    const sender = !ignored(first)
    const receiver = !ignored(last)
    if (sender) changes.push(nftChange(first, asset, 1n, 0n, receiver ? last : null))
    if (receiver) changes.push(nftChange(last, asset, 0n, 1n, sender ? first : null))
  }
  return changes
}

function nftChange(account: Address, asset: AssetRef, before: bigint, after: bigint, counterparty: Address | null) {
  return { type: 'transfer', account, asset, before, after, counterparty } satisfies TransferChange
}

function balanceKey(asset: AssetRef, account: Address): string | null {
  if (asset.standard === 'NATIVE') return readKeys.native(account)
  if (asset.standard === 'ERC20') return readKeys.erc20Balance(asset.token, account)
  if (asset.standard === 'ERC1155') return readKeys.erc1155Balance(asset.token, account, asset.tokenId)
  return null
}

/** Before/after from the reads when made; otherwise derived from the net flow the logs show. */
function beforeAfter(reads: ReadResults, key: string | null, delta: bigint): [bigint, bigint] {
  const readBefore = key ? reads.before.get(key) : undefined
  const readAfter = key ? reads.after.get(key) : undefined
  const before =
    typeof readBefore === 'bigint'
      ? readBefore
      : typeof readAfter === 'bigint'
        ? readAfter - delta
        : delta < 0n
          ? -delta
          : 0n
  const after = typeof readAfter === 'bigint' ? readAfter : before + delta
  return [before, after]
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
  return [...latest.values()]
}

function readPair(reads: ReadResults, key: string): [unknown, unknown] {
  return [reads.before.get(key), reads.after.get(key)]
}
