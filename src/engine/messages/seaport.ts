/**
 * Seaport orders (OrderComponents, every released version: the order's fields have not changed since 1.1) and bulk
 * orders (BulkOrder, the Merkle tree of orders that one signature covers): what the user gives (the offer, when the
 * user is the offerer) and what the user receives (consideration items paid to the user), and whether any of the
 * orders is a trade for nothing. Criteria items ("any item of a collection", the collection offers and trait offers)
 * are shown as such.
 */
import { getAddress } from 'viem'
import type { Address, StateChange } from '../api/index.ts'
import { addressInfo, erc721Asset, erc1155Asset, formatAmount, type TransferChange } from '../assets/index.ts'
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
  tokenMetadata,
  tokenMetadataReads,
  tokenUriRead,
} from '../simulation/index.ts'
import { structSignature, type TypedData, type TypedStruct, type TypedValue } from './typedData.ts'

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

/** What one order (or all orders of a bulk signature, added up) moves to and from the user. */
export type SeaportTrade = { offerer: Address; gives: SeaportItem[]; receives: SeaportItem[] }

/** A signed Seaport payload: every order it covers (one, or the leaves of a bulk tree) and their sum. */
export type SeaportOrders = { orders: SeaportTrade[]; total: SeaportTrade; bulk: boolean }

const ORDER_PREFIX = 'address offerer,address zone,OfferItem[] offer,ConsiderationItem[] consideration,'
const OFFER_ITEM = 'uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount'
const CONSIDERATION_ITEM = `${OFFER_ITEM},address recipient`

/** Seaport accepts bulk trees of height 1 to 24: `OrderComponents[2]` up to 24 times (LooksRare's are lower). */
const BULK_TREE = /^(\w+)((?:\[2\]){1,24})$/

/**
 * The orders a Seaport payload signs for `user`, or null when it is not one: an OrderComponents message, or a
 * BulkOrder whose tree holds them (padding leaves, which move nothing for the user, add nothing). Dutch auctions move
 * between start and end amounts, so the user is shown the most they may give and the least they may receive.
 */
export function findSeaportOrders(typedData: TypedData, user: Address): SeaportOrders | null {
  const { primaryType, message } = typedData
  if (isOrderType(typedData, primaryType)) {
    const trade = orderTrade(message, user)
    return { orders: [trade], total: trade, bulk: false }
  }
  const leaves = bulkTreeLeaves(typedData, (name) => isOrderType(typedData, name))
  if (!leaves) return null
  return bulkOrders(
    leaves.map((leaf) => orderTrade(leaf, user)),
    user,
  )
}

/**
 * The leaves, left to right, of a bulk signature's tree (a primary type whose one field is `Leaf[2]…[2]`, as Seaport
 * and LooksRare sign many orders at once), or null when the payload is no such tree of `isLeaf` structs.
 */
export function bulkTreeLeaves(typedData: TypedData, isLeaf: (name: string) => boolean): TypedStruct[] | null {
  const fields = typedData.types[typedData.primaryType] ?? []
  const tree = fields.length === 1 ? BULK_TREE.exec(fields[0]?.type ?? '') : null
  if (!tree || !isLeaf(tree[1] as string)) return null
  return treeLeaves(typedData.message[fields[0]?.name as string] as TypedValue)
}

/** Orders one signature covers, each kept for judging and all added up for showing. */
export function bulkOrders(orders: SeaportTrade[], user: Address): SeaportOrders {
  const total = {
    offerer: user.toLowerCase() as Address,
    gives: mergeItems(orders.flatMap((order) => order.gives)),
    receives: mergeItems(orders.flatMap((order) => order.receives)),
  }
  return { orders, total, bulk: true }
}

/** Whether any item is of a type its exchange (Seaport, LooksRare) does not define: nothing can be shown for it. */
export function hasUnsupportedItems(trade: SeaportTrade): boolean {
  return [...trade.gives, ...trade.receives].some((item) => item.kind === 'UNKNOWN')
}

/** Whether an item stands for "any item of a collection" (or any item matching a trait list) rather than one token. */
export function isCriteriaItem(item: SeaportItem): boolean {
  return item.kind === 'ERC721_WITH_CRITERIA' || item.kind === 'ERC1155_WITH_CRITERIA'
}

/**
 * Criteria items as state changes: "Receive any 1 Devnet Apes", "Send any 2 of your Devnet Apes", with the user's
 * count of the collection before and after (ERC-1155 contracts: no count without a token id, so 0 before).
 */
