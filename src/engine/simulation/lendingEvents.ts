/**
 * Lending positions handed to another address, read out of the simulated logs: Aave V3's `BorrowAllowanceDelegated`
 * (credit delegation on a debt token) and a Compound III market's `Approval` for all or nothing (a manager of the
 * owner's whole account, told from a token's approval by the market's answer to `isAllowed`). The events say it
 * whatever route the call took: the owner's own call, a relayer submitting a signature, a Safe.
 */
import { type Address, getAbiItem, getAddress, type Hex, maxUint256, size, slice, toEventSelector } from 'viem'
import { lendingDelegationAbi } from '../abi/index.ts'
import type { ApprovalEvent, SimulatedLog } from './assetEvents.ts'
import type { MetadataNeeded } from './readPlan.ts'
import { codeSizeRead, cometManagerRead, type Read, type ReadResults, readKeys, tokenMetadataReads } from './reads.ts'

/** `delegator` lets `delegatee` borrow up to `amount` of `asset` from Aave in the delegator's name (`debtToken`'s). */
export type CreditDelegation = {
  debtToken: Address
  delegator: Address
  delegatee: Address
  asset: Address
  amount: bigint
}

let topic: Hex | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function delegationTopic(): Hex {
  topic ??= toEventSelector(getAbiItem({ abi: lendingDelegationAbi, name: 'BorrowAllowanceDelegated' }))
  return topic
}

/** Every credit delegation the logs report, in log order; a log of the same name and another layout is skipped. */
export function creditDelegations(logs: SimulatedLog[]): CreditDelegation[] {
  return logs.flatMap((log) => {
    const [signature, from, to, asset] = log.topics
    if (signature !== delegationTopic() || !from || !to || !asset || log.topics.length !== 4 || size(log.data) !== 32)
      return []
    const [delegator, delegatee, underlying] = [from, to, asset].map(topicAddress)
    if (!delegator || !delegatee || !underlying) return []
    return [{ debtToken: getAddress(log.address), delegator, delegatee, asset: underlying, amount: BigInt(log.data) }]
  })
}

function topicAddress(word: Hex): Address | null {
  return BigInt(slice(word, 0, 12)) === 0n ? getAddress(slice(word, 12)) : null
}

/** Whether an ERC-20 approval is shaped as a Comet's: for everything (max uint256) or nothing, kept by the token itself. */
export function mayBeCometApproval(approval: ApprovalEvent): boolean {
  return approval.kind === 'ERC20' && !approval.via && (approval.amount === maxUint256 || approval.amount === 0n)
}

/**
 * After the request, whether `manager` manages `owner`'s whole account in the Compound III market `comet`; null when
 * `comet` did not answer (no Comet) or was not asked.
 */
function cometManagerAfter(reads: ReadResults, comet: Address, owner: Address, manager: Address): boolean | null {
  const allowed = reads.after.get(readKeys.cometManager(comet, owner, manager))
  return typeof allowed === 'boolean' ? allowed : null
}

/**
 * Whether an approval granting `granted` is a Compound III market's manager grant (or its removal): the market's own
 * `isAllowed` answer agrees with it. A token that merely answers `isAllowed` otherwise is judged as a token.
 */
export function isCometManagerChange(
  reads: ReadResults,
  comet: Address,
  owner: Address,
  manager: Address,
  granted: bigint,
): boolean {
  const allowed = cometManagerAfter(reads, comet, owner, manager)
  return allowed !== null && allowed === granted > 0n
}

/**
 * What judging these events needs: the delegatee's code size (a person or a contract) and the borrowed asset's
 * metadata, and of each approval for all or nothing whether a Comet made it.
 */
export function lendingReads(
  delegations: CreditDelegation[],
  approvals: ApprovalEvent[],
  metadataNeeded: MetadataNeeded,
): Read[] {
  return [
    ...delegations.flatMap(({ delegatee, asset }) => [
      codeSizeRead(delegatee),
      ...(metadataNeeded(asset) ? tokenMetadataReads(asset) : []),
    ]),
    ...approvals.filter(mayBeCometApproval).map(({ token, owner, spender }) => cometManagerRead(token, owner, spender)),
  ]
}
