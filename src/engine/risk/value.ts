/**
 * Whether a trade gives away far more in dollars than it brings back: judged from the priced assets of its state
 * changes. Every asset given must have a price (no guess at what leaves the wallet). What comes back without a price is
 * unknown, not worthless: it is left out of the sum and named in the message, never a reason to say nothing, else one
 * unpriced token or NFT added to what comes back would hide the loss. When nothing that comes back has a price there is
 * nothing to compare (an NFT bought with WETH), and nothing is said.
 */
import { formatUnits } from 'viem'
import type { AssetPrice, StateChange, Warning } from '../api/index.ts'
import { briefNames, type NamedItem } from './assetNames.ts'
import { makeWarning } from './warnings.ts'

/** Getting back less than this share of what is given, in dollars, is a trade no one makes knowingly. */
const FAIR_SHARE = 0.5

/** IMBALANCED_DOLLAR_VALUE when the user receives less than half the dollar value they give; else nothing. */
export function imbalancedValueWarnings(changes: StateChange[]): Warning[] {
  let given = 0
  let received = 0
  let pricedGains = 0
  const unpriced: NamedItem[] = []
  for (const change of changes) {
    const value = dollarChange(change)
    if (value === 'unpriced gain') unpriced.push(namedItem(change))
    else if (value === null) return []
    else if (value < 0) given -= value
    else if (value > 0) {
      received += value
      pricedGains += 1
    }
  }
  if (given === 0 || received >= given * FAIR_SHARE || (unpriced.length > 0 && pricedGains === 0)) return []
  const besides =
    unpriced.length === 0
      ? ''
      : `, besides ${unpriced.length === 1 ? 'one item' : `${unpriced.length.toLocaleString('en-US')} items`} ` +
        `Preflight has no price for (${briefNames(unpriced)})`
  return [
    makeWarning(
      'IMBALANCED_DOLLAR_VALUE',
      'WARNING',
      `You give about ${usd(given)} and get about ${usd(received)} back${besides}. Make sure this is the trade you meant.`,
    ),
  ]
}

/**
 * The dollar value a transfer adds (positive) or takes away (negative); 0 for a change that moves nothing; 'unpriced
 * gain' for an unpriced asset that comes back; null for an unpriced asset given.
 */
function dollarChange(change: StateChange): number | 'unpriced gain' | null {
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
  const delta = BigInt(amount.after) - BigInt(amount.before)
  const price: AssetPrice | null = asset.price
  if (!price) return delta > 0n ? 'unpriced gain' : null
  const decimals = 'decimals' in asset ? asset.decimals : 0
  const units = Number(formatUnits(delta < 0n ? -delta : delta, decimals))
  return (delta < 0n ? -units : units) * price.dollarValuePerToken
}

/** What comes back, as its diff says it ("1 PASS", "Devnet Apes #1"), counted per collection for an NFT. */
function namedItem(change: StateChange): NamedItem {
  const { rawInfo } = change
  const name = change.humanReadableDiff.replace(/^Receive /, '')
  if (rawInfo.kind !== 'ERC721_TRANSFER' && rawInfo.kind !== 'ERC1155_TRANSFER') return { name, collection: null }
  const { asset } = rawInfo.data
  const collection = 'symbol' in asset && asset.symbol ? asset.symbol : asset.name
  return { name, collection: { key: asset.address.toLowerCase(), name: collection } }
}

function usd(value: number): string {
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
}
