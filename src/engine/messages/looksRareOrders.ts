/**
 * LooksRare v2 maker orders (`Maker`, as `@looksrare/sdk-v2` signs them for LooksRareProtocol) and their bulk form
 * (`BatchOrder`, a Merkle tree of makers under one signature). A maker ask sells `itemIds` of `collection` for `price`
 * in `currency` (the zero address for ETH), paid to its `signer` less the protocol's and the creator's fees, which the
 * exchange sets when it is filled; a maker bid pays `price` for them. Bids of the collection strategies buy any item of
 * the collection. Recognised by the maker's fields, not its name or domain.
 */
import { zeroAddress } from 'viem'
import type { Address, Warning } from '../api/index.ts'
import type { Bound } from './bounds.ts'
import { bulkOrders, bulkTreeLeaves, type SeaportItem, type SeaportOrders, type SeaportTrade } from './seaport.ts'
import { foreignMakerWarning, unpinnedOrderWarning } from './swapOrders.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

/** A LooksRare signature read for the user: its orders, how their amounts bind, and what is off about them. */
export type LooksRareOrders = { orders: SeaportOrders; bounds: { gives: Bound; receives: Bound }; warnings: Warning[] }

const MAKER =
  'uint8 quoteType,uint256 globalNonce,uint256 subsetNonce,uint256 orderNonce,uint256 strategyId,' +
  'uint8 collectionType,address collection,address currency,address signer,uint256 startTime,uint256 endTime,' +
  'uint256 price,uint256[] itemIds,uint256[] amounts,bytes additionalParameters'

const PROTOCOL = 'LooksRare'
const ASK = 1n
/** The SDK's StrategyType: 0 trades the items named; 1 and 2 (bids only) buy any item of the collection. */
const STANDARD = 0n
const COLLECTION_STRATEGIES = new Set([1n, 2n])

/** The LooksRare maker order or bulk order a payload signs, read for `user`, or null when it is none. */
export function findLooksRareOrders(typedData: TypedData, user: Address): LooksRareOrders | null {
  const isMaker = (name: string) => structSignature(typedData.types, name) === MAKER
  const single = isMaker(typedData.primaryType)
  const makers = single ? [typedData.message] : bulkTreeLeaves(typedData, isMaker)
  if (!makers) return null
  const mine = makers.filter((maker) => (maker.signer as Address) === user.toLowerCase())
  const trades = makers.map((maker) => makerTrade(maker, user))
  const orders = single ? { orders: trades, total: trades[0] as SeaportTrade, bulk: false } : bulkOrders(trades, user)
  // The SDK pads a tree with empty bids signed by the zero address; those are nobody's.
  const foreign = makers.find((maker) => maker.signer !== user.toLowerCase() && maker.signer !== zeroAddress)
  const unpinned = mine.filter((maker) => !pinned(maker)).map((maker) => maker.strategyId as bigint)
  return {
    orders,
    // An ask's price comes in less fees the exchange sets when it is filled: at most the price.
    bounds: { gives: 'exact', receives: mine.some((maker) => maker.quoteType !== ASK) ? 'exact' : 'atMost' },
    warnings: [
      ...(foreign ? [foreignMakerWarning(PROTOCOL, foreign.signer as Address)] : []),
      ...(unpinned.length
        ? [unpinnedOrderWarning(PROTOCOL, `a strategy contract (id ${[...new Set(unpinned)].join(', ')}) decides it`)]
        : []),
    ],
  }
}

/** Whether the order moves what it signs: a standard order, or a bid of a collection strategy (any item of it). */
function pinned(maker: TypedStruct): boolean {
  return maker.strategyId === STANDARD || isCollectionBid(maker)
}

/** One maker as a trade for the user: nothing unless the user signs it as its maker. */
function makerTrade(maker: TypedStruct, user: Address): SeaportTrade {
  const signer = maker.signer as Address
  if (signer !== user.toLowerCase()) return { offerer: signer, gives: [], receives: [] }
  const currency = maker.currency as Address
  const payment: SeaportItem = {
    kind: currency === zeroAddress ? 'NATIVE' : 'ERC20',
    token: currency,
    identifier: 0n,
    amount: maker.price as bigint,
  }
  const items = makerItems(maker)
  return maker.quoteType === ASK
    ? { offerer: signer, gives: items, receives: [payment] }
    : { offerer: signer, gives: [payment], receives: items }
}

/**
 * The items a maker trades: each id with its amount (always 1 for ERC-721, as the exchange moves one), or for a
 * collection bid "any" item of the collection, as many as its first amount. A collection type the exchange does not
 * define cannot be shown.
 */
function makerItems(maker: TypedStruct): SeaportItem[] {
  const token = maker.collection as Address
  const type = maker.collectionType as bigint
  const erc721 = type === 0n
  const amounts = maker.amounts as bigint[]
  const amount = (index: number) => (erc721 ? 1n : (amounts[index] ?? 0n))
  if (type > 1n) return [{ kind: 'UNKNOWN', token, identifier: 0n, amount: 0n }]
  if (isCollectionBid(maker)) {
    return [
      { kind: erc721 ? 'ERC721_WITH_CRITERIA' : 'ERC1155_WITH_CRITERIA', token, identifier: 0n, amount: amount(0) },
    ]
  }
  return (maker.itemIds as bigint[]).map((identifier, index) => ({
    kind: erc721 ? 'ERC721' : 'ERC1155',
    token,
    identifier,
    amount: amount(index),
  }))
}

function isCollectionBid(maker: TypedStruct): boolean {
  return maker.quoteType !== ASK && COLLECTION_STRATEGIES.has(maker.strategyId as bigint)
}
