/**
 * Warnings derived from what a simulation did: risky approvals, known and suspected theft, tokens bought that cannot
 * be sold back, changes to who controls a Safe or a contract, odd gas and fees, long bundles.
 */
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem'
import { addressesInArguments, decodeKnownFunction } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import {
  type AssetChange,
  balanceNets,
  formatAmount,
  grantedAmount,
  isUnlimited,
  type PriceOf,
  shortAddress,
  type TransferChange,
  untracedNativeOutflow,
} from '../assets/index.ts'
import { type Call, expandCalls } from '../safe/index.ts'
import {
  type AssetRef,
  codeSizeBefore,
  isCometManagerChange,
  type Movement,
  nativeCurrency,
  readKeys,
  type SimulationResult,
  type SimulationTx,
  type TokenMetadata,
  tokenMetadata,
} from '../simulation/index.ts'
import { assetName, briefNames, gainItem } from './assetNames.ts'
import { balanceDisagreementWarnings } from './balanceDisagreements.ts'
import { maliciousAddressWarnings } from './blocklist.ts'
import { bridgeDeposits, bridgeDepositWarnings } from './bridgeDeposits.ts'
import { contractControlWarnings } from './contractControl.ts'
import { counterfeitWarnings } from './counterfeits.ts'
import { fakePayback, isKnownContract, type PaybackContext } from './fakePaybacks.ts'
import { feeWarnings } from './fees.ts'
import { lendingDelegationWarnings } from './lendingDelegation.ts'
import { opStackDeposits, opStackDepositWarnings, opStackEscrows } from './opStackDeposits.ts'
import { preSignatureWarnings } from './orderPreSignatures.ts'
import { isKnownSpender, isWrappedNative } from './protocols.ts'
import { safeControlWarnings } from './safeControl.ts'
import { handlerSettingWarnings } from './safeHandlerSettings.ts'
import { safeRefundWarnings } from './safeRefund.ts'
import { hashSignatureWarnings } from './safeSignatures.ts'
import { simulationEvasionWarnings, stateWritingReadWarnings } from './simulationEvasion.ts'
import { spendingLimitWarnings } from './spendingLimits.ts'
import {
  misdirectedPayouts,
  recordersFor,
  swapFlows,
  swapProceedsWarnings,
  tradeCounterparties,
} from './swapProceeds.ts'
import { unsellableTokenWarnings } from './unsellableTokens.ts'
import { valueWarnings } from './valueWarnings.ts'
import { makeWarning } from './warnings.ts'

/** More transactions than this in one request is unusual for a person to approve knowingly. */
const MAX_USUAL_TRANSACTIONS = 10
/** Gas above this (a third of a 30M block) is far beyond transfers, swaps and mints: gas-token minting or griefing. */
const UNUSUAL_GAS_USED = 10_000_000n

/** Every warning the simulated effects justify, unsorted; `priceOf` values what the user sends and gets back. */
export function simulationWarnings(
  result: SimulationResult,
  txs: SimulationTx[],
  changes: AssetChange[],
  userAccount: Address,
  priceOf: PriceOf = () => null,
): Warning[] {
  const metadataOf = (token: Address) => tokenMetadata(result.chainId, token, result.reads)
  const calls = txs.flatMap((tx) => expandCalls({ ...tx, depth: 0 }))
  const logs = result.outcomes.flatMap((outcome) => outcome.logs)
  const isUsers = usersSide(result, txs, userAccount)
  // A contract that records what it received in the user's name (a farm, a vault, a bridge) holds it for them.
  const recorders = recordersFor(logs, isUsers)
  const holdsForUser = (address: Address) => isUsers(address) || recorders.has(address.toLowerCase())
  const flows = swapFlows(result.movements, (token) => isWrappedNative(result.chainId, token))
  const payouts = misdirectedPayouts(flows, holdsForUser)
  const deposits = opStackDeposits(logs)
  // Pools that pay a swap's output (to the user, or elsewhere, which its own warning says), and bridges that keep a
  // deposit, are no hidden wallets.
  const accounted = [
    ...payouts.flatMap((payout) => payout.payers),
    ...tradeCounterparties(flows, holdsForUser),
    ...opStackEscrows(deposits, isUsers),
  ]
  const nets = balanceNets(result)
  return [
    ...knownMaliciousWarnings(result.chainId, calls, changes),
    ...drainWarnings(changes, userAccount, metadataOf, accounted, untracedNativeOutflow(nets), {
      chainId: result.chainId,
      calls,
      movements: result.movements,
      priceOf,
    }),
    ...balanceDisagreementWarnings(nets, userAccount, metadataOf, result.chainId),
    ...counterfeitWarnings(result.chainId, changes, userAccount, metadataOf),
    ...valueWarnings(result.chainId, changes, userAccount, priceOf, metadataOf),
    ...unsellableTokenWarnings(result.sellProbes, metadataOf, priceOf),
    ...simulationEvasionWarnings(
      result.outcomes,
      result.movements,
      result.environmentProbe,
      isUsers,
      result.chainId,
      metadataOf,
    ),
    ...stateWritingReadWarnings(result.stateWritingReads, metadataOf),
    ...approvalWarnings(result, changes, metadataOf),
    ...lendingDelegationWarnings(result, changes, userAccount, metadataOf),
    ...bridgeDepositWarnings(bridgeDeposits(logs), result.movements, userAccount, result.chainId, metadataOf),
    ...swapProceedsWarnings(payouts, result.chainId, metadataOf),
    ...opStackDepositWarnings(deposits, result.movements, isUsers, result.chainId, metadataOf),
    ...safeControlWarnings(calls, result.safeChanges, result.safes),
    ...spendingLimitWarnings(calls, (account) => result.safes.has(account.toLowerCase()), result.chainId, metadataOf),
    ...handlerSettingWarnings(calls, logs),
    ...safeRefundWarnings(result, txs, metadataOf),
    ...contractControlWarnings(result, calls, userAccount),
    ...hashSignatureWarnings(calls, logs, result.chainId),
    ...preSignatureWarnings(calls, logs, (owner) => Boolean(result.safes.get(owner.toLowerCase()))),
    ...ownContractWarnings(result, isUsers, metadataOf),
    ...gasWarnings(result),
    ...feeWarnings(result, txs),
    ...(txs.length > MAX_USUAL_TRANSACTIONS
      ? [
          makeWarning(
            'TOO_MANY_TRANSACTIONS',
            'WARNING',
            `This request bundles ${txs.length} transactions. Review each one: long bundles can hide a harmful step.`,
          ),
        ]
      : []),
  ]
}

