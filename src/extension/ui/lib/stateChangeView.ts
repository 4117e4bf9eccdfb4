/** Turns the engine's state changes into rows a person can read: signed amounts, approvals in words, dollar values. */
import {
  type AssetPrice,
  boundOf,
  type CanTakeNow,
  isManagerChange,
  isUnlimited,
  type RawInfo,
  type StateChange,
} from '../../../engine/index.ts'
import { dollarsOf, formatAmount, formatDollars, shortAddress } from './format.ts'

/** What the row's icon shows: the asset's own image when local, else a badge generated from address and label. */
export type IconInfo = { address: string; label: string; imageUrl: string | null }

export type ChangeRow = {
  kind: RawInfo['kind'] | string
  direction: 'out' | 'in' | 'approval' | 'revoke'
  icon: IconInfo
  /** e.g. "−1 ETH", "+1,000 USDC", "Allow 0xab…cd to spend unlimited USDC". */
  text: string
  /**
   * The asset's symbol or name as `text` and `canTake` write it: the token's own words, which the window isolates
   * (<bdi>) so that a right-to-left symbol cannot reorder the amount beside it. Null when the row names no asset.
   */
  assetText: string | null
  /**
   * The other party: an address in full (shown shortened, full on hover and copy), or a description when the change
   * has no known party (an order's taker: "whoever fills the order").
   */
  party: { label: string; address: string } | { label: string; who: string } | null
  /** Extra facts: a permit's expiry. */
  note: string | null
  /** For approvals and permits: what the spender could move at once, "can take now: 10,000 USDC ($10,000.00)". */
  canTake: string | null
  usd: string | null
  /** The row's dollar value, negative when it leaves the account; null without a price or for approvals. */
  dollars: number | null
}

/** "can take now: 10,000 USDC", with dollars when the engine knew the asset's price. */
function canTakeText(canTake: CanTakeNow | undefined, decimals: number, unit: string): string | null {
  if (!canTake) return null
  const dollars =
    canTake.dollarValue === null
      ? ''
      : ` (${canTake.dollarValue.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 })})`
  return `can take now: ${formatAmount(BigInt(canTake.amount), decimals)} ${unit}${dollars}`
}

/** `label` says whose account it is: "You", "Safe" or "Other account". */
export type AccountGroup = { account: string; isUser: boolean; label: string; rows: ChangeRow[] }

const delta = (amount: { before: string; after: string }) => BigInt(amount.after) - BigInt(amount.before)

/**
 * "unlimited" by the engine's own rule (isUnlimited), so the window and humanReadableDiff agree. (The engine also calls
 * a permit above the token's total supply unlimited; the wire shape carries no supply, so such a permit shows its
 * number here.)
 */
const allowanceText = (value: bigint, decimals: number, symbol: string) =>
  isUnlimited(value) ? `unlimited ${symbol}` : `${formatAmount(value, decimals)} ${symbol}`

const priceOf = (price: AssetPrice | null) => price?.dollarValuePerToken ?? null

/** A transfer's dollar value (signed) and its text, from one computation. */
function valued(diff: bigint, decimals: number, price: number | null): Pick<ChangeRow, 'usd' | 'dollars'> {
  const dollars = dollarsOf(diff, decimals, price)
  return { dollars, usd: dollars === null ? null : formatDollars(Math.abs(dollars)) }
}

/** "to 0xab…cd" for what leaves, "from …" for what comes in; the description when there is no counterparty. */
function partyOf(counterparty: { address: string } | null | undefined, unknownParty: string | null, diff: bigint) {
  const label = diff < 0n ? 'to' : 'from'
  if (counterparty) return { label, address: counterparty.address }
  return unknownParty === null ? null : { label, who: unknownParty }
}

/** What an order's amount binds, under the amount: the signed number alone would not say it is a limit. */
function boundNote(humanReadableDiff: string): string | null {
  const bound = boundOf(humanReadableDiff)
  if (bound === 'atLeast') return 'At least this much: the order pays no less'
  if (bound === 'atMost') return 'At most this much: the order takes no more'
  if (bound === 'upTo') return 'Up to this much, in proportion to how much of the order is filled'
  return null
}

const nftLabel = (name: string, tokenId: string | null) => (tokenId === null ? name : `${name} #${tokenId}`)

