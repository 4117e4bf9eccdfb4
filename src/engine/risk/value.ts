/**
 * Whether a trade gives away far more in dollars than it brings back: judged from the priced assets of its state
 * changes, and only when every asset given and received has a price (no guess where one is missing).
 */
import { formatUnits } from 'viem'
import type { AssetPrice, StateChange, Warning } from '../api/index.ts'
import { makeWarning } from './warnings.ts'

/** Getting back less than this share of what is given, in dollars, is a trade no one makes knowingly. */
const FAIR_SHARE = 0.5

/** IMBALANCED_DOLLAR_VALUE when the user receives less than half the dollar value they give; else nothing. */
export function imbalancedValueWarnings(changes: StateChange[]): Warning[] {
  let given = 0
  let received = 0
  for (const change of changes) {
    const value = dollarChange(change)
    if (value === null) return []
    if (value < 0) given -= value
    else received += value
  }
  if (given === 0 || received >= given * FAIR_SHARE) return []
  return [
    makeWarning(
      'IMBALANCED_DOLLAR_VALUE',
      'WARNING',
      `You give about ${usd(given)} and get about ${usd(received)} back. Make sure this is the trade you meant.`,
    ),
  ]
}

/** The dollar value a transfer adds (positive) or takes away (negative); null when it is not priced. */
function dollarChange(change: StateChange): number | null {
  const { rawInfo } = change
  if (
    rawInfo.kind !== 'NATIVE_ASSET_TRANSFER' &&
    rawInfo.kind !== 'ERC20_TRANSFER' &&
    rawInfo.kind !== 'ERC721_TRANSFER' &&
    rawInfo.kind !== 'ERC1155_TRANSFER'
  ) {
    return 0
  }
  const { amount, asset } = rawInfo.data
  const price: AssetPrice | null = asset.price
  if (!price) return null
  const decimals = 'decimals' in asset ? asset.decimals : 0
  const delta = BigInt(amount.after) - BigInt(amount.before)
  const units = Number(formatUnits(delta < 0n ? -delta : delta, decimals))
  return (delta < 0n ? -units : units) * price.dollarValuePerToken
}

function usd(value: number): string {
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
}
