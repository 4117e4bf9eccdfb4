/**
 * Velora's (ParaSwap's) Delta orders, in the shape `@velora-dex/sdk` signs for its Portikus settlement: the owner
 * sells `srcAmount` of `srcToken`, and the agent that fills the order pays what it buys to `beneficiary` (the SDK sets
 * the owner unless told otherwise). Read for who is paid only: how the settlement prices and pays is not simulated.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { proceedsElsewhereWarning } from './swapOrders.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** The owner whose tokens the order sells and the beneficiary it pays. */
export type DeltaOrder = { owner: Address; beneficiary: Address }

const DELTA_ORDER =
  'address owner,address beneficiary,address srcToken,address destToken,uint256 srcAmount,uint256 destAmount,' +
  'uint256 expectedAmount,uint256 deadline,uint8 kind,uint256 nonce,uint256 partnerAndFee,bytes permit,' +
  'bytes metadata,Bridge bridge'

/** The Delta order a payload signs, or null when it is none. */
export function findDeltaOrder(typedData: TypedData): DeltaOrder | null {
  if (structSignature(typedData.types, typedData.primaryType) !== DELTA_ORDER) return null
  const { owner, beneficiary } = typedData.message
  return { owner: owner as Address, beneficiary: beneficiary as Address }
}

/** TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) when the signer's order pays what it buys to someone else. */
export function deltaOrderWarnings(order: DeltaOrder, signer: Address): Warning[] {
  if (!isAddressEqual(order.owner, signer) || isAddressEqual(order.beneficiary, signer)) return []
  return [proceedsElsewhereWarning('This Velora Delta order', [order.beneficiary])]
}