/**
 * Whether an address is the user's: the user, an account the request sends from, or a Safe one of those executes (the
 * user swaps on its behalf). A Safe some contract executes along the way is not: anyone can make one run.
 */
function usersSide(result: SimulationResult, txs: SimulationTx[], userAccount: Address): (address: Address) => boolean {
  const senders = [userAccount, ...txs.map((tx) => tx.from)]
  const safes = txs.flatMap((tx) => (tx.to && result.safes.get(tx.to.toLowerCase()) ? [tx.to] : []))
  const mine = new Set([...senders, ...safes].map((address) => address.toLowerCase()))
  return (address) => mine.has(address.toLowerCase())
}

function knownMaliciousWarnings(chainId: number, calls: Call[], changes: AssetChange[]): Warning[] {
  const parties = new Set<Address>()
  for (const call of calls) if (call.to) parties.add(getAddress(call.to))
  for (const change of changes) {
    if (change.type === 'transfer' && change.counterparty) parties.add(change.counterparty)
    if (change.type === 'transfer') parties.add(change.account)
    if (change.type === 'approval') parties.add(change.spender)
  }
  return maliciousAddressWarnings(chainId, parties, 'This transaction')
}

/**
 * The drain pattern: the user only loses assets (receives nothing back, or only tokens Preflight cannot value that
 * cost their giver nothing: minted on the spot, or handed out by a contract paid nothing: fakePaybacks.ts), and what
 * they lose ends up with an address that none of the transactions names — not a called contract, not a sender, not an
 * argument. Honest payments name their recipient (transfer(to), a Safe transaction's `to`, a router's `recipient`);
 * swaps return something; a drainer forwards to a hidden wallet. WARNING, not CRITICAL: fee splitters can look the
 * same. `accounted` are addresses another rule explains (a pool paying a swap's output elsewhere, a bridge keeping a
 * deposit): not hidden wallets. `untraced` is native currency that left the accounts read without a traced transfer
 * (a SELFDESTRUCT forwarding it): its recipient is hidden even from the scan, so a native loss with such an outflow is
 * the same pattern.
 */
