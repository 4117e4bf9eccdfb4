/**
 * Swaps that pay someone else. A phishing page calls an honest router (Uniswap's, an aggregator's) with the attacker
 * as the swap's recipient: the user pays, the router and the pools are contracts the transaction names, and nothing
 * else looks amiss. Judged from what moved, not from calldata, so any router and any route is covered: the user's side
 * pays some assets in; the counterparties (pools, routers, wrappers: whoever pays anything out) pay other assets out;
 * where those end up is the question.
 */
import { type Address, getAddress, type Hex, isAddressEqual, zeroAddress } from 'viem'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import {
  type Movement,
  nativeCurrency,
  netByAccount,
  type SimulatedLog,
  type TokenMetadata,
} from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** What a swap pays out of one asset ('native' for the native currency and its wrapped token), and who gets most. */
export type MisdirectedPayout = {
  asset: Address | 'native'
  /** The address that gets the most of it, not the user's, and how much. */
  recipient: Address
  amount: bigint
  /** All the swap pays out of it, the user's share included. */
  total: bigint
  /** How many addresses that are not the user's get some of it. */
  takers: number
  /** Who pays out along the route: the pools, routers and wrappers that end up with less of something. */
  payers: Address[]
}

const NATIVE = 'native'
/** The key suffix of a collection's NFTs: they mark who trades, but are no swap output. */
const NFT = '#nft'
const ZERO = zeroAddress as string

/**
 * Per asset the user's side pays nothing of, what the counterparties pay out, when more than half of it goes to
 * addresses outside the user's side. Nothing when the user's side pays nothing. A wrapped native token counts as the
 * native currency (swapFlows), so a router that unwraps WETH to pay ether (or wraps what it is sent) moves one asset,
 * not two.
 */
export function misdirectedPayouts(flows: SwapFlows, isUsers: (address: Address) => boolean): MisdirectedPayout[] {
  const { net, counterparties } = flows
  const mine = (account: string) => isUsers(account as Address)
  const sum = (entries: [string, bigint][]) => entries.reduce((total, [, amount]) => total + amount, 0n)
  const paid = new Set(
    [...net].filter(([, accounts]) => sum([...accounts].filter(([a]) => mine(a))) < 0n).map(([k]) => k),
  )
  if (paid.size === 0) return []
  // A swap back is the share of a holder's sale of that token alone: beside anything else the user's side pays (another
  // token's sale routed through the same pool, or paying the same team), its share cannot be told from theirs.
  const [ownSold, ownTotal, ownPools] = paid.size === 1 ? ownSales(flows, paid, mine) : [0n, 0n, new Set<string>()]
  const payers = [...counterparties].filter((account) => !mine(account)).map((account) => getAddress(account))
  const receipts = nftsMintedToOthers(flows.movements, mine)
  const payouts: MisdirectedPayout[] = []
  for (const [asset, accounts] of net) {
    if ((asset.endsWith(NFT) && !receipts.has(asset)) || paid.has(asset)) continue
    // A token's own contract keeping some of it is the token's rule (a tax), judged by ownContractWarnings.
    const gains = [...accounts].filter(
      ([account, amount]) =>
        amount > 0n && account !== ZERO && account !== asset && (mine(account) || !counterparties.has(account)),
    )
    // The share of the output a token's own sale bought (ownSales) is the token's to send where it likes: taken out
    // of the largest payout elsewhere, which is where the token sends it. Only of what the pools it sold into pay
    // out: another sale in the same request (the user's USDC, paid to the team) bought the rest.
    const fromOwnPools = [...accounts].reduce(
      (total, [account, amount]) => (ownPools.has(account) && amount < 0n ? total - amount : total),
      0n,
    )
    const bought = ownTotal === 0n ? 0n : (fromOwnPools * ownSold) / ownTotal
    const theirs = bought > sum(gains) ? sum(gains) : bought
    const others = lessTheirs(
      gains.filter(([account]) => !mine(account)),
      theirs,
    )
    const [main] = others
    if (!main || sum(others) * 2n <= sum(gains) - theirs) continue
    payouts.push({
      asset: asset === NATIVE ? NATIVE : getAddress(asset.replace(NFT, '')),
      recipient: getAddress(main[0]),
      // What it really receives, the token's share included: the address named is paid exactly this.
      amount: accounts.get(main[0]) ?? main[1],
      total: sum(gains),
      takers: others.length,
      payers,
    })
  }
  return payouts
}

/**
 * The collections (NFT keys) with items minted to accounts outside the user's side. An NFT that changes hands marks who
 * trades (a sale's item goes to its buyer), but one minted is what the payment bought: Lido's withdrawal queue mints
 * the request, the claim on the ETH, to the `owner` its call names; a position manager the position to `recipient`.
 */
function nftsMintedToOthers(movements: Movement[], mine: (account: string) => boolean): Set<string> {
  const keys = new Set<string>()
  for (const { asset, from, to } of movements) {
    if (asset.standard !== 'ERC721' && asset.standard !== 'ERC1155') continue
    if (isAddressEqual(from, zeroAddress) && !mine(to.toLowerCase())) keys.add(`${asset.token.toLowerCase()}${NFT}`)
  }
  return keys
}

