/**
 * # simulation — the one eth_simulateV1 call
 *
 * A scan is one call in three parts (reads before, the transactions, the same reads after), so one request sees one
 * consistent state; the reads before run in the transactions' block, ahead of them, when they fit beside them. A
 * second call happens only when the logs name accounts or tokens the calldata did not.
 *
 * - `runSimulation.ts`: builds the call (state overrides, the Safe preset, the reader contract) and returns the
 *   engine's internal model of what happened (SimulationResult).
 * - `readPlan.ts`: which reads a scan needs, predicted from calldata, then required by the events; an AssetPlan from
 *   the scan adds known tokens, their pools and their price reads.
 * - `reads.ts`: the reads themselves (balances, allowances, token metadata, NFT URIs, a Safe's owners), their keys,
 *   and the reader contract injected for native balances, code sizes and every read of another contract (made
 *   through it as a static call, so no read can write state the transactions then see).
 * - `assetEvents.ts`: asset movements and approvals read out of the simulated logs.
 * - `controlEvents.ts`: changes of who controls a contract (owner, role, proxy code or admin) read out of the logs.
 * - `lendingEvents.ts`: lending positions handed to another address (Aave credit delegation, Compound III managers).
 * - `interestEvents.ts`: interest an Aave token's events count again beside its transfers (`balanceIncrease`).
 * - `poolDepthRead.ts`: what a Uniswap V3 pool pays for a token within 5% of its price (PoolDepth.sol), which decides
 *   whether its TWAP prices the token.
 * - `sellProbe.ts`: whether a token the user buys sells back to its pool (SellProbe.sol), in a call of its own that
 *   travels beside the second call, or alone.
 * - `tokenMetadata.ts`: token name, symbol and decimals from the reads, cached per chain.
 * - `tokenText.ts`: a token's name and symbol cleaned of hidden, reordering and look-alike characters, what they held,
 *   and the skeleton a symbol is compared by.
 * - `accountCode.ts`: an account's code in full, where a delegation must be told from no code (user operations).
 * - `accountNonces.ts`: how many transactions an account has had mined, and has waiting, for a nonce a site fixed.
 * - `rpc.ts`, `chain.ts`, `simulateResponse.ts`: the channel to a node that gathers requests into batches (a scan's
 *   own, or one a server's scans share) with the per-scan client that counts round trips, which chain a node serves,
 *   and the check that the node's answer has the shape the engine reads.
 */

export { readAccountCode } from './accountCode.ts'
export { type AccountNonces, readAccountNonces } from './accountNonces.ts'
export { type AssetRef, type Movement, netByAccount, type SimulatedLog } from './assetEvents.ts'
export { chainInWords, knownChainId, nativeCurrency } from './chain.ts'
export { type ControlEvent, controlEvents, mayGiveAway, newController } from './controlEvents.ts'
export type { EnvironmentProbe } from './environmentProbe.ts'
export { accrualKey, accruedInterest } from './interestEvents.ts'
export { type CreditDelegation, isCometManagerChange, mayBeCometApproval } from './lendingEvents.ts'
export { type PoolDepth, poolDepthRead } from './poolDepthRead.ts'
export type { AssetPlan, MetadataNeeded } from './readPlan.ts'
export {
  codeSizeBefore,
  codeSizeRead,
  erc20BalanceRead,
  erc1155BalanceRead,
  erc1155UriRead,
  nativeBalanceRead,
  prepareRead,
  READER_ADDRESS,
  type Read,
  type ReadFunction,
  type ReadResults,
  readKeys,
  staticRead,
  tokenMetadataReads,
  tokenUriRead,
  totalSupplyRead,
} from './reads.ts'
export { addStats, createRpcChannel, NO_TRAFFIC, type RpcChannelOptions, type RpcStats } from './rpc.ts'
export {
  type RunOutcome,
  runSimulation,
  type SimulationInput,
  type SimulationResult,
  type SimulationTx,
  type TxFees,
  type TxOutcome,
  toWord,
} from './runSimulation.ts'
export type { SellProbe } from './sellProbe.ts'
export { cachedTokenMetadata, type TokenMetadata, tokenMetadata } from './tokenMetadata.ts'
export { type TokenDisguise, textSkeleton } from './tokenText.ts'
