/**
 * A drainer can hand back a token ("your reward") so that the user seems to get something for what they lose: one it
 * mints on the spot, or one from a stock it minted beforehand. Such a payback is told apart from honest gains by what
 * an honest flow does not combine: Preflight cannot value the tokens (no price read, not on the bundled list), what
 * the user loses is not all paid to a known protocol or drop mint contract (minters.ts) the transaction calls and kept
 * in the trade (a router told to pay it on to a wallet is not paid it), they are no receipt (a receipt's token
 * contract is one the transaction calls: a vault's shares, a position manager's NFT; or one that keeps what the user
 * puts in: a Uniswap pair's LP token, Aave's aToken), and whoever hands them out is paid nothing for them. They are
 * minted for the user in this transaction, or they come from accounts that end up with more of nothing: a seller is
 * paid (a pool keeps the WETH it is sent, the next hop's pool the first one's output, a shop the ETH), a drainer hands
 * on what it takes.
 *
 * Its limits: a drainer that is itself the token it hands out, or that keeps any of the loot (in its token contract,
 * or in itself), passes as a vault or a seller. Telling those apart takes knowing whether the loss went on to a
 * person's wallet or to a contract, which the one simulation call does not read for addresses the transaction never
 * names. And an honest sale whose contract forwards every wei to the seller's wallet (an escrow marketplace, a presale
 * paying its treasury) looks like a drain unless that contract is on the bundled list: the warning names the contract
 * called and asks whether the user trusts it. A known drop minter pays the creator its collection names, whoever that
 * is: a "drop" an attacker sets up to be paid through it is a sale, as far as this rule can tell.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { assetKey, listedToken, type PriceOf, type TransferChange } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import { type AssetRef, type Movement, netByAccount } from '../simulation/index.ts'
import { knownMinter } from './minters.ts'
import { isKnownSpender, isWrappedNative } from './protocols.ts'
import { knownSpender } from './spenders.ts'
import { wrappersIn } from './swapProceeds.ts'

/** What judging a payback needs of the transaction: its chain, its calls, every asset movement, the prices read. */
export type PaybackContext = {
  chainId: number
  calls: Call[]
  movements: Movement[]
  priceOf: PriceOf
}

/** How a payback costs its giver nothing: minted in this transaction, or handed out by accounts paid nothing. */
export type FakePayback = 'minted' | 'unpaid'

/**
 * Whether everything `user` gains among `transfers` (the transaction's net transfers) is a token Preflight cannot value
 * and no receipt, minted for them or handed out by accounts paid nothing, while what they lose is not all paid to
 * known contracts the transaction calls: a drainer's payback. 'minted' when every gain was minted for the user; null
 * when some gain is a real payment, or the user gains nothing.
 */
export function fakePayback(transfers: TransferChange[], user: Address, context: PaybackContext): FakePayback | null {
  const { chainId, calls, movements, priceOf } = context
  const mine = transfers.filter((change) => isAddressEqual(change.account, user))
  const gains = mine.filter((change) => change.after > change.before)
  const lost = new Set(mine.filter((change) => change.after < change.before).map((change) => assetKey(change.asset)))
  const called = calls.flatMap((call) => (call.to ? [call.to] : []))
  if (gains.length === 0) return null
  const sides = accountSides(movements)
  if (called.some((contract) => isKnownContract(chainId, contract)) && paysKnown(mine, user, context, sides.paying)) {
    return null
  }
  // Sets and sums made once, not per gain: a drainer can hand out a thousand "rewards" in one transaction.
  const keepers = transfers.filter((change) => change.after > change.before && lost.has(assetKey(change.asset)))
  const receipts = new Set([...called, ...keepers.map((change) => change.account)].map((token) => token.toLowerCase()))
  const { paid } = sides
  const fromZero = new Map<string, bigint>()
  const fromUnpaid = new Map<string, bigint>()
  for (const move of movements) {
    if (!isAddressEqual(move.to, user)) continue
    const minter = isAddressEqual(move.from, zeroAddress)
    const sums = minter ? fromZero : paid.has(move.from.toLowerCase()) ? null : fromUnpaid
    const key = assetKey(move.asset)
    sums?.set(key, (sums.get(key) ?? 0n) + move.amount)
  }
  let minted = true
  for (const gain of gains) {
    const { asset } = gain
    // A receipt's token contract is called, or ends up holding some of what the user loses.
    if (asset.standard === 'NATIVE' || receipts.has(asset.token.toLowerCase())) return null
    const valued =
      priceOf(asset.token) !== null ||
      listedToken(chainId, asset.token) !== null ||
      isWrappedNative(chainId, asset.token)
    if (asset.standard === 'ERC20' && valued) return null
    const key = assetKey(asset)
    const made = fromZero.get(key) ?? 0n
    const amount = gain.after - gain.before
    if (made + (fromUnpaid.get(key) ?? 0n) < amount) return null
    if (made < amount) minted = false
  }
  return minted ? 'minted' : 'unpaid'
}

/** Whether a contract is a known protocol's (a listed spender: a router, a vault, a gateway) or a drop's mint contract. */
export function isKnownContract(chainId: number, contract: Address): boolean {
  return isKnownSpender(chainId, contract) || knownMinter(chainId, contract) !== null
}

