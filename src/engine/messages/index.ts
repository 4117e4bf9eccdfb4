/**
 * # messages — what a message asks its signer to grant
 *
 * Typed data and raw messages, recognised by their shape rather than their names, so a renamed type with the same
 * fields is still caught.
 *
 * - `typedData.ts`: EIP-712 payloads validated field by field, normalised and hashed.
 * - `permits.ts`: permits are analysed here: EIP-2612, DAI-style, Permit2 and ERC-721 permits, what they grant and
 *   the warnings that grant deserves.
 * - `permit2Orders.ts`: what a Permit2 signature transfer's witness (a UniswapX order) pays the signer.
 * - `seaport.ts`: Seaport orders and bulk orders: what the user gives and receives (collection offers included), and
 *   whether any order is a trade for nothing.
 * - `looksRareOrders.ts`: LooksRare v2 maker asks and bids and their bulk trees: the NFTs and the price.
 * - `polymarketOrders.ts`: Polymarket's CTF Exchange orders: outcome shares for USDC, with the exchange's contracts.
 * - `swapOrders.ts`: CoW Protocol, 0x and 1inch swap orders: what the maker gives, what it is paid and to whom.
 * - `unvaluedPayments.ts`: orders that give something of value and pay the signer only in what Preflight cannot value
 *   (a token it has no price or list entry for, an NFT), the way scammers pay in tokens they minted.
 * - `bounds.ts`: how an order's amounts bind ("at least", "up to"), in words the window reads back.
 * - `blur.ts`: Blur's exchange orders (v1 and v2) and bulk Root signatures, opened where the request gives the tree.
 * - `safeTx.ts`: Safe transaction messages: the execTransaction to simulate under the preset, the hashes a signer
 *   compares, and what is off about the request (signer not an owner, another chain, a used nonce).
 * - `safeChecks.ts`: what every Safe signature request is checked for: the signer an owner, this chain, the Safe's hash.
 * - `safeMessage.ts`: Safe messages (EIP-1271): what the Safe would sign in its own name, usually a hash that hides
 *   what it stands for.
 * - `rawMessage.ts`: personal_sign and eth_sign text, and blind signing of a bare 32-byte hash.
 * - `signIn.ts`: Sign-In with Ethereum messages, for the site asking or another one.
 * - `depositUpdates.ts`: Across's signed redirection of a bridge deposit already made.
 * - `deltaOrders.ts`: Velora's Delta orders, read as swap orders: what they sell, what they buy and whom they pay.
 * - `farcasterTransfers.ts`: Farcaster account transfers, which hand the account (its fid) to another address.
 * - `hyperliquidSends.ts`: Hyperliquid's signed sends and withdrawals, which its own chain executes: where they pay.
 * - `hyperliquidControl.ts`: Hyperliquid's agent approvals and multi-sig conversions: who then controls the account.
 * - `signedDeposits.ts`: Across deposits signed for its periphery (gasless bridging), and where they send the funds.
 * - `userOperations.ts`: ERC-4337 user operations signed as typed data, run as the EntryPoint's calls to the account.
 * - `readability.ts`: addresses written in a form other than 0x-hex, text that reorders its own display, payloads that
 *   wallets sign differently, and messages the scan cannot read.
 */

export { type BlurSignature, findBlurSignature, isBlurSite } from './blur.ts'
export { BOUND_WORDS, type Bound, boundOf } from './bounds.ts'
export { findDeltaOrder } from './deltaOrders.ts'
export { depositUpdateWarnings, findDepositUpdate } from './depositUpdates.ts'
export { type FarcasterTransfer, farcasterTransferWarnings, findFarcasterTransfer } from './farcasterTransfers.ts'
export {
  findHyperliquidControl,
  type HyperliquidControl,
  hyperliquidControlWarnings,
} from './hyperliquidControl.ts'
export { findHyperliquidSend, type HyperliquidSend, hyperliquidSendWarnings } from './hyperliquidSends.ts'
export { findLooksRareOrders, type LooksRareOrders } from './looksRareOrders.ts'
export {
  isNativeOutput,
  type WitnessOutput,
  type WitnessPayment,
  witnessOutputs,
  witnessPayments,
} from './permit2Orders.ts'
export {
  authorizedTransfer,
  findNftPermit,
  findTokenPermits,
  type NftPermit,
  nftPermitApproval,
  type PermitContext,
  permitReads,
  permitStateChange,
  permitWarnings,
  type TokenPermit,
} from './permits.ts'
export { findPolymarketOrder, type PolymarketOrder, polymarketShareChanges } from './polymarketOrders.ts'
export { decodeRawMessage, rawMessageHex, rawMessageWarnings, readRawMessage } from './rawMessage.ts'
export {
  reorderedTextWarnings,
  unreadableWarning,
  unusualAddressWarnings,
  walletDisagreementWarnings,
} from './readability.ts'
export { safeSignerWarnings } from './safeChecks.ts'
export { findSafeMessage, type SafeMessage, safeMessageContext, safeMessageWarnings } from './safeMessage.ts'
export {
  findSafeTransaction,
  multisigWarnings,
  type SafeTx,
  type SafeTxMessage,
  safeSimulationInput,
} from './safeTx.ts'
export {
  findSeaportOrders,
  hasUnsupportedItems,
  isTradeForNothing,
  type SeaportItem,
  type SeaportOrders,
  type SeaportTrade,
  seaportCriteriaChanges,
  seaportReads,
  seaportTransfers,
} from './seaport.ts'
export { findSignedCall, type SignedCall } from './signedCalls.ts'
export { findSignedDeposits, type SignedDeposit, signedDepositWarnings } from './signedDeposits.ts'
export { readSignIn, signInOf, signInWarnings } from './signIn.ts'
export {
  findSwapOrder,
  proceedsElsewhereWarning,
  type SwapOrder,
  swapOrderTrades,
  swapOrderWarnings,
} from './swapOrders.ts'
export { addressesInTypedData, decodeTypedMessage, parseTypedData, type TypedData } from './typedData.ts'
export { type AssetKnowledge, unvaluedPaymentWarnings } from './unvaluedPayments.ts'
export { findUserOperation, initCall, type UserOperation } from './userOperations.ts'
