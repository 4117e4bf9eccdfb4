/**
 * Velora's (ParaSwap's) Delta orders, in the shape `@velora-dex/sdk` signs for its Portikus settlement: the owner
 * sells `srcAmount` of `srcToken`, and the agent that fills the order pays what it buys, `destAmount` of `destToken`,
 * to `beneficiary` (the SDK sets the owner unless told otherwise; a zero beneficiary is the owner too: Velora's
 * /delta/orders/build documents "Default: zero address, meaning owner address", and Portikus's settlement modules pay
 * `order.owner` when `order.beneficiary == address(0)`). A cross-chain order (`bridge.destinationChainId` not 0) still
 * buys `destToken` on this chain, where the settlement checks the amount, then bridges it: paid out on the destination
 * chain as `bridge.outputToken` ("same as Order.destToken but on destination chain", the SDK's Bridge type). Read as
 * a swap order is, with its amounts.
 */
import type { Address } from 'viem'
import { receiverOf, type SwapOrder } from './swapOrders.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

const DELTA_ORDER =
  'address owner,address beneficiary,address srcToken,address destToken,uint256 srcAmount,uint256 destAmount,' +
  'uint256 expectedAmount,uint256 deadline,uint8 kind,uint256 nonce,uint256 partnerAndFee,bytes permit,' +
  'bytes metadata,Bridge bridge'

/** The SDK's OrderKind: a sell order sells exactly `srcAmount`; a buy order is paid exactly `destAmount`. */
const BUY = 1n

/**
 * The Delta order a payload signs as a swap order, or null when it is none. A sell order gives exactly its source
 * amount and is paid at least its destination amount (the SDK's "minimum amount of dest token to receive"); a buy
 * order is paid exactly that for at most its source amount. `expectedAmount` is the quote, which binds nothing.
 */
export function findDeltaOrder(typedData: TypedData): SwapOrder | null {
  if (structSignature(typedData.types, typedData.primaryType) !== DELTA_ORDER) return null
  const order = typedData.message
  const buy = order.kind === BUY
  const owner = order.owner as Address
  const bridge = order.bridge as TypedStruct
  const destination = bridge.destinationChainId as bigint
  return {
    protocol: 'Velora Delta',
    maker: owner,
    receiver: receiverOf(order.beneficiary as Address, owner),
    sell: { token: order.srcToken as Address, amount: order.srcAmount as bigint, bound: buy ? 'atMost' : 'exact' },
    buy: { token: order.destToken as Address, amount: order.destAmount as bigint, bound: buy ? 'exact' : 'atLeast' },
    unpinned: null,
    bridged: destination === 0n ? null : { chainId: Number(destination), token: bridge.outputToken as Address },
  }
}
