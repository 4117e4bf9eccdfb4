/** Decides which reads a simulation needs: predicted from calldata before it runs, and required by its events after. */
import { type Address, isAddressEqual, maxUint256, zeroAddress } from 'viem'
import { addressesInArguments, contractControlAbi, type DecodedFunction, decodeKnownFunction } from '../abi/index.ts'
import { type Call, expandCalls } from '../safe/index.ts'
import type { ApprovalEvent, Movement } from './assetEvents.ts'
import {
  allowanceRead,
  approvedForAllRead,
  codeSizeRead,
  cometManagerRead,
  erc20BalanceRead,
  erc1155BalanceRead,
  erc1155UriRead,
  nativeBalanceRead,
  permit2AllowanceRead,
  READER_ADDRESS,
  type Read,
  tokenMetadataReads,
  tokenUriRead,
} from './reads.ts'
import { safeConfigRead } from './safeConfigRead.ts'

/** Whether token metadata must still be read (false when cached). */
export type MetadataNeeded = (token: Address) => boolean

/** Whether a token may be an NFT: false when cached metadata already shows it fungible, so no URI read is wasted. */
export type MayBeNft = (token: Address) => boolean

/**
 * What a scan knows about the assets of one chain beyond balances (the simulation does not know prices): which
 * calldata addresses are fungible tokens, which pools may trade a set of tokens (their balances move in a swap), and
 * the reads that price the native currency and a set of tokens.
 */
export type AssetPlan = {
  isToken: (address: Address) => boolean
  pools: (tokens: Address[]) => Address[]
  priceReads: (tokens: Address[]) => Read[]
}

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
  'allow',
])

/** Calls that change control of a contract (contractControlAbi's functions): the contract's and the accounts' code. */
const CONTROL_FUNCTIONS = new Set(
  contractControlAbi.flatMap((item) => (item.type === 'function' ? [item.name as string] : [])),
)

/**
 * Reads a transaction list will need, guessed from its calldata so that plain transfers and swaps of known tokens take
 * one round trip. NFTs the calldata names by id also get their metadata URI read (NFTs only the logs reveal go
 * without: no second call for it). With `assets`, tokens the calldata names as arguments (a swap's path) count as
 * tokens, the pools between them as accounts, and every token gets its price reads.
 */
export function predictReads(
  calls: Call[],
  accounts: Address[],
  safes: Address[],
  metadataNeeded: MetadataNeeded,
  mayBeNft: MayBeNft,
  assets: AssetPlan | null = null,
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
    for (const address of addressesInArguments(decoded)) {
      people.add(address)
      if (!mayBeNft(address) || assets?.isToken(address)) tokens.add(address)
    }
    if (decoded.functionName === 'setAllowance' && decoded.args[1] !== zeroAddress) {
      // A spending limit names its token only as an argument; its warning needs the token's symbol and decimals.
      tokens.add(decoded.args[1] as Address)
    }
    if (CONTROL_FUNCTIONS.has(decoded.functionName)) {
      // What the control events will need (controlEvents.ts), so a handover takes one round trip.
      for (const account of [call.to, ...addressesInArguments(decoded)]) add(codeSizeRead(account))
    }
    if (!TOKEN_FUNCTIONS.has(decoded.functionName)) continue
    tokens.add(call.to)
    const [first, second, third] = decoded.args
    if (decoded.functionName === 'approve' || decoded.functionName === 'increaseAllowance') {
      add(allowanceRead(call.to, call.from, first as Address))
      add(codeSizeRead(first as Address))
      // A Compound III market approves for all or nothing, and says so when asked (lendingEvents.ts).
      if (second === maxUint256 || second === 0n) add(cometManagerRead(call.to, call.from, first as Address))
    } else if (decoded.functionName === 'allow') {
      add(cometManagerRead(call.to, call.from, first as Address))
      add(codeSizeRead(first as Address))
    } else if (decoded.functionName === 'setApprovalForAll') {
      add(approvedForAllRead(call.to, call.from, first as Address))
      add(codeSizeRead(first as Address))
    } else if (decoded.functionName === 'safeTransferFrom' && decoded.args.length === 5) {
      add(erc1155BalanceRead(call.to, first as Address, third as bigint))
      add(erc1155BalanceRead(call.to, second as Address, third as bigint))
    }
    const uriRead = nftUriRead(call.to, decoded, mayBeNft)
    if (uriRead) add(uriRead)
  }
  if (assets) {
    for (const pool of assets.pools([...tokens])) people.add(pool)
    assets.priceReads([...tokens]).forEach(add)
  }
  people.delete(zeroAddress)
  people.delete(READER_ADDRESS)
  for (const person of people) {
    add(nativeBalanceRead(person))
    for (const token of tokens) add(erc20BalanceRead(token, person))
  }
  for (const token of tokens) if (metadataNeeded(token)) tokenMetadataReads(token).forEach(add)
  for (const wallet of safes) add(safeConfigRead(wallet))
  return plan
}

/** The metadata URI read of the NFT a transfer or approval names by id; null when the call is not one. */
function nftUriRead(token: Address, decoded: DecodedFunction, mayBeNft: MayBeNft): Read | null {
  const { functionName, args } = decoded
  if (functionName === 'safeTransferFrom' && args.length === 5) return erc1155UriRead(token, args[2] as bigint)
  if (!mayBeNft(token)) return null
  // ERC-20 transferFrom/approve share these selectors; for an ERC-20 the read simply fails and is ignored.
  const transfer =
    (functionName === 'transferFrom' && args.length === 3) ||
    (functionName === 'safeTransferFrom' && (args.length === 3 || args.length === 4))
  if (transfer) return tokenUriRead(token, args[2] as bigint)
  if (functionName === 'approve' && args.length === 2) return tokenUriRead(token, args[1] as bigint)
  return null
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
    if (approval.kind === 'ERC20') {
      const { token, owner, spender, via } = approval
      add(via ? permit2AllowanceRead(via, token, owner, spender) : allowanceRead(token, owner, spender))
    }
    if (approval.kind === 'FOR_ALL') add(approvedForAllRead(approval.token, approval.owner, approval.spender))
    // What the spender could take at once is capped by the owner's balance (an ERC-721 count for FOR_ALL).
    if (approval.kind !== 'ERC721') add(erc20BalanceRead(approval.token, approval.owner))
  }
  for (const token of tokens) if (metadataNeeded(token)) tokenMetadataReads(token).forEach(add)
  return plan
}

/**
 * The price reads of every fungible asset the events moved or approved. They ride along when the events already
 * require a second call; on their own they never cost one (a chain unknown when the first call was planned, e.g.
 * the first scan of a node whose chain was not given, goes without prices rather than pay a round trip).
 */
export function priceReadsForEvents(movements: Movement[], approvals: ApprovalEvent[], assets: AssetPlan): Read[] {
  const fungible = new Set<Address>()
  for (const { asset } of movements) if (asset.standard === 'ERC20') fungible.add(asset.token)
  for (const approval of approvals) if (approval.kind === 'ERC20') fungible.add(approval.token)
  return assets.priceReads([...fungible])
}
