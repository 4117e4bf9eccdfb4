/**
 * # assets — what a simulation did to assets, as state changes
 *
 * From the simulation's movements and approvals to seed §2.6 state changes with before/after amounts and plain-English
 * diffs ("Send 1 ETH", "Approve 0xab…cd to spend unlimited USDC").
 *
 * - `assetChanges.ts`: nets movements and approvals into per-account changes (the internal model).
 * - `balanceReconciliation.ts`: what was traced against the balances read before and after (reads decide; native
 *   currency that left the trace is an untraced outflow).
 * - `stateChanges.ts`: renders them as state changes keyed by account.
 * - `assetObjects.ts`: the asset objects inside them (native currency, ERC-20, ERC-721, ERC-1155), priced when the
 *   scan read a price (prices/).
 * - `nftMetadata.ts`: an NFT's token URI as the contract reported it in the simulation, never fetched.
 * - `safeChanges.ts`: a Safe's configuration changes (singleton, owners, threshold, modules, guards, handler) as
 *   SAFE_CONFIGURATION_CHANGE state changes in the Safe's entry.
 * - `tokenList.ts`: the bundled Uniswap token list, which decides `verified` and which symbols a counterfeit copies.
 * - `format.ts`: amounts and addresses as the diffs and warnings write them; isUnlimited, the one notion of an
 *   unlimited allowance.
 */
export {
  type ApprovalChange,
  type AssetChange,
  computeAssetChanges,
  grantedAmount,
  type TransferChange,
} from './assetChanges.ts'
export { erc20Asset, erc721Asset, erc1155Asset, nativeAsset } from './assetObjects.ts'
export { assetKey, type BalanceNet, balanceNets, untracedNativeOutflow } from './balanceReconciliation.ts'
export { canTakeNow, formatAmount, isUnlimited, shortAddress } from './format.ts'
export {
  controllerLabel,
  describeSafeChange,
  renderSafeChange,
  renderSafeChanges,
  SAFE_FIELD_NAMES,
} from './safeChanges.ts'
export { addressInfo, isManagerChange, type PriceOf, renderStateChanges } from './stateChanges.ts'
export { listedToken, listedTokenWithSymbol } from './tokenList.ts'
