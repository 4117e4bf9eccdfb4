/** Transaction scans (seed §2.1, §2.2, §2.4, §2.6, §2.7, §2.8.1, §7): validate, simulate once, explain. */
import { type Address, isAddressEqual } from 'viem'
import type { AggregatedError, ScanOptions, ScanOutcome, ScanTransactionsResponse, StateChange } from '../api/index.ts'
import { computeAssetChanges, listedToken, renderSafeChanges, renderStateChanges } from '../assets/index.ts'
import { assetPlan } from '../prices/index.ts'
import {
  actionFor,
  isWrappedNative,
  originWarnings,
  simulationWarnings,
  sortWarnings,
  uniqueWarnings,
} from '../risk/index.ts'
import { decodeExecTransaction, isSafeOwner } from '../safe/index.ts'
import {
  NO_TRAFFIC,
  type RpcStats,
  runSimulation,
  type SimulationInput,
  type SimulationResult,
} from '../simulation/index.ts'
import { internalError } from './internalError.ts'
import { perTransactionResults } from './perTransaction.ts'
import { simulationPrices } from './pricing.ts'
import { newRequestId } from './requestId.ts'
import { parseTransactionsRequest } from './transactionsRequest.ts'

/** Scans a transaction request: the response, or an error value (bad input names the field); never throws. */
export async function scanTransactions(
  request: unknown,
  options: ScanOptions,
): Promise<ScanOutcome<ScanTransactionsResponse>> {
  return (await scanTransactionsWithStats(request, options)).outcome
}

/** Like scanTransactions, plus how many sequential round trips and JSON-RPC requests the scan made (benchmarks). */
export async function scanTransactionsWithStats(
  request: unknown,
  options: ScanOptions,
): Promise<{ outcome: ScanOutcome<ScanTransactionsResponse>; stats: RpcStats }> {
  const parsed = parseTransactionsRequest(request)
  if (!parsed.ok) return { outcome: parsed, stats: NO_TRAFFIC }
  const { simulation: input, origin } = parsed.value
  try {
    const run = await runSimulation({ ...input, assets: assetPlan, sellProbe: worthSellProbe }, options)
    if (!run.ok) return { outcome: run, stats: NO_TRAFFIC }
    return { outcome: { ok: true, response: renderResponse(input, origin, run.result) }, stats: run.result.stats }
  } catch (error) {
    // Node failures are values by now (RPC_ERROR); anything thrown here is a bug in Preflight.
    return { outcome: { ok: false, error: internalError(error) }, stats: NO_TRAFFIC }
  }
}

/**
 * Which tokens a buy is worth a sell probe for on a chain: none that is listed, the wrapped native currency or priced
 * by a feed, so an honest swap of a known token costs no extra request. A token only a pool's TWAP prices is probed,
 * and its price then silences the verdict (risk/unsellableTokens.ts).
 */
function worthSellProbe(chainId: number): (token: Address) => boolean {
  const known = assetPlan(chainId)
  return (token) => !listedToken(chainId, token) && !isWrappedNative(chainId, token) && !known.isToken(token)
}

function renderResponse(input: SimulationInput, origin: string, result: SimulationResult): ScanTransactionsResponse {
  const changes = computeAssetChanges(result)
  const priceOf = simulationPrices(result)
  const effects = simulationWarnings(result, input.txs, changes, input.userAccount, priceOf)
  const warnings = sortWarnings(uniqueWarnings([...originWarnings(origin), ...effects]))
  return {
    requestId: newRequestId(),
    action: actionFor(warnings),
    warnings,
    simulationResults: {
      aggregated: {
        error: aggregatedError(input, result),
        expectedStateChanges: withSafeChanges(
          renderSafeChanges(result.safeChanges),
          renderStateChanges(changes, result.chainId, result.reads, priceOf),
        ),
        userAccount: input.userAccount.toLowerCase() as Address,
      },
      perTransaction: perTransactionResults(result, input.txs),
    },
  }
}

/** Each account's changes, a Safe's configuration changes first: who controls it comes before what it holds. */
function withSafeChanges(
  safeChanges: Record<Address, StateChange[]>,
  assetChanges: Record<Address, StateChange[]>,
): Record<Address, StateChange[]> {
  const merged: Record<Address, StateChange[]> = { ...safeChanges }
  for (const [account, list] of Object.entries(assetChanges) as [Address, StateChange[]][]) {
    merged[account] = [...(merged[account] ?? []), ...list]
  }
  return merged
}

/** Why the simulation as a whole cannot be trusted: the node refused it, or the multisig preset cannot apply. */
function aggregatedError(input: SimulationInput, result: SimulationResult): AggregatedError | null {
  if (result.failure) {
    return {
      kind: 'SIMULATION_FAILED',
      // The window shows this sentence, so it carries why: the node's refusal says what to change.
      humanReadableError: `The transactions could not be simulated: ${result.failure}`,
      reason: result.failure,
    }
  }
  // The preset writes Safe owner slots into the wallet: on anything but a Safe that corrupts the simulated state.
  for (const wallet of input.multisigWallets) {
    if (result.safes.get(wallet.toLowerCase())) continue
    return {
      kind: 'SIMULATION_FAILED',
      humanReadableError: 'The multisig preset does not apply: the wallet is not a Safe.',
      reason: `${wallet.toLowerCase()} does not answer as a Safe multisig wallet (no owners or threshold), so its signatures cannot be simulated away.`,
    }
  }
  for (const tx of input.txs) {
    const wallet = input.multisigWallets.find((address) => tx.to && isAddressEqual(address, tx.to))
    const safe = wallet && result.safes.get(wallet.toLowerCase())
    if (!wallet || !safe || !decodeExecTransaction(tx.data)) continue
    if (!isSafeOwner(safe, tx.from)) {
      return {
        kind: 'SIMULATION_FAILED',
        humanReadableError: `The sender is not an owner of this Safe, so it cannot sign or execute the transaction.`,
        reason: `${tx.from.toLowerCase()} is not an owner of the Safe ${wallet.toLowerCase()} (owners: ${safe.owners
          .map((owner) => owner.toLowerCase())
          .join(', ')}; ${safe.threshold} confirmations required).`,
      }
    }
  }
  return null
}
