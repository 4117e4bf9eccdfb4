/**
 * The spirit of TRADE_FOR_NOTHING for transactions: the user sends a large dollar value and what comes back is worth
 * next to nothing (a drained pool, a sandwich with no slippage limit, a "swap" into a worthless token that still has
 * a price). Judged on what has a price: an unpriced asset is unknown, not worthless, so it is left out of the sums and
 * named in the message, never a reason to say nothing (else one wei of any token, or any NFT, would hide the loss).
 * When nothing that comes back has a price (an NFT bought for ETH, a swap into a new token) there is nothing to
 * compare, and nothing is said; a plain payment (nothing comes back) is not a trade either. Its cost: an honest zap
 * that returns priced dust beside unpriced shares warns too, and its message names the shares for the user to judge.
 */
import { type Address, formatUnits, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import type { AssetChange, PriceOf, TransferChange } from '../assets/index.ts'
import { nativeCurrency, type TokenMetadata } from '../simulation/index.ts'
import { briefNames, gainItem } from './assetNames.ts'
import { makeWarning } from './warnings.ts'

/** Dollars out from which a near-worthless return is worth a warning. */
const LARGE_OUTGOING_USD = 100
/** What comes back is "next to nothing" below this share of what goes out. */
const NEAR_ZERO_SHARE = 0.05

/** The warning when the user's priced losses are large and their priced gains, if any, are next to nothing. */
export function valueWarnings(
  chainId: number,
  changes: AssetChange[],
  userAccount: Address,
  priceOf: PriceOf,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const decimalsOf = (token: Address) => metadataOf(token).decimals
  let outgoing = 0
  let incoming = 0
  let pricedGains = 0
  const unpriced: TransferChange[] = []
  for (const change of changes) {
    if (change.type !== 'transfer' || !isAddressEqual(change.account, userAccount)) continue
    const dollars = dollarValue(chainId, change, priceOf, decimalsOf)
    if (change.after > change.before) {
      if (dollars === null) unpriced.push(change)
      else {
        pricedGains += 1
        incoming += dollars
      }
    } else if (dollars !== null) {
      outgoing += dollars
    }
  }
  if (pricedGains === 0 || outgoing < LARGE_OUTGOING_USD || incoming >= outgoing * NEAR_ZERO_SHARE) return []
  const besides =
    unpriced.length === 0
      ? ''
      : `, besides ${unpriced.length === 1 ? 'one item' : `${unpriced.length.toLocaleString('en-US')} items`} ` +
        `Preflight has no price for (${briefNames(unpriced.map((change) => gainItem(chainId, change, metadataOf)))})`
  const unless =
    unpriced.length === 0 ? '' : `unless ${unpriced.length === 1 ? 'that item is' : 'those are'} what you trade for, `
  return [
    makeWarning(
      'TRADE_FOR_NOTHING',
      'WARNING',
      `You send about ${usd(outgoing)} and get back about ${usd(incoming)}${besides}. Check the price and the ` +
        `slippage limit before you continue: ${unless}at these prices the trade loses almost everything.`,
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