/** Payouts largest first, `theirs` taken out of the largest (dropped if nothing is left of it). */
function lessTheirs(payouts: [string, bigint][], theirs: bigint): [string, bigint][] {
  const largestFirst = (entries: [string, bigint][]) =>
    [...entries].sort(([, a], [, b]) => (a > b ? -1 : a < b ? 1 : 0))
  const [largest, ...rest] = largestFirst(payouts)
  if (!largest || theirs === 0n) return largestFirst(payouts)
  const left = largest[1] > theirs ? largest[1] - theirs : 0n
  return largestFirst(left > 0n ? [[largest[0], left], ...rest] : rest)
}

/**
 * What the contracts of the tokens the user's side pays sell of their own stock to the route's payers (the pools),
 * against that plus what the user's side pays of the token: the largest such share, as a fraction [sold, total], with
 * the pools that token's own sale went into (lowercase).
 * A memecoin keeps its tax in its own contract and, during a holder's sale, swaps it to ether for its team through the
 * same pool ("swap back"): the pool's output then goes mostly to the team's wallet when the holder sells less than
 * the contract has gathered, and that part was bought with the token's tokens, not the holder's.
 */
function ownSales(
  flows: SwapFlows,
  paid: Set<string>,
  mine: (account: string) => boolean,
): [sold: bigint, total: bigint, pools: Set<string>] {
  let best: [bigint, bigint, Set<string>] = [0n, 0n, new Set()]
  for (const token of paid) {
    if (token === NATIVE) continue
    const pools = new Set<string>()
    let sold = 0n
    for (const { asset, from, to, amount } of flows.movements) {
      const pool = to.toLowerCase()
      if (asset.standard !== 'ERC20' || asset.token.toLowerCase() !== token || from.toLowerCase() !== token) continue
      if (!flows.counterparties.has(pool) || mine(pool)) continue
      sold += amount
      pools.add(pool)
    }
    // The token's contract logs the tax it takes from the user, which makes it a recorder of the user's (mine).
    const userPaid = -[...(flows.net.get(token) ?? [])].reduce(
      (total, [account, amount]) => (mine(account) && account !== token ? total + amount : total),
      0n,
    )
    const total = sold + userPaid
    if (sold > 0n && (best[1] === 0n || sold * best[1] > best[0] * total)) best = [sold, total, pools]
  }
  return best
}

/**
 * The accounts that paid the user's side some asset, in the net of these movements: the pools of a swap whose output
 * reached the user, or a contract that holds it in their name. A trade's counterparties, never a drainer's hidden
 * wallet, which only gains. A wrapped native token counts too when what it wrapped in these movements went only to
 * such accounts (the router wrapped the user's ether to pay a pool); wrapped and handed to anyone else, it does not.
 */
export function tradeCounterparties(flows: SwapFlows, isUsers: (address: Address) => boolean): Address[] {
  const { movements, wrappers, net } = flows
  const payers = new Set<string>()
  for (const accounts of net.values()) {
    const entries = [...accounts]
    const received = entries.reduce(
      (total, [account, amount]) => (isUsers(account as Address) ? total + amount : total),
      0n,
    )
    if (received <= 0n) continue
    for (const [account, amount] of entries) {
      if (amount < 0n && account !== ZERO && !isUsers(account as Address)) payers.add(account)
    }
  }
  for (const wrapper of wrappers) {
    const ofWrapper = ({ asset }: Movement) =>
      asset.standard === 'ERC20' && asset.token.toLowerCase() === wrapper ? wrapper : null
    const holders = netByAccount(movements, ofWrapper).get(wrapper) ?? new Map<string, bigint>()
    const gainers = [...holders].filter(([account, amount]) => amount > 0n && account !== ZERO && account !== wrapper)
    if (gainers.every(([account]) => payers.has(account) || isUsers(account as Address))) payers.add(wrapper)
  }
  return [...payers].map((account) => getAddress(account))
}

/** A request's movements netted once for the swap rules: both read the same flows. */
export type SwapFlows = {
  movements: Movement[]
  /** Tokens that wrap the native currency here (lowercase). */
  wrappers: Set<string>
  net: Map<string, Map<string, bigint>>
  counterparties: Set<string>
}

/**
 * The movements netted per asset and account, a wrapped native token counted as the native currency: `isWrapper` names
 * such tokens, and any token that mints for ether sent to it, or pays ether for its own burn, here is one too.
 */
export function swapFlows(movements: Movement[], isWrapper: (token: Address) => boolean): SwapFlows {
  const wrappers = wrappersIn(movements, isWrapper)
  return { movements, wrappers, ...netFlows(movements, wrappers) }
}

/**
 * Each account's net change per asset (lowercase keys; a wrapper's token and ether are one asset, NFTs one per
 * collection), and the counterparties: accounts that end up with less of something, and tokens that mint.
 */