export function seaportCriteriaChanges(
  trade: SeaportTrade,
  user: Address,
  chainId: number,
  reads: ReadResults,
): StateChange[] {
  const change = (item: SeaportItem, sign: 1n | -1n): StateChange => {
    const token = getAddress(item.token)
    const metadata = tokenMetadata(chainId, token, reads)
    const held = reads.before.get(readKeys.erc20Balance(token, user))
    const before = item.kind === 'ERC721_WITH_CRITERIA' && typeof held === 'bigint' ? held : 0n
    const after = before + sign * item.amount
    const amount = { before: before.toString(), after: (after < 0n ? 0n : after).toString() }
    const count = formatAmount(item.amount, 0)
    const contract = addressInfo(token)
    const metadataUrl = { rawImageUrl: '' }
    if (item.kind === 'ERC1155_WITH_CRITERIA') {
      const asset = erc1155Asset(token, metadata)
      return {
        humanReadableDiff: sign < 0n ? `Send any ${count} of your ${asset.name}` : `Receive any ${count} ${asset.name}`,
        rawInfo: {
          kind: 'ERC1155_TRANSFER',
          data: { amount, metadata: metadataUrl, tokenId: null, contract, asset, name: asset.name, assetPrice: null },
        },
      }
    }
    const asset = erc721Asset(token, metadata)
    return {
      humanReadableDiff: sign < 0n ? `Send any ${count} of your ${asset.name}` : `Receive any ${count} ${asset.name}`,
      rawInfo: {
        kind: 'ERC721_TRANSFER',
        data: {
          amount,
          contract,
          metadata: metadataUrl,
          tokenId: null,
          asset,
          name: asset.name,
          symbol: asset.symbol,
          assetPrice: null,
        },
      },
    }
  }
  return [
    ...trade.gives.filter(isCriteriaItem).map((item) => change(item, -1n)),
    ...trade.receives.filter(isCriteriaItem).map((item) => change(item, 1n)),
  ]
}

/** The orders at the leaves of a bulk tree, left to right. */
function treeLeaves(node: TypedValue): TypedStruct[] {
  return Array.isArray(node) ? node.flatMap(treeLeaves) : [node as TypedStruct]
}

function isOrderType(typedData: TypedData, name: string): boolean {
  const { types } = typedData
  return (
    structSignature(types, name).startsWith(ORDER_PREFIX) &&
    structSignature(types, 'OfferItem') === OFFER_ITEM &&
    structSignature(types, 'ConsiderationItem') === CONSIDERATION_ITEM
  )
}

function orderTrade(order: TypedStruct, user: Address): SeaportTrade {
  const offerer = order.offerer as Address
  const userAddress = user.toLowerCase()
  const gives = offerer === userAddress ? (order.offer as TypedStruct[]).map((item) => toItem(item, 'most')) : []
  const receives = (order.consideration as TypedStruct[])
    .filter((item) => item.recipient === userAddress)
    .map((item) => toItem(item, 'least'))
  return { offerer, gives: mergeItems(gives), receives: mergeItems(receives) }
}

/**
 * Whether the user gives assets for nothing or next to nothing: nothing at all comes back, or only fungible amounts
 * below one ten-thousandth of a whole token (a typical phishing order pays 1 wei), or tokens with no code: 0x's,
 * 1inch's and UniswapX's transfers of them succeed and move nothing (Seaport and CoW refuse them, and such an order
 * is worth nothing to sign either way). `decimals` gives each fungible token's decimals (18 for the native currency).
 */
export function isTradeForNothing(
  trade: SeaportTrade,
  decimals: (token: Address) => number,
  hasCode: (token: Address) => boolean,
): boolean {
  if (trade.gives.length === 0) return false
  return trade.receives.every((item) => {
    if (item.kind === 'ERC20' && !hasCode(item.token)) return true
    if (item.kind !== 'NATIVE' && item.kind !== 'ERC20') return false
    return item.amount * 10_000n < 10n ** BigInt(decimals(item.token))
  })
}

/** The reads that show the user's holdings of what the order moves: balances, NFT URIs, and metadata not yet cached. */
export function seaportReads(trade: SeaportTrade, user: Address, metadataNeeded: MetadataNeeded): Read[] {
  return [...trade.gives, ...trade.receives].flatMap((item) => {
    if (isCriteriaItem(item)) {
      const token = getAddress(item.token)
      return [erc20BalanceRead(token, user), ...(metadataNeeded(token) ? tokenMetadataReads(token) : [])]
    }
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

/**
 * The order's exact items as the user's balance changes, for the shared state-change renderer: gives first, then
 * receives (criteria items are rendered by seaportCriteriaChanges).
 */
export function seaportTransfers(trade: SeaportTrade, user: Address, reads: ReadResults): TransferChange[] {
  const exact = (item: SeaportItem) => !isCriteriaItem(item)
  return [
    ...trade.gives.filter(exact).map((item) => transfer(item, user, reads, -1n)),
    ...trade.receives.filter(exact).map((item) => transfer(item, user, reads, 1n)),
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
export function mergeItems(items: SeaportItem[]): SeaportItem[] {
  const merged = new Map<string, SeaportItem>()
  for (const item of items) {
    const key = `${item.kind}:${item.token}:${item.identifier}`
    const existing = merged.get(key)
    merged.set(key, existing ? { ...existing, amount: existing.amount + item.amount } : item)
  }
  return [...merged.values()]
}
