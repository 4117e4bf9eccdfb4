/** Decides which reads a simulation needs: predicted from calldata before it runs, and required by its events after. */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import type { ApprovalEvent, Movement } from './assetEvents.ts'
import { addressesInArguments, type Call, decodeKnownFunction, expandCalls } from './calls.ts'
import {
  allowanceRead,
  approvedForAllRead,
  codeSizeRead,
  erc20BalanceRead,
  erc1155BalanceRead,
  nativeBalanceRead,
  READER_ADDRESS,
  type Read,
  safeReads,
  tokenMetadataReads,
} from './reads.ts'

/** Whether token metadata must still be read (false when cached). */
export type MetadataNeeded = (token: Address) => boolean

const TOKEN_FUNCTIONS = new Set([
  'transfer',
  'transferFrom',
  'approve',
  'increaseAllowance',
  'decreaseAllowance',
  'safeTransferFrom',
  'safeBatchTransferFrom',
  'setApprovalForAll',
  'deposit',
  'withdraw',
  'permit',
])

/** Reads a transaction list will need, guessed from its calldata so that plain transfers take one round trip. */
export function predictReads(
  calls: Call[],
  accounts: Address[],
  safes: Address[],
  metadataNeeded: MetadataNeeded,
): Map<string, Read> {
  const plan = new Map<string, Read>()
  const add = (read: Read) => plan.set(read.key, read)
  const people = new Set<Address>(accounts)
  const tokens = new Set<Address>()
  for (const call of calls.flatMap(expandCalls)) {
    people.add(call.from)
    if (!call.to) continue
    people.add(call.to)
    const decoded = decodeKnownFunction(call.data)
    if (!decoded) continue
    for (const address of addressesInArguments(decoded.args)) people.add(address)
    if (!TOKEN_FUNCTIONS.has(decoded.functionName)) continue
    tokens.add(call.to)
    const [first, second, third] = decoded.args
    if (decoded.functionName === 'approve' || decoded.functionName === 'increaseAllowance') {
      add(allowanceRead(call.to, call.from, first as Address))
      add(codeSizeRead(first as Address))
    } else if (decoded.functionName === 'setApprovalForAll') {
      add(approvedForAllRead(call.to, call.from, first as Address))
      add(codeSizeRead(first as Address))
    } else if (decoded.functionName === 'safeTransferFrom' && decoded.args.length === 5) {
      add(erc1155BalanceRead(call.to, first as Address, third as bigint))
      add(erc1155BalanceRead(call.to, second as Address, third as bigint))
    }
  }
  people.delete(zeroAddress)
  people.delete(READER_ADDRESS)
  for (const person of people) {
    add(nativeBalanceRead(person))
    for (const token of tokens) add(erc20BalanceRead(token, person))
  }
  for (const token of tokens) if (metadataNeeded(token)) tokenMetadataReads(token).forEach(add)
  for (const wallet of safes) safeReads(wallet).forEach(add)
  return plan
}

/** Reads the simulated events require for before/after values and warnings; compare with what was planned. */
export function readsForEvents(
  movements: Movement[],
  approvals: ApprovalEvent[],
  metadataNeeded: MetadataNeeded,
): Map<string, Read> {
  const plan = new Map<string, Read>()
  const add = (read: Read) => plan.set(read.key, read)
  const tokens = new Set<Address>()
  for (const movement of movements) {
    for (const account of [movement.from, movement.to]) {
      if (isAddressEqual(account, zeroAddress)) continue
      const { asset } = movement
      if (asset.standard === 'NATIVE') add(nativeBalanceRead(account))
      else if (asset.standard === 'ERC20') add(erc20BalanceRead(asset.token, account))
      else if (asset.standard === 'ERC1155') add(erc1155BalanceRead(asset.token, account, asset.tokenId))
    }
    if (movement.asset.standard !== 'NATIVE') tokens.add(movement.asset.token)
  }
  for (const approval of approvals) {
    tokens.add(approval.token)
    if (isAddressEqual(approval.spender, zeroAddress)) continue
    add(codeSizeRead(approval.spender))
    if (approval.kind === 'ERC20') add(allowanceRead(approval.token, approval.owner, approval.spender))
    if (approval.kind === 'FOR_ALL') add(approvedForAllRead(approval.token, approval.owner, approval.spender))
  }
  for (const token of tokens) if (metadataNeeded(token)) tokenMetadataReads(token).forEach(add)
  return plan
}
