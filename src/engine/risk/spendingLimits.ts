/**
 * Spending limits a Safe gives through Safe's allowance module (Safe{Wallet}'s "spending limit"): the delegate then
 * takes up to its allowance of a token, again every reset period, without any owner's confirmation. Setting one
 * moves nothing, so the simulation shows no change; the warning says who may take what, and how often, so a batch
 * that enables the module for an attacker reads as what it is.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { decodeKnownFunction } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import { type Call, safeModule } from '../safe/index.ts'
import { nativeCurrency, type TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** The largest allowance the module stores (uint96): no limit at all. */
const ANY_AMOUNT = 2n ** 96n - 1n

/** A WARNING for each allowance a Safe sets in Safe's allowance module, naming the delegate, amount and period. */
export function spendingLimitWarnings(
  calls: Call[],
  isSafe: (account: Address) => boolean,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  return calls.flatMap((call) => {
    if (call.delegate || !call.to || safeModule(call.to)?.name !== 'AllowanceModule' || !isSafe(call.from)) return []
    const decoded = decodeKnownFunction(call.data)
    if (decoded?.functionName !== 'setAllowance') return []
    const [delegate, token, amount, resetMinutes] = decoded.args as [Address, Address, bigint, number]
    if (amount === 0n) return []
    return [
      makeWarning(
        'SET_OWNER_AUTHORITY',
        'WARNING',
        `This lets ${shortAddress(delegate)} take ${allowanceInWords(amount, token, chainId, metadataOf)} from the ` +
          `Safe ${shortAddress(call.from)} ${periodInWords(resetMinutes)}, through Safe's allowance module, without ` +
          `any owner's confirmation. Only continue if you meant to give ${shortAddress(delegate)} this spending limit.`,
        { safe: call.from, delegate, token, amount: amount.toString(), resetTimeMin: String(resetMinutes) },
      ),
    ]
  })
}

/** "up to 1,000 USDC", "any amount of ETH", "up to 5000000 base units of 0xA0b8…eB48" when decimals are unknown. */
function allowanceInWords(
  amount: bigint,
  token: Address,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): string {
  const native = isAddressEqual(token, zeroAddress)
  const metadata = native ? null : metadataOf(token)
  const symbol = native ? nativeCurrency(chainId).symbol : (metadata?.symbol ?? metadata?.name ?? shortAddress(token))
  if (amount === ANY_AMOUNT) return `any amount of ${symbol}`
  const decimals = native ? nativeCurrency(chainId).decimals : metadata?.decimals
  if (decimals === null || decimals === undefined) return `up to ${amount} base units of ${symbol}`
  return `up to ${formatAmount(amount, decimals)} ${symbol}`
}

/** "once", "every day", "every 90 minutes": how often the module renews the allowance. */
function periodInWords(resetMinutes: number): string {
  if (resetMinutes === 0) return 'once (it does not renew)'
  const [count, unit] =
    resetMinutes % 1440 === 0
      ? [resetMinutes / 1440, 'day']
      : resetMinutes % 60 === 0
        ? [resetMinutes / 60, 'hour']
        : [resetMinutes, 'minute']
  return count === 1 ? `again every ${unit}` : `again every ${count} ${unit}s`
}