/**
 * Describes one state change; kinds this page does not know fall back to the engine's own sentence. A transfer's party
 * is its counterparty; `unknownParty` names it when the change has none (never the asset's own contract, which the
 * message shape puts in `contract`).
 */
export function describeChange(change: StateChange, unknownParty: string | null = null): ChangeRow {
  const raw = change.rawInfo
  switch (raw.kind) {
    case 'NATIVE_ASSET_TRANSFER':
    case 'ERC20_TRANSFER': {
      const { asset, amount } = raw.data
      const diff = delta(amount)
      const party = partyOf(raw.data.counterparty, unknownParty, diff)
      return {
        kind: raw.kind,
        direction: diff < 0n ? 'out' : 'in',
        icon: { address: asset.address, label: asset.symbol, imageUrl: asset.imageUrl },
        text: `${formatAmount(diff, asset.decimals, { signed: true })} ${asset.symbol}`,
        assetText: asset.symbol,
        party,
        note: boundNote(change.humanReadableDiff),
        canTake: null,
        ...valued(diff, asset.decimals, priceOf(asset.price)),
      }
    }
    case 'ERC20_APPROVAL':
    case 'ERC20_PERMIT': {
      const { asset, spender } = raw.data
      const value = raw.kind === 'ERC20_PERMIT' ? BigInt(raw.data.amount) : BigInt(raw.data.amount.after)
      const who = shortAddress(spender.address)
      const revoke = value === 0n
      let note: string | null = null
      if (raw.kind === 'ERC20_PERMIT') {
        const deadline = raw.data.deadline
        note =
          deadline === null
            ? 'Signature permit · never expires'
            : `Signature permit · valid until ${new Date(deadline * 1000).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}`
      }
      // A Compound III manager may take far more than the market's token: the engine's sentence says what.
      const manager = isManagerChange(change)
      return {
        kind: raw.kind,
        direction: revoke ? 'revoke' : 'approval',
        icon: { address: asset.address, label: asset.symbol, imageUrl: asset.imageUrl },
        text: manager
          ? change.humanReadableDiff
          : revoke
            ? `Remove ${who}'s permission to spend your ${asset.symbol}`
            : `Allow ${who} to spend ${allowanceText(value, asset.decimals, asset.symbol)}`,
        assetText: manager ? asset.name : asset.symbol,
        party: { label: manager ? 'manager' : 'spender', address: spender.address },
        note,
        canTake: revoke || manager ? null : canTakeText(raw.data.canTakeNow, asset.decimals, asset.symbol),
        usd: null,
        dollars: null,
      }
    }
    case 'ERC721_TRANSFER':
    case 'ERC1155_TRANSFER': {
      const { asset, amount, tokenId } = raw.data
      const diff = delta(amount)
      const party = partyOf(raw.data.counterparty, unknownParty, diff)
      const symbol = 'symbol' in asset ? asset.symbol : asset.name
      return {
        kind: raw.kind,
        direction: diff < 0n ? 'out' : 'in',
        icon: { address: asset.address, label: symbol, imageUrl: null },
        text: `${formatAmount(diff, 0, { signed: true })} ${nftLabel(asset.name, tokenId)}`,
        assetText: asset.name,
        party,
        note: null,
        canTake: null,
        ...valued(diff, 0, priceOf(asset.price)),
      }
    }
    case 'ERC721_APPROVAL': {
      const { asset, spender, tokenId, amount } = raw.data
      const revoke = BigInt(amount.after) === 0n
      const who = shortAddress(spender.address)
      const item = nftLabel(asset.name, tokenId)
      return {
        kind: raw.kind,
        direction: revoke ? 'revoke' : 'approval',
        icon: { address: asset.address, label: asset.symbol, imageUrl: null },
        text: revoke ? `Remove ${who}'s permission to move ${item}` : `Allow ${who} to move ${item}`,
        assetText: asset.name,
        party: { label: 'spender', address: spender.address },
        note: null,
        canTake: null,
        usd: null,
        dollars: null,
      }
    }
    case 'ERC721_APPROVAL_FOR_ALL':
    case 'ERC1155_APPROVAL_FOR_ALL': {
      const { asset, spender, amount } = raw.data
      const revoke = BigInt(amount.after) === 0n
      const who = shortAddress(spender.address)
      const symbol = 'symbol' in asset ? asset.symbol : asset.name
      return {
        kind: raw.kind,
        direction: revoke ? 'revoke' : 'approval',
        icon: { address: asset.address, label: symbol, imageUrl: null },
        text: revoke
          ? `Remove ${who}'s permission to move all your ${asset.name}`
          : `Allow ${who} to move all your ${asset.name}`,
        assetText: asset.name,
        party: { label: 'operator', address: spender.address },
        note: null,
        canTake: revoke || !('canTakeNow' in raw.data) ? null : canTakeText(raw.data.canTakeNow, 0, asset.name),
        usd: null,
        dollars: null,
      }
    }
    default:
      return unknownChange(change)
  }
}

