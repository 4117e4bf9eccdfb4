/**
 * Seaport orders (OrderComponents): what the user gives (the offer, when the user is the offerer) and what the user
 * receives (consideration items paid to the user), and whether that is a trade for nothing.
 */
import { getAddress } from 'viem'
import type { Address } from '../api/index.ts'
import type { TransferChange } from '../assets/index.ts'
import {
  type AssetRef,
  erc20BalanceRead,
  erc1155BalanceRead,
  erc1155UriRead,
  type MetadataNeeded,
  nativeBalanceRead,
  type Read,
  type ReadResults,
  readKeys,
  tokenMetadataReads,
  tokenUriRead,
} from '../simulation/index.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

/** Seaport's item types: 4 and 5 match any token of a collection (criteria), which has no single token id. */
export type SeaportItemKind =
  | 'NATIVE'
  | 'ERC20'
  | 'ERC721'
  | 'ERC1155'
  | 'ERC721_WITH_CRITERIA'
  | 'ERC1155_WITH_CRITERIA'
  | 'UNKNOWN'

const ITEM_KINDS: SeaportItemKind[] = [
  'NATIVE',
  'ERC20',
  'ERC721',
  'ERC1155',
  'ERC721_WITH_CRITERIA',
  'ERC1155_WITH_CRITERIA',
]

/** One asset moving to or from the user, with the amount that is worst for the user over the order's lifetime. */
export type SeaportItem = { kind: SeaportItemKind; token: Address; identifier: bigint; amount: bigint }

export type SeaportTrade = { offerer: Address; gives: SeaportItem[]; receives: SeaportItem[] }

const ORDER_PREFIX = 'address offerer,address zone,OfferItem[] offer,ConsiderationItem[] consideration,'
const OFFER_ITEM = 'uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount'
const CONSIDERATION_ITEM = `${OFFER_ITEM},address recipient`

/**
 * The trade a Seaport order makes for `user`, or null when the payload is not an order. Dutch auctions move between
 * start and end amounts, so the user is shown the most they may give and the least they may receive.
 */
export function findSeaportOrder(typedData: TypedData, user: Address): SeaportTrade | null {
  const { types, primaryType, message } = typedData
  if (!structSignature(types, primaryType).startsWith(ORDER_PREFIX)) return null
  if (structSignature(types, 'OfferItem') !== OFFER_ITEM) return null
  if (structSignature(types, 'ConsiderationItem') !== CONSIDERATION_ITEM) return null
  const offerer = message.offerer as Address
  const userAddress = user.toLowerCase()
  const gives = offerer === userAddress ? (message.offer as TypedStruct[]).map((item) => toItem(item, 'most')) : []
  const receives = (message.consideration as TypedStruct[])
    .filter((item) => item.recipient === userAddress)
    .map((item) => toItem(item, 'least'))
  return { offerer, gives: merge(gives), receives: merge(receives) }
}

/** Whether any item is "any token of a collection" or an unknown item type: nothing exact can be shown for it. */
export function hasUnsupportedItems(trade: SeaportTrade): boolean {
  return [...trade.gives, ...trade.receives].some((item) => item.kind === 'UNKNOWN' || item.kind.endsWith('_CRITERIA'))
}

/**
 * Whether the user gives assets for nothing or next to nothing: nothing at all comes back, or only fungible amounts
 * below one ten-thousandth of a whole token (a typical phishing order pays 1 wei). `decimals` gives each fungible
 * token's decimals (18 for the native currency).
 */
export function isTradeForNothing(trade: SeaportTrade, decimals: (token: Address) => number): boolean {
  if (trade.gives.length === 0) return false
  return trade.receives.every((item) => {
    if (item.kind !== 'NATIVE' && item.kind !== 'ERC20') return false
    return item.amount * 10_000n < 10n ** BigInt(decimals(item.token))
  })
}

/** The reads that show the user's holdings of what the order moves: balances, NFT URIs, and metadata not yet cached. */
export function seaportReads(trade: SeaportTrade, user: Address, metadataNeeded: MetadataNeeded): Read[] {
  return [...trade.gives, ...trade.receives].flatMap((item) => {
    const asset = assetOf(item)
    if (asset.standard === 'NATIVE') return [nativeBalanceRead(user)]
    const metadata = metadataNeeded(asset.token) ? tokenMetadataReads(asset.token) : []
    if (asset.standard === 'ERC20') return [erc20BalanceRead(asset.token, user), ...metadata]
    if (asset.standard === 'ERC1155') {
      return [
        erc1155BalanceRead(asset.token, user, asset.tokenId),
        erc1155UriRead(asset.token, asset.tokenId),
        ...metadata,
      ]
    }
    return [tokenUriRead(asset.token, asset.tokenId), ...metadata]
  })
}

/** The order as the user's balance changes, for the shared state-change renderer: gives first, then receives. */
export function seaportTransfers(trade: SeaportTrade, user: Address, reads: ReadResults): TransferChange[] {
  return [
    ...trade.gives.map((item) => transfer(item, user, reads, -1n)),
    ...trade.receives.map((item) => transfer(item, user, reads, 1n)),
  ]
}

/** An ERC-721 item is one token, held (1) or not (0); other balances come from the reads. */
function transfer(item: SeaportItem, user: Address, reads: ReadResults, sign: 1n | -1n): TransferChange {
  const asset = assetOf(item)
  const key =
    asset.standard === 'NATIVE'
      ? readKeys.native(user)
      : asset.standard === 'ERC20'
        ? readKeys.erc20Balance(asset.token, user)
        : asset.standard === 'ERC1155'
          ? readKeys.erc1155Balance(asset.token, user, asset.tokenId)
          : null
  const read = key ? reads.before.get(key) : undefined
  const held = asset.standard === 'ERC721' ? (sign < 0n ? 1n : 0n) : typeof read === 'bigint' ? read : 0n
  const after = held + sign * item.amount
  return { type: 'transfer', account: user, asset, before: held, after: after < 0n ? 0n : after, counterparty: null }
}

function assetOf(item: SeaportItem): AssetRef {
  if (item.kind === 'NATIVE') return { standard: 'NATIVE' }
  const token = getAddress(item.token)
  if (item.kind === 'ERC20') return { standard: 'ERC20', token }
  return { standard: item.kind === 'ERC721' ? 'ERC721' : 'ERC1155', token, tokenId: item.identifier }
}

function toItem(item: TypedStruct, pick: 'most' | 'least'): SeaportItem {
  const start = item.startAmount as bigint
  const end = item.endAmount as bigint
  const [smaller, larger] = start > end ? [end, start] : [start, end]
  return {
    kind: ITEM_KINDS[Number(item.itemType as bigint)] ?? 'UNKNOWN',
    token: item.token as Address,
    identifier: item.identifierOrCriteria as bigint,
    amount: pick === 'most' ? larger : smaller,
  }
}

/** Items of the same token (and id) add up, as they move in the same direction. */
function merge(items: SeaportItem[]): SeaportItem[] {
  const merged = new Map<string, SeaportItem>()
  for (const item of items) {
    const key = `${item.kind}:${item.token}:${item.identifier}`
    const existing = merged.get(key)
    merged.set(key, existing ? { ...existing, amount: existing.amount + item.amount } : item)
  }
  return [...merged.values()]
}
