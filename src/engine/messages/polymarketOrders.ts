/**
 * Polymarket's CTF Exchange orders (`Order`, as `@polymarket/clob-client` signs them): a BUY pays `makerAmount` of the
 * exchange's collateral (USDC) for `takerAmount` shares of outcome token `tokenId`, an ERC-1155 position of the
 * Conditional Tokens contract; a SELL gives `makerAmount` shares for `takerAmount` of collateral. Both have 6 decimals.
 * The order names neither contract: each exchange deployment has its own, listed here as the client's config lists
 * them. Orders fill in part, each side in proportion, and the exchange takes its fee from what the maker is paid.
 */
import { type Address, getAddress } from 'viem'
import type { StateChange, Warning } from '../api/index.ts'
import { formatAmount } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { BOUND_WORDS } from './bounds.ts'
import type { SeaportItem, SeaportOrders, SeaportTrade } from './seaport.ts'
import { foreignMakerWarning } from './swapOrders.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** What a Polymarket order signature is, for the user who signs it. */
export type PolymarketOrder =
  | {
      kind: 'orders'
      /** Whose assets it trades: the maker, the signer's own proxy wallet or Safe where it is not the signer. */
      account: Address
      orders: SeaportOrders
      /** The Conditional Tokens contract whose positions are the shares. */
      ctf: Address
      warnings: Warning[]
    }
  | { kind: 'unknownExchange'; reason: string }

const ORDER =
  'uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,' +
  'uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType'

/** Shares, like the USDC they are priced in, have 6 decimals (the client's CONDITIONAL_TOKEN_DECIMALS). */
const SHARE_DECIMALS = 6
const SELL = 1n

type Deployment = { collateral: Address; ctf: Address }

const POLYGON: Deployment = {
  collateral: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
  ctf: '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045',
}
const AMOY: Deployment = {
  collateral: '0x9c4e1703476e875070ee25b56a58b008cfb8fa78',
  ctf: '0x69308FB512518e39F9b16112fA8d994F4e2Bf8bB',
}

/**
 * The exchanges by chain and verifying contract (`@polymarket/clob-client`'s contract config): the CTF Exchange and
 * the neg-risk one, whose positions are held by the same Conditional Tokens contract.
 */
const EXCHANGES: Record<number, Record<string, Deployment>> = {
  137: {
    '0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e': POLYGON,
    '0xc5d563a36ae78145c45a50134d48a1215220f80a': POLYGON,
  },
  80002: {
    '0xdfe02eb6733538f8ea35d585af8de5958ad99e40': AMOY,
    '0xc5d563a36ae78145c45a50134d48a1215220f80a': AMOY,
  },
}

