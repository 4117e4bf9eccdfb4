/**
 * Interest an interest-bearing token says it accrued to an account before the transactions: Aave V3's aTokens and debt
 * tokens (ScaledBalanceTokenBase) log, whenever they touch an account, a `Transfer` from the zero address of all the
 * interest it earned since its last touch, with a `Mint` or `Burn` event giving that `balanceIncrease`. Their
 * `balanceOf` has counted that interest all along, so a read before and after moves by the amount supplied, withdrawn
 * or sent, while the events move it by that amount plus the interest: months of interest on a large deposit, beside a
 * small withdrawal, is far past any rounding.
 */
import { type Address, type Hex, hexToBigInt, size, slice, toEventSelector } from 'viem'
import type { SimulatedLog } from './assetEvents.ts'

let topics: { mint: Hex; burn: Hex } | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function interestTopics(): { mint: Hex; burn: Hex } {
  topics ??= {
    // Mint(address indexed caller, address indexed onBehalfOf, uint256 value, uint256 balanceIncrease, uint256 index)
    mint: toEventSelector('Mint(address,address,uint256,uint256,uint256)'),
    // Burn(address indexed from, address indexed target, uint256 value, uint256 balanceIncrease, uint256 index)
    burn: toEventSelector('Burn(address,address,uint256,uint256,uint256)'),
  }
  return topics
}

/** The key of a token's accrual for an account in accruedInterest's map. */
export const accrualKey = (token: Address, account: Address) => `${token.toLowerCase()}|${account.toLowerCase()}`

/**
 * The interest each token's own Mint and Burn events say each account had accrued (their `balanceIncrease`), summed
 * by accrualKey. Only the token's own logs count, for the account they name (Mint's `onBehalfOf`, Burn's `from`). Any
 * contract can log these events: the rule reading them trusts only Aave's listed tokens (risk/aaveTokens.ts).
 */
export function accruedInterest(logs: SimulatedLog[]): Map<string, bigint> {
  const { mint, burn } = interestTopics()
  const accrued = new Map<string, bigint>()
  for (const log of logs) {
    const [signature, first, second] = log.topics
    if ((signature !== mint && signature !== burn) || log.topics.length !== 3 || size(log.data) !== 96) continue
    const word = signature === mint ? second : first
    if (!word || !first || !second || hexToBigInt(word) >> 160n !== 0n) continue
    // accrualKey lowercases: no checksum to compute per log.
    const key = accrualKey(log.address, slice(word, 12) as Address)
    accrued.set(key, (accrued.get(key) ?? 0n) + hexToBigInt(slice(log.data, 32, 64)))
  }
  return accrued
}
