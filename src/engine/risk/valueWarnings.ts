/**
 * The spirit of TRADE_FOR_NOTHING for transactions: the user sends a large dollar value and what comes back is worth
 * next to nothing (a drained pool, a sandwich with no slippage limit, a "swap" into a worthless token that still has
 * a price). Only when everything that comes back has a price: an unpriced asset is unknown, not worthless. A plain
 * payment (nothing comes back) is not a trade and raises nothing here.
 */
import { type Address, formatUnits, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import type { AssetChange, PriceOf, TransferChange } from '../assets/index.ts'
import { nativeCurrency } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** Dollars out from which a near-worthless return is worth a warning. */
const LARGE_OUTGOING_USD = 100
/** What comes back is "next to nothing" below this share of what goes out. */
const NEAR_ZERO_SHARE = 0.05

/** The warning when the user's priced losses are large and their gains, all priced, are next to nothing. */
export function valueWarnings(
  chainId: number,
  changes: AssetChange[],
  userAccount: Address,
  priceOf: PriceOf,
  decimalsOf: (token: Address) => number | null,
): Warning[] {
  let outgoing = 0
  let incoming = 0
  let receives = false
  for (const change of changes) {
    if (change.type !== 'transfer' || !isAddressEqual(change.account, userAccount)) continue
    const dollars = dollarValue(chainId, change, priceOf, decimalsOf)
    if (change.after > change.before) {
      receives = true
      if (dollars === null) return []
      incoming += dollars
    } else if (dollars !== null) {
      outgoing += dollars
    }
  }
  if (!receives || outgoing < LARGE_OUTGOING_USD || incoming >= outgoing * NEAR_ZERO_SHARE) return []
  return [
    makeWarning(
      'TRADE_FOR_NOTHING',
      'WARNING',
      `You send about ${usd(outgoing)} and get back about ${usd(incoming)}. Check the price and the slippage ` +
        'limit before you continue: at these prices the trade loses almost everything.',
    ),
  ]
}

/** The dollar value of one change's amount, or null when its asset has no price (NFTs always). */
function dollarValue(
  chainId: number,
  change: TransferChange,
  priceOf: PriceOf,
  decimalsOf: (token: Address) => number | null,
): number | null {
  const { asset } = change
  if (asset.standard !== 'NATIVE' && asset.standard !== 'ERC20') return null
  const price = priceOf(asset.standard === 'NATIVE' ? null : asset.token)
  const decimals = asset.standard === 'NATIVE' ? nativeCurrency(chainId).decimals : decimalsOf(asset.token)
  if (!price || decimals === null) return null
  const amount = change.after > change.before ? change.after - change.before : change.before - change.after
  return Number(formatUnits(amount, decimals)) * price.dollarValuePerToken
}

function usd(dollars: number): string {
  return dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 })
}
