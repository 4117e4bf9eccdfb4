/**
 * Swap orders signed off chain and filled by a protocol's contract: CoW Protocol (GPv2 orders), 0x v4 limit and RFQ
 * orders, and 1inch limit orders (Limit Order Protocol v3, router v5, and v4, router v6). Each says what its maker
 * gives, what it is paid and to whom. Recognised by the order's fields, not its name or domain, so an order sent to a
 * look-alike contract is read all the same.
 */
import { type Hex, isAddressEqual, size, slice, zeroAddress } from 'viem'
import type { Address, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { chainInWords } from '../simulation/index.ts'
import type { Bound } from './bounds.ts'
import type { SeaportItem, SeaportOrders, SeaportTrade } from './seaport.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

/** One side of a swap: the token (or the native currency) and its amount at a full fill. */
export type SwapLeg = { token: Address | 'native'; amount: bigint; bound: Bound }

/** A swap order as its contract settles it. */
export type SwapOrder = {
  protocol: 'CoW Protocol' | '0x' | '1inch' | 'Velora Delta'
  /** Whose tokens it sells: the signer for a CoW order, the `maker` field otherwise. */
  maker: Address | 'signer'
  /** Who is paid what the order buys. */
  receiver: Address | 'signer'
  sell: SwapLeg
  buy: SwapLeg
  /**
   * What decides, when the order is filled, more than its signed amounts say (1inch getters, asset data, a v4
   * extension), or null.
   */
  unpinned: string | null
  /**
   * Where a bridge pays out what the order buys, when not on this chain (a cross-chain Delta order): the destination
   * chain and the token there; null when the order pays on this chain.
   */
  bridged: { chainId: number; token: Address } | null
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
const ONE_INCH_V4 =
  'uint256 salt,address maker,address receiver,address makerAsset,address takerAsset,uint256 makingAmount,' +
  'uint256 takingAmount,uint256 makerTraits'

/** CoW Protocol's marker for "pay the native currency" in an order's buy token. */
const COW_BUY_NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** The swap order a payload signs, or null when its primary type is none of the orders above. */
export function findSwapOrder(typedData: TypedData): SwapOrder | null {
  const signature = structSignature(typedData.types, typedData.primaryType)
  const order = typedData.message
  if (signature === COW_ORDER) return cowOrder(order)
  if (signature === ZERO_EX_LIMIT || signature === ZERO_EX_RFQ) return zeroExOrder(order)
  if (signature === ONE_INCH_V3) return oneInchV3Order(order)
  if (signature === ONE_INCH_V4) return oneInchV4Order(order)
  return null
}

/**
 * A GPv2 order: a sell order gives exactly its sell amount and fee and is paid at least its buy amount; a buy order is
 * paid exactly its buy amount for at most the sell amount and fee; one that can be filled in part gives and is paid up
 * to them, in proportion. A zero receiver is the signer; a buy token of 0xEeee… pays the native currency.
 */
function cowOrder(order: TypedStruct): SwapOrder {
  const partial = order.partiallyFillable === true
  const sell = order.kind === 'sell'
  return {
    protocol: 'CoW Protocol',
    maker: 'signer',
    receiver: receiverOf(order.receiver as Address, 'signer'),
    sell: {
      token: order.sellToken as Address,
      amount: (order.sellAmount as bigint) + (order.feeAmount as bigint),
      bound: partial ? 'upTo' : sell ? 'exact' : 'atMost',
    },
    buy: {
      token: order.buyToken === COW_BUY_NATIVE ? 'native' : (order.buyToken as Address),
      amount: order.buyAmount as bigint,
      bound: partial ? 'upTo' : sell ? 'atLeast' : 'exact',
    },
    unpinned: null,
    bridged: null,
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
    buy: { token: order.takerToken as Address, amount: order.takerAmount as bigint, bound: 'upTo' },
    unpinned: null,
    bridged: null,
  }
}

/**
 * The dynamic fields of a 1inch v3 order that change what moves, in their order in `offsets` (each field's end in
 * `interactions`, 32 bits apiece; a field begins where the one before ends). Predicates, the permit and the pre- and
 * post-interactions that follow run around the fill without changing its amounts.
 */
const ONE_INCH_FIELDS = ['makerAssetData', 'takerAssetData', 'getMakingAmount', 'getTakingAmount'] as const

/** 1inch's "x" getter: the side it computes is frozen; with both frozen, the order is filled whole or not at all. */
const FROZEN_GETTER = '0x78'

/**
 * A 1inch v3 order: the maker gives up to its making amount and its receiver (the maker when zero) is paid in
 * proportion, unless "x" getters freeze both sides; a longer getter is a contract that computes the amounts, and asset
 * data rides along with the transfers, for token contracts that act on it.
 */
function oneInchV3Order(order: TypedStruct): SwapOrder {
  const maker = order.maker as Address
  const fields = oneInchFields(order.offsets as bigint, order.interactions as Hex)
  const getters = [fields.getMakingAmount, fields.getTakingAmount]
  // A taker names one side and the other side's getter computes the rest: frozen only when both are.
  const bound: Bound = getters.every((getter) => getter === FROZEN_GETTER) ? 'exact' : 'upTo'
  const computed = (['getMakingAmount', 'getTakingAmount'] as const).filter((name) => {
    const getter = fields[name]
    return getter === null || size(getter) > 1
  })
  const carried = (['makerAssetData', 'takerAssetData'] as const).filter((name) => fields[name] !== '0x')
  const reasons = [
    ...(computed.length ? [`a contract it names computes the amounts (${computed.join(', ')})`] : []),
    ...(carried.length ? [`its transfers carry extra data for the token to act on (${carried.join(', ')})`] : []),
  ]
  return {
    protocol: '1inch',
    maker,
    receiver: receiverOf(order.receiver as Address, maker),
    sell: { token: order.makerAsset as Address, amount: order.makingAmount as bigint, bound },
    buy: { token: order.takerAsset as Address, amount: order.takingAmount as bigint, bound },
    unpinned: reasons.length ? reasons.join(', and ') : null,
    bridged: null,
  }
}

/** Each field's bytes, or null where `offsets` points past the end of `interactions`. */
function oneInchFields(offsets: bigint, interactions: Hex): Record<(typeof ONE_INCH_FIELDS)[number], Hex | null> {
  const length = BigInt(size(interactions))
  let begin = 0n
  const fields = ONE_INCH_FIELDS.map((name, index) => {
    const end = (offsets >> BigInt(32 * index)) & 0xffffffffn
    const bytes =
      end < begin || end > length ? null : end === begin ? '0x' : slice(interactions, Number(begin), Number(end))
    begin = end
    return [name, bytes] as const
  })
  return Object.fromEntries(fields) as Record<(typeof ONE_INCH_FIELDS)[number], Hex | null>
}

/** A 1inch v4 order's `makerTraits` flags (MakerTraitsLib) that change what moves: whole fills only; an extension. */
const NO_PARTIAL_FILLS = 1n << 255n
const HAS_EXTENSION = 1n << 249n

/** Why a v4 order with an extension is not pinned by what was signed: the extension itself is not among the fields. */
const V4_EXTENSION =
  'it has an extension, signed only as a hash, that can name contracts that compute the amounts, extra data for ' +
  'the token transfers and calls around the fill'

/**
 * A 1inch v4 order: the maker gives up to its making amount and its receiver (the maker when zero) is paid in
 * proportion, or both exactly when its traits forbid partial fills. Its other traits change neither side's worth:
 * Permit2 only changes how the maker's tokens are pulled, and unwrapping pays the protocol's own WETH as ETH; that WETH
 * is not in the order, so the taker asset is shown as named (a token that is not WETH is never shown as ETH).
 */
function oneInchV4Order(order: TypedStruct): SwapOrder {
  const maker = order.maker as Address
  const traits = order.makerTraits as bigint
  const bound: Bound = traits & NO_PARTIAL_FILLS ? 'exact' : 'upTo'
  return {
    protocol: '1inch',
    maker,
    receiver: receiverOf(order.receiver as Address, maker),
    sell: { token: order.makerAsset as Address, amount: order.makingAmount as bigint, bound },
    buy: { token: order.takerAsset as Address, amount: order.takingAmount as bigint, bound },
    unpinned: traits & HAS_EXTENSION ? V4_EXTENSION : null,
    bridged: null,
  }
}

/** A zero receiver pays the order's own maker (`otherwise`). */
export function receiverOf(receiver: Address, otherwise: SwapOrder['receiver']): SwapOrder['receiver'] {
  return receiver === zeroAddress ? otherwise : receiver
}

/** The account whose tokens the order sells, for the user who signs it. */
function makerOf(order: SwapOrder, user: Address): Address {
  return order.maker === 'signer' ? user : order.maker
}

/**
 * The order as trades for `user`: judged on what it gives and buys whoever makes it and whoever is paid (an order paid
 * next to nothing is a trade for nothing), shown with only what leaves and reaches the user on this chain (a bridged
 * order's proceeds never reach the user's balance here).
 */
export function swapOrderTrades(order: SwapOrder, user: Address): SeaportOrders {
  const maker = makerOf(order, user)
  // Judged as its maker's trade, whoever that is: a smart account may accept its owner's signature for it.
  const judged: SeaportTrade = { offerer: maker, gives: [item(order.sell)], receives: [item(order.buy)] }
  const shown: SeaportTrade = {
    offerer: maker,
    gives: isAddressEqual(maker, user) ? judged.gives : [],
    receives: paysUser(order, user) && !order.bridged ? judged.receives : [],
  }
  return { orders: [judged], total: shown, bulk: false }
}

function paysUser(order: SwapOrder, user: Address): boolean {
  return order.receiver === 'signer' || isAddressEqual(order.receiver, user)
}

/** An order's side as an item; a token with no code (the zero address included) pays nothing, which the scan reads. */
function item(leg: SwapLeg): SeaportItem {
  return leg.token === 'native'
    ? { kind: 'NATIVE', token: zeroAddress, identifier: 0n, amount: leg.amount }
    : { kind: 'ERC20', token: leg.token, identifier: 0n, amount: leg.amount }
}

/**
 * Preflight's warnings about a swap order the user signs: made for another account, paid to someone else, or moving
 * more than its signed amounts say.
 */
export function swapOrderWarnings(order: SwapOrder, user: Address): Warning[] {
  const maker = makerOf(order, user)
  if (!isAddressEqual(maker, user)) return [foreignMakerWarning(order.protocol, maker)]
  const warnings: Warning[] = []
  if (order.receiver !== 'signer' && !paysUser(order, user)) {
    warnings.push(proceedsElsewhereWarning(`This ${order.protocol} order`, [order.receiver]))
  }
  if (order.unpinned) warnings.push(unpinnedOrderWarning(order.protocol, order.unpinned))
  if (order.bridged) warnings.push(bridgedProceedsWarning(order.protocol, order.bridged))
  return warnings
}

/**
 * RELIABLE_SIMULATION_NOT_POSSIBLE: a `protocol` order whose proceeds a bridge pays out on another chain. The scan
 * reads only this chain, where the bought token passes through the settlement and never reaches the user; the bridge
 * takes its fee on the way and its own data says how it pays out, so what arrives there is not shown.
 */
function bridgedProceedsWarning(protocol: string, bridged: NonNullable<SwapOrder['bridged']>): Warning {
  const chain = chainInWords(bridged.chainId)
  return makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `This ${protocol} order pays what it buys on ${chain}, through a bridge, as the token ` +
      `${shortAddress(bridged.token)} there. Preflight sees only this chain, so what arrives on ${chain}, after the ` +
      "bridge's fees, is not shown: check it on the site before you sign.",
    { destinationChainId: bridged.chainId, outputToken: bridged.token.toLowerCase() },
  )
}

/**
 * RELIABLE_SIMULATION_NOT_POSSIBLE: a `protocol` order made for `maker`, not the signer, counts only if that account
 * accepts the signature as its own, and what it would give that account is not shown.
 */
export function foreignMakerWarning(protocol: string, maker: Address): Warning {
  return makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `This ${protocol} order sells the tokens of ${shortAddress(maker)}, not yours. Your signature fills it ` +
      'only if that account accepts it as its own (a smart account or Safe you sign for); what it would give ' +
      'is not shown here.',
    { maker },
  )
}

/** RELIABLE_SIMULATION_NOT_POSSIBLE: what a `protocol` order moves is decided when it is filled, because `why`. */
export function unpinnedOrderWarning(protocol: string, why: string): Warning {
  return makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `What this ${protocol} order moves is decided when it is filled: ${why}. What it takes and ` +
      'pays may differ from what is shown.',
  )
}

/**
 * TRADE_PROCEEDS_TO_OTHER_ADDRESS: `order` (e.g. "This CoW Protocol order") sells the signer's tokens and pays all it
 * buys to `receivers`: the signer gets nothing back, which is how a phishing swap page takes a fair-looking trade.
 */
export function proceedsElsewhereWarning(order: string, receivers: Address[]): Warning {
  const unique = [...new Set(receivers.map((receiver) => receiver.toLowerCase() as Address))]
  const names = unique.map(shortAddress).join(', ')
  const those = unique.length > 1 ? 'those addresses are' : 'that address is'
  return makeWarning(
    'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
    'WARNING',
    `${order} sells your tokens and pays what it buys to ${names}, not to you. Sign it only if ${those} yours, or a ` +
      'contract you trust to pass them on to you.',
    { receivers: unique },
  )
}