/** The Polymarket order a payload signs, read for `user`, or null when it is none. */
export function findPolymarketOrder(typedData: TypedData, user: Address): PolymarketOrder | null {
  if (structSignature(typedData.types, typedData.primaryType) !== ORDER) return null
  const { domain, message } = typedData
  const chainId = typeof domain.chainId === 'bigint' ? Number(domain.chainId) : null
  const exchange = typeof domain.verifyingContract === 'string' ? domain.verifyingContract.toLowerCase() : ''
  const deployment = chainId === null ? undefined : EXCHANGES[chainId]?.[exchange]
  if (!deployment) {
    return {
      kind: 'unknownExchange',
      reason:
        `This Polymarket order is for ${exchange || 'no contract'} on chain ${chainId ?? 'unknown'}, which is not a ` +
        'Polymarket exchange Preflight knows, so the tokens it trades cannot be read. Sign it only on Polymarket, for ' +
        'its own exchange.',
    }
  }
  const signer = message.signer as Address
  const maker = message.maker as Address
  // The exchange checks that a proxy wallet or Safe maker is the signer's own, and that an EOA maker is the signer.
  if (signer !== user.toLowerCase()) {
    const none: SeaportTrade = { offerer: signer, gives: [], receives: [] }
    return {
      kind: 'orders',
      account: user,
      orders: { orders: [none], total: none, bulk: false },
      ctf: deployment.ctf,
      warnings: [foreignMakerWarning('Polymarket', signer)],
    }
  }
  const usdc = (amount: bigint): SeaportItem => ({
    kind: 'ERC20',
    token: deployment.collateral,
    identifier: 0n,
    amount,
  })
  const shares = (amount: bigint): SeaportItem => ({
    kind: 'ERC1155',
    token: deployment.ctf,
    identifier: message.tokenId as bigint,
    amount,
  })
  const makerAmount = message.makerAmount as bigint
  const takerAmount = message.takerAmount as bigint
  const trade: SeaportTrade =
    message.side === SELL
      ? { offerer: maker, gives: [shares(makerAmount)], receives: [usdc(takerAmount)] }
      : { offerer: maker, gives: [usdc(makerAmount)], receives: [shares(takerAmount)] }
  return {
    kind: 'orders',
    account: getAddress(maker),
    orders: { orders: [trade], total: trade, bulk: false },
    ctf: deployment.ctf,
    warnings: message.side === SELL ? [] : overpaidBuyWarnings(makerAmount, takerAmount),
  }
}

/** One share in collateral units: what a winning share redeems for, and the most any share is ever worth. */
const ONE_SHARE = 10n ** BigInt(SHARE_DECIMALS)

/**
 * IMBALANCED_DOLLAR_VALUE for a BUY priced above 1 USDC a share: a share redeems for at most 1 USDC, so the order
 * loses money whichever outcome wins, and in proportion at any partial fill. A WARNING; CRITICAL once at most half of
 * what is paid can ever come back (2 USDC a share or more), the share the dollar value check calls no fair trade.
 */
function overpaidBuyWarnings(paid: bigint, shares: bigint): Warning[] {
  // No shares at all is a trade for nothing, which the order scan judges.
  if (shares === 0n || paid <= shares) return []
  const price = formatAmount((paid * ONE_SHARE) / shares, SHARE_DECIMALS)
  const usdc = (amount: bigint) => formatAmount(amount, SHARE_DECIMALS)
  return [
    makeWarning(
      'IMBALANCED_DOLLAR_VALUE',
      paid >= 2n * shares ? 'CRITICAL' : 'WARNING',
      `This Polymarket order buys shares at ${price} USDC each, but a share pays out at most 1 USDC whichever ` +
        `outcome wins: filled in full it pays ${usdc(paid)} USDC for ${usdc(shares)} shares, worth at most ` +
        `${usdc(shares)} USDC, and loses at least ${usdc(paid - shares)} USDC. Do not sign it.`,
      { pricePerShare: price, overpaid: (paid - shares).toString() },
    ),
  ]
}

/**
 * Shares as shares: the scan renders an ERC-1155 amount as a count of items, which for Polymarket's positions is in
 * millionths of a share ("Receive up to 25 Polymarket shares of outcome 7132…9043", not "25,000,000").
 */
export function polymarketShareChanges(changes: StateChange[], ctf: Address): StateChange[] {
  return changes.map((change) => {
    const { rawInfo } = change
    if (rawInfo.kind !== 'ERC1155_TRANSFER' || rawInfo.data.asset.address !== ctf.toLowerCase()) return change
    const before = BigInt(rawInfo.data.amount.before)
    const after = BigInt(rawInfo.data.amount.after)
    const verb = after < before ? 'Send' : 'Receive'
    const count = formatAmount(after < before ? before - after : after - before, SHARE_DECIMALS)
    const id = rawInfo.data.tokenId ?? ''
    const outcome = id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id
    return {
      ...change,
      humanReadableDiff: `${verb} ${BOUND_WORDS.upTo}${count} Polymarket shares of outcome ${outcome}`,
    }
  })
}
