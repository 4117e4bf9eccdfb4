/**
 * Spending limits a Safe gives through Safe's allowance module (Safe{Wallet}'s "spending limit"): the delegate then
 * takes up to its allowance of a token, again every reset period, without any owner's confirmation. Setting one
 * moves nothing, so the simulation shows no change; the warning says who may take what, and how often, so a batch
 * that enables the module for an attacker reads as what it is.
 */
import { type Address, encodeFunctionData, type Hex, hexToBigInt, isAddressEqual, slice, zeroAddress } from 'viem'
import { decodeKnownFunction, safeAllowanceModuleAbi } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import { type Call, safeModule } from '../safe/index.ts'
import { nativeCurrency, type TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** The largest allowance the module stores (uint96): no limit at all. */
const ANY_AMOUNT = 2n ** 96n - 1n

/** Said when setAllowance's words hold more than the module reads: no wallet writes them so. */
const DISGUISED =
  'Its call is written with more in its numbers than the module reads, so other tools may show another limit: ' +
  'this is what the module stores. '

/**
 * A WARNING for each allowance a Safe sets in Safe's allowance module, naming the delegate, amount and period as the
 * module stores them; CRITICAL when the call's words hold more than the module reads. A delegate added, or its spent
 * allowance reset, without an allowance set in the same calls, is a WARNING too: its old allowance applies again.
 */
export function spendingLimitWarnings(
  calls: Call[],
  isSafe: (account: Address) => boolean,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  return calls.flatMap((call) => {
    if (call.delegate || !call.to || safeModule(call.to)?.name !== 'AllowanceModule' || !isSafe(call.from)) return []
    const decoded = decodeKnownFunction(call.data)
    if (decoded?.functionName === 'addDelegate' || decoded?.functionName === 'resetAllowance') {
      const [delegate] = decoded.args as [Address]
      // A delegate given its allowance in the same calls is spelled out there.
      const limited = calls.some((other) => setsAllowanceFor(other, call, delegate))
      return limited ? [] : [delegateWarning(call, delegate, decoded.functionName, decoded.args[1] as Address)]
    }
    if (decoded?.functionName !== 'setAllowance') return []
    const [delegate, token] = decoded.args as [Address, Address]
    // The module (Solidity 0.7, ABI coder v1) keeps the low bits of each word and drops the rest unchecked: say what it
    // stores (read from the words: a decoded number past 2^53 has lost them), and that a word holding more was written
    // to be read otherwise.
    const word = (index: number) => hexToBigInt(slice(call.data as Hex, 4 + 32 * index, 36 + 32 * index))
    const amount = word(2) & ANY_AMOUNT
    const resetMinutes = Number(word(3) & 0xffffn)
    if (amount === 0n) return []
    const args = [delegate, token, amount, resetMinutes, Number(word(4) & 0xffffffffn)] as const
    const canonical = encodeFunctionData({ abi: safeAllowanceModuleAbi, functionName: 'setAllowance', args })
    const disguised = slice(call.data as Hex, 0, 164) !== canonical
    return [
      makeWarning(
        'SET_OWNER_AUTHORITY',
        disguised ? 'CRITICAL' : 'WARNING',
        `This lets ${shortAddress(delegate)} take ${allowanceInWords(amount, token, chainId, metadataOf)} from the ` +
          `Safe ${shortAddress(call.from)} ${periodInWords(resetMinutes)}, through Safe's allowance module, without ` +
          `any owner's confirmation. ${disguised ? DISGUISED : ''}Only continue if you meant to give ` +
          `${shortAddress(delegate)} this spending limit.`,
        { safe: call.from, delegate, token, amount: amount.toString(), resetTimeMin: String(resetMinutes) },
      ),
    ]
  })
}

/** Whether `other` sets an allowance for `delegate` in the module `call` addresses, from the same Safe. */
function setsAllowanceFor(other: Call, call: Call, delegate: Address): boolean {
  if (other.delegate || !other.to || !call.to || !isAddressEqual(other.to, call.to)) return false
  if (!isAddressEqual(other.from, call.from)) return false
  const decoded = decodeKnownFunction(other.data)
  return decoded?.functionName === 'setAllowance' && isAddressEqual(decoded.args[0] as Address, delegate)
}

/**
 * The module keeps a delegate's allowances when the delegate is removed (unless told to remove them too) and lets a
 * delegate spend what it has not spent: adding a delegate back, or resetting what it spent, gives it its old allowance
 * again, though the call sets none and moves nothing.
 */
function delegateWarning(call: Call, delegate: Address, functionName: string, token: Address | undefined): Warning {
  const who = shortAddress(delegate)
  const what =
    functionName === 'addDelegate'
      ? `makes ${who} a delegate of Safe's allowance module for the Safe ${shortAddress(call.from)}: any allowance the ` +
        `module still holds for ${who} (one kept when it was removed as a delegate) takes effect again`
      : `resets what ${who} has spent of its allowance of ${token ? shortAddress(token) : 'a token'} in Safe's ` +
        `allowance module, so it can take all of it again at once`
  return makeWarning(
    'SET_OWNER_AUTHORITY',
    'WARNING',
    `This ${what}, without any owner's confirmation. Only continue if ${who} should spend from the Safe.`,
    { safe: call.from, delegate },
  )
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