function drainWarnings(
  changes: AssetChange[],
  userAccount: Address,
  metadataOf: (token: Address) => TokenMetadata,
  accounted: Address[],
  untraced: bigint,
  payback: PaybackContext,
): Warning[] {
  const { chainId, calls } = payback
  const transfers = changes.filter((change): change is TransferChange => change.type === 'transfer')
  const mine = transfers.filter((change) => isAddressEqual(change.account, userAccount))
  const losses = mine.filter((change) => change.after < change.before)
  const gains = mine.filter((change) => change.after > change.before)
  const fake = gains.length > 0 ? fakePayback(transfers, userAccount, payback) : null
  if (losses.length === 0 || (gains.length > 0 && fake === null)) return []
  const named = new Set<string>([userAccount.toLowerCase(), zeroAddress, ...accounted.map((a) => a.toLowerCase())])
  for (const call of calls) {
    // A contract's execute(hidden, …) names nothing: only the user's own account's calls are the user's.
    if (call.byAccount && !isAddressEqual(call.from, userAccount)) continue
    named.add(call.from.toLowerCase())
    if (call.to) named.add(call.to.toLowerCase())
    const decoded = decodeKnownFunction(call.data)
    for (const address of decoded ? addressesInArguments(decoded) : []) named.add(address.toLowerCase())
  }
  const paidBack = briefNames(gains.map((gain) => gainItem(chainId, gain, metadataOf)))
  const back =
    gains.length === 0
      ? 'you get nothing back'
      : fake === 'minted'
        ? `all you get back is ${paidBack}, minted for you in this transaction, which Preflight cannot value ` +
          '(drainers mint such tokens to look like a payment)'
        : `all you get back is ${paidBack}, which Preflight cannot value, from an address paid nothing for ` +
          'it (drainers hand out such tokens to look like a payment)'
  const warnings: Warning[] = []
  const suspects = suspectedContracts(calls, userAccount, payback.movements, chainId).map((contract) => ({
    name: shortAddress(contract),
    collection: null,
  }))
  const trust = `do not continue unless you trust ${suspects.length > 0 ? briefNames(suspects) : 'the contract you are calling'}.`
  for (const loss of losses) {
    const takers = transfers.filter(
      (change) =>
        sameAsset(change.asset, loss.asset) && change.after > change.before && !named.has(change.account.toLowerCase()),
    )
    if (loss.asset.standard === 'NATIVE' && untraced > 0n) {
      const { symbol, decimals } = nativeCurrency(chainId)
      warnings.push(
        makeWarning(
          'SUSPECTED_MALICIOUS',
          'WARNING',
          `Your ${symbol} would go on to an address Preflight cannot see: ${formatAmount(untraced, decimals)} ` +
            `${symbol} leaves the accounts it checked without a transfer it can trace (as SELFDESTRUCT forwards it), ` +
            `and ${back}. Wallet drainers hide where funds go this way: ${trust}`,
        ),
      )
    }
    for (const taker of takers) {
      warnings.push(
        makeWarning(
          'SUSPECTED_MALICIOUS',
          'WARNING',
          `Your ${assetName(chainId, loss.asset, metadataOf)} would end up with ${shortAddress(taker.account)}, an address ` +
            `this transaction never names, and ${back}. Wallet drainers work this way: ${trust}`,
        ),
      )
    }
  }
  return warnings
}

/**
 * The contracts a drain warning asks the user to trust: those the user's own calls reach (a transaction's `to`, or a
 * call their own account makes in a batch: a smart account's executeBatch, a Safe's MultiSend), never their own
 * account (an EIP-7702 account runs its batch by calling itself); of those, the ones no list knows when there are any
 * (a listed router or vault batched beside the drainer is not the one to doubt), and of those, the ones the user pays
 * when there are any.
 */
function suspectedContracts(calls: Call[], userAccount: Address, movements: Movement[], chainId: number): Address[] {
  const reached = new Map<string, Address>()
  for (const call of calls) {
    const users = call.depth === 0 || isAddressEqual(call.from, userAccount)
    if (users && call.to && !isAddressEqual(call.to, userAccount)) reached.set(call.to.toLowerCase(), call.to)
  }
  const unknown = [...reached.values()].filter((contract) => !isKnownContract(chainId, contract))
  const suspects = unknown.length > 0 ? unknown : [...reached.values()]
  const payees = new Set(
    movements.filter((move) => isAddressEqual(move.from, userAccount)).map((move) => move.to.toLowerCase()),
  )
  const paid = suspects.filter((contract) => payees.has(contract.toLowerCase()))
  return paid.length > 0 ? paid : suspects
}

/**
 * Approvals judged by what the spender is: a person (APPROVAL_TO_EOA); a contract that takes approvals for a living
 * (a marketplace's exchange, conduit or delegate, a router: nothing to say); any other contract given an unlimited
 * ERC-20 allowance or all of a collection (a warning). Several approvals at once are BULK_APPROVALS_REQUEST.
 */
