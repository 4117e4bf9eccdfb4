/**
 * A drainer can hand back a token it mints on the spot ("your reward"), so that the user seems to get something for
 * what they lose. Such a payback is told apart from honest gains by what an honest flow does not combine: the tokens
 * are minted for the user in the same transaction (a swap pays from a pool's reserves, so a router swap for an
 * unpriced token never counts), Preflight cannot value them (no price read, not on the bundled list), the transaction
 * calls no known protocol, and they are no receipt: a receipt's token contract is one the transaction calls (a vault's
 * shares, a position manager's NFT) or one that keeps what the user puts in (a Uniswap pair's LP token, Aave's aToken).
 *
 * Its limit: a drainer that is itself the token it mints, or that parks the loot in its token contract, passes as a
 * vault. Telling those apart takes knowing whether the loss went on to a person's wallet or to a contract, which the
 * one simulation call does not read for addresses the transaction never names.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { assetKey, listedToken, type PriceOf, type TransferChange } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import type { Movement } from '../simulation/index.ts'
import { isKnownSpender, isWrappedNative } from './protocols.ts'

/** What judging a payback needs of the transaction: its chain, its calls, every asset movement, the prices read. */
export type PaybackContext = { chainId: number; calls: Call[]; movements: Movement[]; priceOf: PriceOf }

/**
 * Whether everything `user` gains among `transfers` (the transaction's net transfers) is a minted token Preflight
 * cannot value and no receipt, in a transaction that calls no known protocol: a drainer's payback. False when the user
 * gains nothing.
 */
export function isMintedPayback(transfers: TransferChange[], user: Address, context: PaybackContext): boolean {
  const { chainId, calls, movements, priceOf } = context
  const mine = transfers.filter((change) => isAddressEqual(change.account, user))
  const gains = mine.filter((change) => change.after > change.before)
  const lost = new Set(mine.filter((change) => change.after < change.before).map((change) => assetKey(change.asset)))
  const called = calls.flatMap((call) => (call.to ? [call.to] : []))
  if (gains.length === 0 || called.some((contract) => isKnownSpender(chainId, contract))) return false
  /** The token contract is called, or ends up holding some of what the user loses. */
  const isReceipt = (token: Address) =>
    called.some((contract) => isAddressEqual(contract, token)) ||
    transfers.some(
      (change) =>
        isAddressEqual(change.account, token) && change.after > change.before && lost.has(assetKey(change.asset)),
    )
  return gains.every((gain) => {
    const { asset } = gain
    if (asset.standard === 'NATIVE' || isReceipt(asset.token)) return false
    const valued =
      priceOf(asset.token) !== null ||
      listedToken(chainId, asset.token) !== null ||
      isWrappedNative(chainId, asset.token)
    if (asset.standard === 'ERC20' && valued) return false
    const minted = movements
      .filter((move) => isAddressEqual(move.from, zeroAddress) && isAddressEqual(move.to, user))
      .filter((move) => assetKey(move.asset) === assetKey(asset))
      .reduce((sum, move) => sum + move.amount, 0n)
    return minted >= gain.after - gain.before
  })
}
