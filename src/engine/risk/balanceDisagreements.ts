/**
 * Tokens whose balances and events disagree: a token that moves balances without a Transfer event, whose events cancel
 * out while the balances move, whose balanceOf reports the same amount whatever happens, or that takes a cut no event
 * shows. The scan cannot tell which side tells the truth, so it says so for each such token.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { type BalanceNet, formatAmount, shortAddress } from '../assets/index.ts'
import type { TokenMetadata } from '../simulation/index.ts'
import { aaveInterestToken } from './aaveTokens.ts'
import { pastTolerance } from './tolerance.ts'
import { makeWarning } from './warnings.ts'

const abs = (value: bigint) => (value < 0n ? -value : value)

/**
 * One RELIABLE_SIMULATION_NOT_POSSIBLE WARNING per token where an account's balance read before and after changes by
 * another amount than the token's events move for it, past the tolerance rebasing tokens' rounding and interest need.
 * Interest an Aave token's events count again (BalanceNet.accrued) is taken out of what they move, when the token is
 * one of Aave's on `chainId` (aaveTokens.ts) and the interest no more than the balance read before: it can only lower
 * what the events say the account gets, and the change shown is the read's. The user's account is the one named when
 * it is among them.
 */
export function balanceDisagreementWarnings(
  nets: BalanceNet[],
  userAccount: Address,
  metadataOf: (token: Address) => TokenMetadata,
  chainId: number,
): Warning[] {
  const byToken = new Map<string, { token: Address; net: BalanceNet; read: bigint }>()
  for (const net of nets) {
    if (net.asset.standard === 'NATIVE' || net.asset.standard === 'ERC721' || !net.read) continue
    const read = net.read.after - net.read.before
    // Any contract can log Aave's events: trusted from Aave's own tokens only, a fake's "interest" would silence a
    // disagreement up to the balance the account already holds. And Aave's interest was in the balance read before,
    // so it is never more than that balance.
    const isAave = aaveInterestToken(chainId, net.asset.token) !== null
    const accrued = isAave && net.accrued <= net.read.before ? net.accrued : 0n
    const traced = net.traced - accrued
    if (!pastTolerance(abs(read - traced), read, traced)) continue
    const key = net.asset.token.toLowerCase()
    const known = byToken.get(key)
    if (!known || (isAddressEqual(net.account, userAccount) && !isAddressEqual(known.net.account, userAccount))) {
      byToken.set(key, { token: net.asset.token, net, read })
    }
  }
  return [...byToken.values()].map(({ token, net, read }) => {
    const metadata = metadataOf(token)
    const name = metadata.symbol ?? metadata.name ?? shortAddress(token)
    const amount = (value: bigint) => `${formatAmount(value, metadata.decimals ?? 0)} ${name}`
    const whose = isAddressEqual(net.account, userAccount)
      ? 'your balance'
      : `the balance of ${shortAddress(net.account)}`
    return makeWarning(
      'RELIABLE_SIMULATION_NOT_POSSIBLE',
      'WARNING',
      `${name} (${shortAddress(token)}) contradicts itself: by its events ${whose} changes by ${amount(net.traced)}, ` +
        `by its balanceOf by ${amount(read)}. Preflight cannot tell what this token really moves; tokens that hide ` +
        'or fake their transfers do this. Do not continue unless you trust it.',
    )
  })
}