function approvalWarnings(
  result: SimulationResult,
  changes: AssetChange[],
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const warnings: Warning[] = []
  const granted = changes.filter((change) => change.type === 'approval' && grantedAmount(change) > 0n)
  for (const change of granted) {
    if (change.type !== 'approval') continue
    // A Compound III market's approval makes a manager of the whole account: lendingDelegation.ts says so instead.
    if (isCometManagerChange(result.reads, change.token, change.owner, change.spender, grantedAmount(change))) continue
    const name = metadataOf(change.token).symbol ?? metadataOf(change.token).name ?? shortAddress(change.token)
    const who = shortAddress(change.spender)
    const isPerson = codeSizeBefore(result.reads, change.spender) === 0n
    if (isPerson) {
      warnings.push(
        makeWarning(
          'APPROVAL_TO_EOA',
          'WARNING',
          `You are allowing ${who}, a personal account rather than a contract, to take your ` +
            `${name}. Apps spend approved tokens through contracts; an approval to a person is usually a scam.`,
        ),
      )
    }
    if (isKnownSpender(result.chainId, change.spender)) continue
    if (change.standard === 'FOR_ALL') {
      warnings.push(
        makeWarning(
          'UNLIMITED_ALLOWANCE_TO_NFTS',
          'WARNING',
          `You are allowing ${who}, which is no known marketplace, to transfer all your ${name} NFTs, now and in ` +
            'the future, without asking you again.',
        ),
      )
    } else if (change.standard === 'ERC20' && !isPerson && isUnlimited(grantedAmount(change))) {
      warnings.push(
        makeWarning(
          'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
          'WARNING',
          `You are allowing ${who}, a contract that is no known exchange or router, to take all of your ${name}, ` +
            'now and in the future, without asking you again. Only continue if you trust it.',
        ),
      )
    }
  }
  if (granted.length > 1) {
    warnings.push(
      makeWarning(
        'BULK_APPROVALS_REQUEST',
        'WARNING',
        `This request grants ${granted.length} approvals at once. Drainers bundle approvals so that one click hands ` +
          'over everything: check each one.',
      ),
    )
  }
  return warnings
}

/**
 * Tokens the user sends to the token's own contract that stay there. A contract that burns or forwards what it
 * receives in the same transaction (a Uniswap V2 pair taking back its LP tokens to burn them) has lost the user
 * nothing: only what the token contract ends up holding of itself is a loss, by its events and, where it was read, by
 * its own balance (a Compound V2 market logs a redemption as a transfer to itself and burns it). And only the user's own sending: a
 * fee-on-transfer token that keeps its tax in its own contract takes a share of every buy and sell, which is the
 * token's rule, not the user's mistake; the mistake sends the contract most of what the user's side (usersSide)
 * sends.
 */
function ownContractWarnings(
  result: SimulationResult,
  isUsers: (address: Address) => boolean,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const flows = new Map<string, { token: Address; kept: bigint; sentByUser: bigint; toContractByUser: bigint }>()
  for (const { asset, from, to, amount } of result.movements) {
    if (asset.standard !== 'ERC20') continue
    const key = asset.token.toLowerCase()
    const flow = flows.get(key) ?? { token: asset.token, kept: 0n, sentByUser: 0n, toContractByUser: 0n }
    if (isAddressEqual(to, asset.token)) flow.kept += amount
    if (isAddressEqual(from, asset.token)) flow.kept -= amount
    if (isUsers(from)) {
      flow.sentByUser += amount
      if (isAddressEqual(to, asset.token)) flow.toContractByUser += amount
    }
    flows.set(key, flow)
  }
  // Kept by the events, and by the contract's own balance when it was read: Compound's markets log a redemption as a
  // transfer to the market, whose balance does not move (the tokens are burned).
  const keeps = (token: Address) => {
    const key = readKeys.erc20Balance(token, token)
    const [before, after] = [result.reads.before.get(key), result.reads.after.get(key)]
    return typeof before !== 'bigint' || typeof after !== 'bigint' || after > before
  }
  return [...flows.values()]
    .filter((flow) => flow.kept > 0n && flow.toContractByUser * 2n > flow.sentByUser && keeps(flow.token))
    .map(({ token }) =>
      makeWarning(
        'TRANSFERRING_ERC20_TO_OWN_CONTRACT',
        'WARNING',
        `This sends ${metadataOf(token).symbol ?? 'tokens'} to the token's own contract, where they are almost ` +
          'always lost for good.',
      ),
    )
}

function gasWarnings(result: SimulationResult): Warning[] {
  return result.outcomes
    .filter((outcome) => outcome.gasUsed > UNUSUAL_GAS_USED)
    .map((outcome) =>
      makeWarning(
        'UNUSUAL_GAS_CONSUMPTION',
        'WARNING',
        `This transaction would use ${outcome.gasUsed.toLocaleString('en-US')} gas, far more than ordinary ` +
          'transactions; it may waste your fees on purpose.',
      ),
    )
}

function sameAsset(a: AssetRef, b: AssetRef): boolean {
  if (a.standard !== b.standard) return false
  if (a.standard === 'NATIVE' || b.standard === 'NATIVE') return true
  if (!isAddressEqual(a.token, b.token)) return false
  return a.standard === 'ERC20' || b.standard === 'ERC20' || a.tokenId === b.tokenId
}
