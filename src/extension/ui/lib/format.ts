/** Formatting of addresses, token amounts, dollar values and chains for the extension pages. */
import { formatUnits, getAddress, isAddress } from 'viem'
import { arbitrum, base, foundry, mainnet, optimism, polygon, sepolia } from 'viem/chains'

const KNOWN_CHAINS = [mainnet, optimism, polygon, base, arbitrum, sepolia, foundry]
const CHAIN_NAMES: Record<number, string> = Object.fromEntries(KNOWN_CHAINS.map((chain) => [chain.id, chain.name]))
CHAIN_NAMES[foundry.id] = 'Local devnet'

/** A person-readable chain name, e.g. "Ethereum" or "Chain 999" for chains Preflight has no name for. */
export function chainName(chainId: number): string {
  return CHAIN_NAMES[chainId] ?? `Chain ${chainId}`
}

/** A chain in a sentence: "Optimism (10)", or "chain 1337" for chains Preflight does not know by name. */
export function chainInWords(chainId: number): string {
  const name = CHAIN_NAMES[chainId]
  return name ? `${name} (${chainId})` : `chain ${chainId}`
}

/** The symbol of a chain's native currency (fees are paid in it), "ETH" for chains Preflight does not know. */
export function nativeSymbol(chainId: number): string {
  return KNOWN_CHAINS.find((chain) => chain.id === chainId)?.nativeCurrency.symbol ?? 'ETH'
}

/** Checksummed address when valid (easier to compare with a hardware wallet), the input unchanged otherwise. */
export function checksum(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}

/**
 * Shortens an address to 0xAbcd…1234 for labels; the full address stays available in a title or copy button.
 * Not engine/assets/format.ts shortAddress: that one is lowercase because humanReadableDiff is wire text tests pin
 * exactly.
 */
export function shortAddress(address: string): string {
  return shortened(checksum(address))
}

/** 0xAbcd…1234 for an address already checksummed (checksumming hashes it). */
export function shortened(full: string): string {
  return full.length > 12 ? `${full.slice(0, 6)}…${full.slice(-4)}` : full
}

const MAX_DECIMALS = 6

/**
 * Formats a base-unit amount with its decimals, thousands separators and a true sign (− / +), e.g. "−1,000.5".
 * Fractions are cut (never rounded up) to 6 places, or to 3 significant digits for tiny amounts, marked with "~".
 * Not engine/assets/format.ts formatAmount: the window shows signs and dust digits; the engine's wire text stays ASCII.
 */
export function formatAmount(value: bigint, decimals: number, options: { signed?: boolean } = {}): string {
  const negative = value < 0n
  const [whole = '0', fraction = ''] = formatUnits(negative ? -value : value, decimals).split('.')
  const firstSignificant = fraction.search(/[1-9]/)
  const keep = whole === '0' && firstSignificant >= MAX_DECIMALS ? firstSignificant + 3 : MAX_DECIMALS
  const shown = fraction.slice(0, keep).replace(/0+$/, '')
  const approx = shown.length < fraction.replace(/0+$/, '').length ? '~' : ''
  const grouped = BigInt(whole).toLocaleString('en-US')
  const sign = options.signed ? (negative ? '−' : value > 0n ? '+' : '') : negative ? '−' : ''
  return `${sign}${approx}${grouped}${shown ? `.${shown}` : ''}`
}

/** Dollar value of an amount at a per-token price, e.g. "$1,234.56"; null when the price is unknown. */
export function formatUsd(value: bigint, decimals: number, dollarsPerToken: number | null | undefined): string | null {
  const dollars = dollarsOf(value < 0n ? -value : value, decimals, dollarsPerToken)
  return dollars === null ? null : formatDollars(dollars)
}

/** The dollar value of `value` base units (keeping its sign), or null without a usable price. */
export function dollarsOf(value: bigint, decimals: number, dollarsPerToken: number | null | undefined): number | null {
  if (dollarsPerToken === null || dollarsPerToken === undefined || !Number.isFinite(dollarsPerToken)) return null
  return Number(formatUnits(value, decimals)) * dollarsPerToken
}

/** "$1,203.50"; an amount above zero but under a cent is "< $0.01", not "$0.00". */
export function formatDollars(dollars: number): string {
  const text = dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 })
  return dollars > 0 && dollars < 0.01 ? '< $0.01' : text
}

/** "3 minutes ago" style time for the popup's history list. */
export function timeAgo(at: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000))
  if (seconds < 60) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  return new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })
}