function netFlows(
  movements: Movement[],
  wrappers: Set<string>,
): { net: Map<string, Map<string, bigint>>; counterparties: Set<string> } {
  const counterparties = new Set<string>()
  // Ether into or out of its wrapper is the wrapper's mint or burn, already moved as the wrapped token.
  const wrapping = (account: Address): Address => (wrappers.has(account.toLowerCase()) ? zeroAddress : account)
  const netted = movements.map((movement) => {
    if (movement.asset.standard === 'NATIVE')
      return { ...movement, from: wrapping(movement.from), to: wrapping(movement.to) }
    if (isAddressEqual(movement.from, zeroAddress)) counterparties.add(movement.asset.token.toLowerCase())
    return movement
  })
  const net = netByAccount(netted, ({ asset }) => {
    const token = asset.standard === 'NATIVE' ? null : asset.token.toLowerCase()
    return token === null || wrappers.has(token) ? NATIVE : asset.standard === 'ERC20' ? token : `${token}${NFT}`
  })
  for (const accounts of net.values()) {
    for (const [account, amount] of accounts) if (amount < 0n && account !== ZERO) counterparties.add(account)
  }
  return { net, counterparties }
}

/** Tokens that wrap the native currency in these movements: listed, or minting for ether sent them or the reverse. */
export function wrappersIn(movements: Movement[], isWrapper: (token: Address) => boolean): Set<string> {
  const wrappers = new Set<string>()
  const etherTo = new Set<string>()
  const etherFrom = new Set<string>()
  for (const { asset, from, to } of movements) {
    if (asset.standard === 'NATIVE') {
      etherTo.add(to.toLowerCase())
      etherFrom.add(from.toLowerCase())
    } else if (asset.standard === 'ERC20' && isWrapper(asset.token)) {
      wrappers.add(asset.token.toLowerCase())
    }
  }
  for (const { asset, from, to } of movements) {
    if (asset.standard !== 'ERC20') continue
    const token = asset.token.toLowerCase()
    const minted = isAddressEqual(from, zeroAddress) && etherTo.has(token)
    const burned = isAddressEqual(to, zeroAddress) && etherFrom.has(token)
    if (minted || burned) wrappers.add(token)
  }
  return wrappers
}

/**
 * Contracts that record something for the user's side in these logs: each emitted an event with one of its accounts in
 * an indexed topic or a word of its data. A swap's output deposited into a farm, a vault or a bridge in the user's
 * name lands with such a contract (Deposit(user, amount), FundsDeposited(…, depositor = user, …)); a phishing page's
 * recipient runs no code in an honest router's swap, so it records nothing.
 */
export function recordersFor(logs: SimulatedLog[], isUsers: (address: Address) => boolean): Set<string> {
  const recorders = new Set<string>()
  for (const log of logs) {
    const words = [...log.topics.slice(1), ...dataWords(log.data)]
    if (words.some((word) => isAccountWord(word) && isUsers(`0x${word.slice(26)}` as Address))) {
      recorders.add(log.address.toLowerCase())
    }
  }
  return recorders
}

/** An event's data as 32-byte words (hex, with 0x). */
function dataWords(data: Hex): Hex[] {
  const words: Hex[] = []
  for (let at = 2; at + 64 <= data.length; at += 64) words.push(`0x${data.slice(at, at + 64)}`)
  return words
}

/** A word holding an address: twelve zero bytes, then twenty not all zero. */
const isAccountWord = (word: Hex) => /^0x0{24}(?!0{40})[0-9a-f]{40}$/i.test(word)

/** TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) for each payout that goes mostly to an address not the user's. */
export function swapProceedsWarnings(
  payouts: MisdirectedPayout[],
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  return payouts.map((payout) => {
    const metadata = payout.asset === NATIVE ? nativeCurrency(chainId) : metadataOf(payout.asset)
    const symbol = metadata.symbol ?? (payout.asset === NATIVE ? 'ETH' : shortAddress(payout.asset))
    const amount = (value: bigint) => `${formatAmount(value, metadata.decimals ?? 0)} ${symbol}`
    const who = shortAddress(payout.recipient)
    const paid =
      payout.amount === payout.total
        ? `all its ${amount(payout.amount)}`
        : `${amount(payout.amount)} of the ${amount(payout.total)} it pays out`
    const rest = payout.takers > 1 ? ` and ${payout.takers - 1} other address${payout.takers > 2 ? 'es' : ''}` : ''
    return makeWarning(
      'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
      'WARNING',
      `You pay for a swap that pays ${paid} to ${who}${rest}, not to you. Phishing pages make an honest exchange ` +
        `pay them: continue only if ${who} is yours.`,
      {
        recipient: payout.recipient.toLowerCase(),
        asset: payout.asset === NATIVE ? NATIVE : payout.asset.toLowerCase(),
        amount: payout.amount.toString(),
        total: payout.total.toString(),
      },
    )
  })
}