/**
 * Whether all the user loses is paid to known contracts, net of what they pay the user back and of what protocols pass
 * on out of reach (passedOn): a swap's buyer pays the router, a pool joiner the vault, a drop's buyer the minter, which
 * pays the creator. Calling one is no excuse for a loss that goes elsewhere: a zero-value call to a listed vault, or a
 * SeaDrop mint, batched beside a drainer's "claim" (in a second transaction, a Safe's MultiSend or a smart account's
 * executeBatch) must not make the claim's minted payback pass as the protocol's; nor may a round trip through one
 * (wrapping ETH and unwrapping it), nor a router told to pay it on to the attacker.
 */
function paysKnown(mine: TransferChange[], user: Address, context: PaybackContext, paying: Set<string>): boolean {
  const { chainId, movements } = context
  const wrappers = wrappersIn(movements, (token) => isWrappedNative(chainId, token))
  const leaked = passedOn(user, context, wrappers, paying)
  // What the user pays known contracts net of what they pay back, per asset (assetKey), summed once for every loss.
  const toKnown = new Map<string, bigint>()
  for (const move of movements) {
    const key = assetKey(move.asset)
    if (isAddressEqual(move.from, user) && isKnownContract(chainId, move.to)) {
      toKnown.set(key, (toKnown.get(key) ?? 0n) + move.amount)
    }
    if (isAddressEqual(move.to, user) && isKnownContract(chainId, move.from)) {
      toKnown.set(key, (toKnown.get(key) ?? 0n) - move.amount)
    }
  }
  return mine.every((change) => {
    if (change.after >= change.before) return true
    const paid = (toKnown.get(assetKey(change.asset)) ?? 0n) - (leaked.get(nativeAsOne(change.asset, wrappers)) ?? 0n)
    return paid >= change.before - change.after
  })
}

/**
 * What listed protocols pass on out of the trade, per asset (nativeAsOne). A router pays whomever its calldata names
 * (Universal Router's TRANSFER, SWEEP or PAY_PORTION, a swap's recipient), so every movement out of a listed spender
 * is followed through the accounts it reaches, up to known contracts and the user, and what ends up with accounts that
 * pay nothing out (no transfer, no mint), as a wallet does, counts as passed on. Pools, an aggregator's executor that
 * passes it on, a wrapper, a receipt's token (which mints) keep none of it out of the trade. A drop's minter paying
 * its creator is the sale itself, not followed. A listed ledger a router pays (Morpho Blue through bundler3's adapter,
 * credited to any `onBehalf`) is followed like any contract: being paid says nothing of whose the funds become.
 */
function passedOn(
  user: Address,
  context: PaybackContext,
  wrappers: Set<string>,
  paying: Set<string>,
): Map<string, bigint> {
  const { chainId, movements } = context
  const onward = new Map<string, Address[]>()
  const spenders = new Set<string>()
  for (const move of movements) {
    const from = move.from.toLowerCase()
    const targets = onward.get(from) ?? []
    targets.push(move.to)
    onward.set(from, targets)
    if (isKnownSpender(chainId, move.from)) spenders.add(from)
  }
  const queue = [...spenders]
  const reached = new Set<string>()
  for (let account = queue.pop(); account !== undefined; account = queue.pop()) {
    for (const to of onward.get(account) ?? []) {
      const key = to.toLowerCase()
      // A ledger (Morpho Blue, a Comet market) keeps what it is paid for whoever the call names: no stop, and what it
      // keeps counts as passed on, as it does when it is no known contract at all.
      const known = isKnownContract(chainId, to) && knownSpender(chainId, to)?.ledger !== true
      const stops = isAddressEqual(to, user) || isAddressEqual(to, zeroAddress) || known
      if (stops || reached.has(key)) continue
      reached.add(key)
      queue.push(key)
    }
  }
  const leaked = new Map<string, bigint>()
  for (const [asset, accounts] of netByAccount(movements, (move) => nativeAsOne(move.asset, wrappers))) {
    for (const [account, amount] of accounts) {
      if (amount > 0n && reached.has(account) && !paying.has(account)) {
        leaked.set(asset, (leaked.get(asset) ?? 0n) + amount)
      }
    }
  }
  return leaked
}

/** An asset's key, with the native currency and the tokens that wrap it here (`wrappers`) as one: 'native'. */
function nativeAsOne(asset: AssetRef, wrappers: Set<string>): string {
  return asset.standard === 'NATIVE' || (asset.standard === 'ERC20' && wrappers.has(asset.token.toLowerCase()))
    ? 'native'
    : assetKey(asset)
}

/**
 * Accounts (lowercase) that end up with more of some asset than they start with in these movements (`paid`: paid for
 * something), and those that end up with less of one or mint one (`paying`: they pay something out).
 */
function accountSides(movements: Movement[]): { paid: Set<string>; paying: Set<string> } {
  const paid = new Set<string>()
  const paying = new Set<string>()
  for (const accounts of netByAccount(movements, (move) => assetKey(move.asset)).values()) {
    for (const [account, amount] of accounts) {
      if (amount > 0n) paid.add(account)
      if (amount < 0n) paying.add(account)
    }
  }
  for (const { asset, from } of movements) {
    if (asset.standard !== 'NATIVE' && isAddressEqual(from, zeroAddress)) paying.add(asset.token.toLowerCase())
  }
  return { paid, paying }
}
