/**
 * Orders paid in what Preflight cannot value. A phishing listing or swap need not pay next to nothing: it can pay
 * "1,000,000 APE2", a token the attacker deployed with code, decimals and a name of its own, or an NFT from a
 * collection they minted. Preflight values the native currency, tokens whose dollar price it read and tokens on the
 * bundled list (which is how the wrapped native currency is known: priced by its feed where Preflight reads prices,
 * listed on the chains the list covers); when an order gives something of value and every payment to the signer is
 * none of these, the signer is told (WARNING: unknown is not worthless, so never a BLOCK on this alone).
 *
 * An NFT the signer receives for fungible tokens is what they buy (a collection offer), not a payment: Preflight prices
 * no NFT, and judging every purchase would warn on every offer. Tokens bought with priced tokens (a CoW order buying a
 * memecoin) are judged: the order's data cannot tell an honest buy from a phishing swap that pays in a token its
 * attacker minted (and fills with their own opposite order), and exempting CoW's "buy" kind would exempt any attacker
 * who picks it. The warning says so in words fit for the honest buyer: check the token's address. A token with a
 * deep enough pool has a price and raises nothing.
 */
import { type Address, getAddress } from 'viem'
import type { Warning } from '../api/index.ts'
import {
  erc20Asset,
  erc721Asset,
  erc1155Asset,
  formatAmount,
  listedToken,
  type PriceOf,
  shortAddress,
} from '../assets/index.ts'
import { isWrappedNative, makeWarning } from '../risk/index.ts'
import type { TokenMetadata } from '../simulation/index.ts'
import { mergeItems, type SeaportItem, type SeaportTrade } from './seaport.ts'

/** What the scan knows of assets on its chain: the dollar prices it read and each token's metadata. */
export type AssetKnowledge = {
  chainId: number
  priceOf: PriceOf
  metadataOf: (token: Address) => TokenMetadata
}

/**
 * A WARNING when any of `trades` gives something of value (the native currency, a priced or listed token, any NFT)
 * and pays the signer only in assets Preflight cannot value; `orders` says which orders in words ("This order",
 * "2 of the 3 orders in this bulk signature"). TRADE_FOR_UNVERIFIED_NFT when all of it is NFTs, else
 * SUSPECTED_MALICIOUS, as for a counterfeit.
 */
export function unvaluedPaymentWarnings(
  trades: SeaportTrade[],
  known: AssetKnowledge,
  orders: (count: number) => string,
): Warning[] {
  const judged = trades.map((trade) => ({ trade, unvalued: unvaluedPayments(trade, known) }))
  const flagged = judged.filter((entry) => entry.unvalued.length > 0)
  if (flagged.length === 0) return []
  const paid = mergeItems(flagged.flatMap((entry) => entry.unvalued))
  const sellsNft = flagged.some((entry) => entry.trade.gives.some(isNft))
  const subject = `${orders(flagged.length)} ${flagged.length === 1 ? 'pays' : 'pay'} you only in`
  const names = paid.map((item) => itemName(item, known)).join(', ')
  const tokens = [...new Set(paid.map((item) => item.token.toLowerCase()))]
  if (paid.every(isNft)) {
    return [
      makeWarning(
        'TRADE_FOR_UNVERIFIED_NFT',
        'WARNING',
        `${subject} ${names}. Preflight cannot verify the collection or establish this payment is worth anything. ` +
          'Scammers pay in NFTs they minted themselves. Do not sign unless you know the collection and have checked ' +
          'its address.',
        { unvalued: tokens },
      ),
    ]
  }
  const advice = sellsNft
    ? 'Do not sign unless you know the token you are paid in and have checked its address.'
    : 'If you are buying this token on purpose, check that its address is the one you meant.'
  return [
    makeWarning(
      'SUSPECTED_MALICIOUS',
      'WARNING',
      `${subject} ${names}. Preflight cannot establish this payment is worth anything: it has no price Preflight ` +
        'could read and is on no token list. Scammers pay in tokens they minted themselves, under any name and in ' +
        `any amount. ${advice}`,
      { unvalued: tokens },
    ),
  ]
}

/** The payments of a trade that gives something of value when none of its payments can be valued; else none. */
function unvaluedPayments(trade: SeaportTrade, known: AssetKnowledge): SeaportItem[] {
  if (!trade.gives.some((item) => isNft(item) || isValued(item, known))) return []
  const sellsNft = trade.gives.some(isNft)
  // Bought with fungible tokens, an NFT is the purchase: it values nothing and flags nothing.
  const unvalued = trade.receives.filter((item) => (isNft(item) ? sellsNft : !isValued(item, known)))
  return unvalued.length === trade.receives.length ? unvalued : []
}

/** The native currency or its wrapped token, a token with a dollar price read, or a token on the bundled list. */
function isValued(item: SeaportItem, known: AssetKnowledge): boolean {
  if (item.kind === 'NATIVE') return true
  if (item.kind !== 'ERC20') return false
  const { chainId } = known
  return (
    known.priceOf(item.token) !== null ||
    listedToken(chainId, item.token) !== null ||
    isWrappedNative(chainId, item.token)
  )
}

function isNft(item: SeaportItem): boolean {
  return item.kind !== 'NATIVE' && item.kind !== 'ERC20'
}

/** "1,000,000 APE2 (0x5fbd…0aa3)", "Fake Apes #7 (0x…)", "any 2 Fake Apes (0x…)": as the state changes name them. */
function itemName(item: SeaportItem, known: AssetKnowledge): string {
  const token = getAddress(item.token)
  const metadata = known.metadataOf(token)
  const where = `(${shortAddress(token)})`
  if (item.kind === 'ERC20') {
    const asset = erc20Asset(known.chainId, token, metadata)
    return `${formatAmount(item.amount, asset.decimals)} ${asset.symbol} ${where}`
  }
  const erc1155 = item.kind === 'ERC1155' || item.kind === 'ERC1155_WITH_CRITERIA'
  const collection = erc1155 ? erc1155Asset(token, metadata).name : erc721Asset(token, metadata).name
  const count = formatAmount(item.amount, 0)
  if (item.kind === 'ERC721_WITH_CRITERIA' || item.kind === 'ERC1155_WITH_CRITERIA') {
    return `any ${count} ${collection} ${where}`
  }
  return `${erc1155 ? `${count} ` : ''}${collection} #${item.identifier} ${where}`
}