function unknownChange(change: StateChange): ChangeRow {
  const raw = change.rawInfo as { kind?: string; data?: { asset?: { address?: string; symbol?: string } } }
  return {
    kind: raw.kind ?? 'UNKNOWN',
    direction: 'approval',
    icon: { address: raw.data?.asset?.address ?? '0x', label: raw.data?.asset?.symbol ?? '?', imageUrl: null },
    text: change.humanReadableDiff,
    assetText: null,
    party: null,
    note: null,
    canTake: null,
    usd: null,
    dollars: null,
  }
}

/** What leaves the account or may be taken from it ranks before what comes in or is given back. */
const GIVES_AWAY: Record<ChangeRow['direction'], boolean> = { out: true, approval: true, revoke: false, in: false }

/**
 * The rows with what the account sends or approves first, each part in engine order: forty airdropped items must not
 * bury the one asset that leaves.
 */
export function lossesFirst(rows: ChangeRow[]): ChangeRow[] {
  return [...rows.filter((row) => GIVES_AWAY[row.direction]), ...rows.filter((row) => !GIVES_AWAY[row.direction])]
}

/**
 * Groups a transaction scan's changes by account, each account's losses first (lossesFirst): the user's own first,
 * then the Safes the user acts for (`safes`, e.g. the target of an execTransaction), then everyone else.
 */
export function groupByAccount(
  changes: Record<string, StateChange[]>,
  userAccount: string,
  safes: string[] = [],
): AccountGroup[] {
  const user = userAccount.toLowerCase()
  const safeSet = new Set(safes.map((safe) => safe.toLowerCase()))
  const rank = (group: AccountGroup) => (group.isUser ? 0 : group.label === 'Safe' ? 1 : 2)
  return Object.entries(changes)
    .map(([account, list]) => {
      const isUser = account.toLowerCase() === user
      const label = isUser ? 'You' : safeSet.has(account.toLowerCase()) ? 'Safe' : 'Other account'
      return { account, isUser, label, rows: lossesFirst(list.map((change) => describeChange(change))) }
    })
    .sort((a, b) => rank(a) - rank(b))
}

/**
 * The groups shown open (the user's own, and the Safes the user acts for) and those folded under "other accounts": a
 * pool's "−2,961 USDC" in red under a small "Other account" tag read as the user's loss. With no group of the user's,
 * every group is shown open.
 */
export function splitGroups(groups: AccountGroup[]): { own: AccountGroup[]; others: AccountGroup[] } {
  const own = groups.filter((group) => group.isUser || group.label === 'Safe')
  if (own.length === 0) return { own: groups, others: [] }
  return { own, others: groups.filter((group) => !own.includes(group)) }
}

/** What an account's rows add up to in dollars, each way, and how many moving rows had no price to count. */
export type DollarTotals = { send: number; receive: number; unpricedSend: number; unpricedReceive: number }

/** The dollar totals of a group's transfers ("You send ≈ $1,203.50"), or null when none of them has a price. */
export function dollarTotals(rows: ChangeRow[]): DollarTotals | null {
  const moving = rows.filter((row) => row.direction === 'out' || row.direction === 'in')
  if (!moving.some((row) => row.dollars !== null)) return null
  const totals: DollarTotals = { send: 0, receive: 0, unpricedSend: 0, unpricedReceive: 0 }
  for (const row of moving) {
    const out = row.direction === 'out'
    if (row.dollars === null) {
      if (out) totals.unpricedSend++
      else totals.unpricedReceive++
    } else if (out) totals.send += -row.dollars
    else totals.receive += row.dollars
  }
  return totals
}
