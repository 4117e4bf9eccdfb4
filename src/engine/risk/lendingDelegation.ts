/**
 * Lending positions handed to another address: an Aave credit delegation lets the delegatee borrow in the delegator's
 * name against the delegator's collateral, and a Compound III manager may withdraw and borrow from the owner's whole
 * account. Neither moves anything when given, so the simulation shows no loss; the warning says what the grantee can
 * do from then on. A grantee without code is a person (APPROVAL_TO_EOA), as for approvals; Aave's own gateway and
 * adapters (known spenders: they borrow only for the caller, as the Aave app uses them to borrow native currency or
 * swap debt) raise nothing; any other grantee gets Preflight's own LENDING_POSITION_DELEGATION. Revocations raise
 * nothing.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { type AssetChange, formatAmount, grantedAmount, isUnlimited, shortAddress } from '../assets/index.ts'
import {
  type CreditDelegation,
  codeSizeBefore,
  isCometManagerChange,
  type SimulationResult,
  type TokenMetadata,
} from '../simulation/index.ts'
import { knownSpender } from './spenders.ts'
import { makeWarning } from './warnings.ts'

/** A WARNING for each credit delegation and each Compound III manager the request leaves in place. */
export function lendingDelegationWarnings(
  result: SimulationResult,
  changes: AssetChange[],
  userAccount: Address,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const isPerson = (account: Address) => codeSizeBefore(result.reads, account) === 0n
  const whose = (owner: Address) => (isAddressEqual(owner, userAccount) ? 'your' : `${shortAddress(owner)}'s`)
  const delegations = lastDelegations(result.delegations)
    .filter(
      (delegation) => delegation.amount > 0n && knownSpender(result.chainId, delegation.delegatee)?.protocol !== 'aave',
    )
    .map((delegation) => {
      const asset = metadataOf(delegation.asset)
      const symbol = asset.symbol ?? asset.name ?? shortAddress(delegation.asset)
      const amount = isUnlimited(delegation.amount)
        ? `any amount of ${symbol}`
        : `up to ${formatAmount(delegation.amount, asset.decimals ?? 0)} ${symbol}`
      const person = isPerson(delegation.delegatee)
      const owner = whose(delegation.delegator)
      return makeWarning(
        person ? 'APPROVAL_TO_EOA' : 'LENDING_POSITION_DELEGATION',
        'WARNING',
        `This lets ${grantee(delegation.delegatee, person)} borrow ${amount} from Aave in ${owner} name, against ` +
          `${owner} collateral: what they borrow goes to them, the debt stays ${debtor(owner)}, and if it is not ` +
          `repaid ${owner} collateral is liquidated. Only continue if you trust ${shortAddress(delegation.delegatee)}.`,
        {
          delegator: delegation.delegator,
          delegatee: delegation.delegatee,
          debtToken: delegation.debtToken,
          asset: delegation.asset,
          amount: delegation.amount.toString(),
        },
      )
    })
  const managers = changes.flatMap((change) => {
    const granted = change.type === 'approval' ? grantedAmount(change) : 0n
    return change.type === 'approval' &&
      granted > 0n &&
      isCometManagerChange(result.reads, change.token, change.owner, change.spender, granted)
      ? [change]
      : []
  })
  const managerWarnings = managers.map(({ token, owner, spender }) => {
    const market = metadataOf(token).name ?? metadataOf(token).symbol ?? shortAddress(token)
    const person = isPerson(spender)
    const account = whose(owner)
    return makeWarning(
      person ? 'APPROVAL_TO_EOA' : 'LENDING_POSITION_DELEGATION',
      'WARNING',
      `This makes ${grantee(spender, person)} a manager of ${account} whole Compound III account in ${market}: ` +
        `they can withdraw all ${account} collateral and supplied balance, and borrow against ${account} ` +
        `collateral in ${account} name, sending it anywhere, without asking again. Only continue if you trust ` +
        `${shortAddress(spender)}.`,
      { owner, manager: spender, market: token },
    )
  })
  return [...delegations, ...managerWarnings]
}

/** Each delegation as the last event for its debt token, delegator and delegatee left it: the allowance in force. */
function lastDelegations(delegations: CreditDelegation[]): CreditDelegation[] {
  const last = new Map<string, CreditDelegation>()
  for (const delegation of delegations) {
    const key = [delegation.debtToken, delegation.delegator, delegation.delegatee].join(':').toLowerCase()
    last.set(key, delegation)
  }
  return [...last.values()]
}

function grantee(account: Address, person: boolean): string {
  return `${shortAddress(account)}, ${person ? 'a personal account rather than a contract' : 'a contract'},`
}

/** "yours" for "your", "0xab…cd's" as it is. */
function debtor(owner: string): string {
  return owner === 'your' ? 'yours' : owner
}
