/** Plain-English number and address formatting for humanReadableDiff and warnings (bigint math, no floats). */
import { type Address, formatUnits, maxUint160 } from 'viem'

const MAX_FRACTION_DIGITS = 6

/**
 * "1,234.5" for 1234.5 tokens: thousands separators, at most 6 decimals (truncated), "<0.000001" for dust.
 * The extension window has its own (ui/lib/format.ts: "−"/"+", "~" dust digits); this one is pinned wire text.
 */
export function formatAmount(amount: bigint, decimals: number): string {
  const negative = amount < 0n
  const exact = formatUnits(negative ? -amount : amount, decimals)
  const [whole = '0', fraction = ''] = exact.split('.')
  const shown = fraction.slice(0, MAX_FRACTION_DIGITS).replace(/0+$/, '')
  if (whole === '0' && shown === '' && fraction !== '') return `<0.${'0'.repeat(MAX_FRACTION_DIGITS - 1)}1`
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${shown ? `.${shown}` : ''}`
}

/**
 * What a spender could move at once: the allowance, capped by what the owner holds; in dollars when the asset's price
 * is known. Null when the balance could not be read.
 */
export function canTakeNow(
  allowance: bigint,
  balance: unknown,
  decimals: number,
  dollarsPerToken: number | null | undefined,
): { amount: string; dollarValue: number | null } | null {
  if (typeof balance !== 'bigint') return null
  const amount = allowance < balance ? allowance : balance
  const dollarValue =
    typeof dollarsPerToken === 'number' ? Number(formatUnits(amount, decimals)) * dollarsPerToken : null
  return { amount: amount.toString(), dollarValue }
}

/** "0x1234…abcd": enough of an address to recognise it; lowercase like every address on the wire (UI checksums). */
export function shortAddress(address: Address | string): string {
  const lower = address.toLowerCase()
  return `${lower.slice(0, 6)}…${lower.slice(-4)}`
}

/**
 * True for an allowance that is unlimited in practice: at least half of Permit2's maximum (uint160), which takes in
 * ERC-20's max uint256 and the halves some dapps send as "infinite". No token's supply comes near it, so such an
 * allowance limits nothing, whichever contract keeps it.
 */
export function isUnlimited(amount: bigint): boolean {
  return amount >= maxUint160 / 2n
}
