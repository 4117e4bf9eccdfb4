/**
 * Swap orders signed off chain and filled by a protocol's contract: CoW Protocol (GPv2 orders), 0x v4 limit and RFQ
 * orders, and 1inch limit orders (Limit Order Protocol v3, router v5). Each says what its maker gives, what it is paid
 * and to whom. Recognised by the order's fields, not its name or domain, so an order sent to a look-alike contract is
 * read all the same.
 */
import { getAddress, isAddressEqual, zeroAddress } from 'viem'
import type { Address, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import type { SeaportItem, SeaportOrders, SeaportTrade } from './seaport.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

/**
 * How an amount binds when the order is filled: exactly, at most (a buy order's price limit), up to (a partial fill of
 * it), or at least (the least the maker is paid for what it gives).
 */
export type Bound = 'exact' | 'atMost' | 'upTo' | 'atLeast'

/** One side of a swap: the token (the zero address for the native currency) and its amount at a full fill. */
export type SwapLeg = { token: Address; amount: bigint; bound: Bound }

/** A swap order as its contract settles it. */
export type SwapOrder = {
  protocol: 'CoW Protocol' | '0x' | '1inch'
  /** Whose tokens it sells: the signer for a CoW order, the `maker` field otherwise. */
  maker: Address | 'signer'
  /** Who is paid what the order buys. */
  receiver: Address | 'signer'
  sell: SwapLeg
  buy: SwapLeg
  /** Why the signed amounts may not be what moves (code the order names computes them), or null. */
  unpinned: string | null
}

const COW_ORDER =
  'address sellToken,address buyToken,address receiver,uint256 sellAmount,uint256 buyAmount,uint32 validTo,' +
  'bytes32 appData,uint256 feeAmount,string kind,bool partiallyFillable,string sellTokenBalance,string buyTokenBalance'
const ZERO_EX_LIMIT =
  'address makerToken,address takerToken,uint128 makerAmount,uint128 takerAmount,uint128 takerTokenFeeAmount,' +
  'address maker,address taker,address sender,address feeRecipient,bytes32 pool,uint64 expiry,uint256 salt'
const ZERO_EX_RFQ =
  'address makerToken,address takerToken,uint128 makerAmount,uint128 takerAmount,address maker,address taker,' +
  'address txOrigin,bytes32 pool,uint64 expiry,uint256 salt'
const ONE_INCH_V3 =
  'uint256 salt,address makerAsset,address takerAsset,address maker,address receiver,address allowedSender,' +
  'uint256 makingAmount,uint256 takingAmount,uint256 offsets,bytes interactions'

/** CoW Protocol's marker for "pay the native currency" in an order's buy token. */
const COW_BUY_NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** The swap order a payload signs, or null when its primary type is none of the orders above. */
export function findSwapOrder(typedData: TypedData): SwapOrder | null {
  const signature = structSignature(typedData.types, typedData.primaryType)
  const order = typedData.message
  if (signature === COW_ORDER) return cowOrder(order)
  if (signature === ZERO_EX_LIMIT || signature === ZERO_EX_RFQ) return zeroExOrder(order)
  if (signature === ONE_INCH_V3) return oneInchOrder(order)
  return null
}

/**
 * A GPv2 order: a sell order gives exactly its sell amount and fee and is paid at least its buy amount; a buy order is
 * paid exactly its buy amount for at most the sell amount and fee; a partially fillable one gives up to the sell
 * amount at no worse a price. A zero receiver is the signer.
 */
function cowOrder(order: TypedStruct): SwapOrder {
  const partial = order.partiallyFillable === true
  const sell = order.kind === 'sell'
  const buyToken = order.buyToken === COW_BUY_NATIVE ? zeroAddress : (order.buyToken as Address)
  return {
    protocol: 'CoW Protocol',
    maker: 'signer',
    receiver: receiverOf(order.receiver as Address, 'signer'),
    sell: {
      token: order.sellToken as Address,
      amount: (order.sellAmount as bigint) + (order.feeAmount as bigint),
      bound: partial ? 'upTo' : sell ? 'exact' : 'atMost',
    },
    buy: { token: buyToken, amount: order.buyAmount as bigint, bound: sell || partial ? 'atLeast' : 'exact' },
    unpinned: null,
  }
}

/** A 0x v4 order: the maker gives up to its amount and is paid in proportion (no receiver: the maker is paid). */
function zeroExOrder(order: TypedStruct): SwapOrder {
  const maker = order.maker as Address
  return {
    protocol: '0x',
    maker,
    receiver: maker,
    sell: { token: order.makerToken as Address, amount: order.makerAmount as bigint, bound: 'upTo' },
    buy: { token: order.takerToken as Address, amount: order.takerAmount as bigint, bound: 'atLeast' },
    unpinned: null,
  }
}

/**
 * The interactions of a 1inch v3 order that change what moves, by their index in `offsets` (each field's end, 32 bits
 * apiece): asset data reroutes the transfers, amount getters compute the amounts. Predicates, the permit and the pre-
 * and post-interactions run around the fill without changing its amounts.
 */
const ONE_INCH_AMOUNT_FIELDS = ['makerAssetData', 'takerAssetData', 'getMakingAmount', 'getTakingAmount']

/** A 1inch v3 order: the maker gives up to its making amount and its receiver (the maker when zero) is paid in proportion. */
function oneInchOrder(order: TypedStruct): SwapOrder {
  const maker = order.maker as Address
  const offsets = order.offsets as bigint
  const ends = ONE_INCH_AMOUNT_FIELDS.map((_, index) => (offsets >> BigInt(32 * index)) & 0xffffffffn)
  const used = ONE_INCH_AMOUNT_FIELDS.filter(
    (_, index) => (ends[index] as bigint) > (index ? (ends[index - 1] as bigint) : 0n),
  )
  return {
    protocol: '1inch',
    maker,
    receiver: receiverOf(order.receiver as Address, maker),
    sell: { token: order.makerAsset as Address, amount: order.makingAmount as bigint, bound: 'upTo' },
    buy: { token: order.takerAsset as Address, amount: order.takingAmount as bigint, bound: 'atLeast' },
    unpinned: used.length > 0 ? `its ${used.join(', ')} interaction${used.length > 1 ? 's' : ''}` : null,
  }
}

function receiverOf(receiver: Address, otherwise: SwapOrder['receiver']): SwapOrder['receiver'] {
  return receiver === zeroAddress ? otherwise : receiver
}

/**
 * The order as trades for `user`: judged on what it gives and buys whoever is paid (an order paid next to nothing is a
 * trade for nothing), shown with only what reaches the user.
 */
export function swapOrderTrades(order: SwapOrder, user: Address): SeaportOrders {
  const maker = order.maker === 'signer' ? user : order.maker
  const gives = isAddressEqual(maker, user) ? [item(order.sell)] : []
  const judged: SeaportTrade = { offerer: maker, gives, receives: [item(order.buy)] }
  const shown: SeaportTrade = { ...judged, receives: paysUser(order, user) ? judged.receives : [] }
  return { orders: [judged], total: shown, bulk: false }
}

function paysUser(order: SwapOrder, user: Address): boolean {
  return order.receiver === 'signer' || isAddressEqual(order.receiver, user)
}

function item(leg: SwapLeg): SeaportItem {
  const native = isAddressEqual(leg.token, zeroAddress)
  return { kind: native ? 'NATIVE' : 'ERC20', token: leg.token, identifier: 0n, amount: leg.amount }
}

/** Preflight's warnings about a swap order the user makes: paid to someone else, or amounts set by code. */
export function swapOrderWarnings(order: SwapOrder, user: Address): Warning[] {
  const maker = order.maker === 'signer' ? user : order.maker
  if (!isAddressEqual(maker, user)) return []
  const warnings: Warning[] = []
  if (!paysUser(order, user)) {
    const receiver = getAddress(order.receiver as Address)
    warnings.push(
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This ${order.protocol} order sells your tokens and pays what it buys to ${shortAddress(receiver)}, not to ` +
          'you. Sign it only if that address is yours, or a contract you trust to pass them on to you.',
        { receiver: receiver.toLowerCase() },
      ),
    )
  }
  if (order.unpinned) {
    warnings.push(
      makeWarning(
        'RELIABLE_SIMULATION_NOT_POSSIBLE',
        'WARNING',
        `The amounts of this ${order.protocol} order are computed when it is filled by code it names (${order.unpinned}), ` +
          'so what it takes and pays may differ from what is shown.',
      ),
    )
  }
  return warnings
}

/** The words a state change of a bound amount starts with: "Send at most 5 USDC", "Receive at least 2 WETH". */
export const BOUND_WORDS: Record<Bound, string> = {
  exact: '',
  atMost: 'at most ',
  upTo: 'up to ',
  atLeast: 'at least ',
}
