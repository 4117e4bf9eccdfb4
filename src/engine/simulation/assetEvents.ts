/** Reads asset movements and approvals out of simulated logs: traceTransfers' native transfers and token events. */
import {
  type Address,
  decodeEventLog,
  getAbiItem,
  getAddress,
  type Hex,
  isAddressEqual,
  parseAbi,
  toEventSelector,
  zeroAddress,
} from 'viem'
import { erc20Abi, erc721Abi, erc1155Abi, wethAbi } from '../abi/index.ts'
import { NATIVE_ASSET_ADDRESS } from '../api/index.ts'

export type SimulatedLog = { address: Address; topics: Hex[]; data: Hex }

export type AssetRef =
  | { standard: 'NATIVE' }
  | { standard: 'ERC20'; token: Address }
  | { standard: 'ERC721'; token: Address; tokenId: bigint }
  | { standard: 'ERC1155'; token: Address; tokenId: bigint }

/**
 * One movement of an asset from one account to another (mints come from and burns go to the zero address). `wrap`
 * marks a WETH-style Deposit or Withdrawal: any contract may log one (an old multisig logs Deposit for the ETH it
 * receives), so it counts as a mint or burn only where the token's balance reads agree (balanceReconciliation.ts).
 */
export type Movement = { asset: AssetRef; from: Address; to: Address; amount: bigint; wrap?: true }

/** Uniswap's Permit2, at the same address on every chain: it keeps token allowances of its own. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

/**
 * The last approval state an event set; `amount` is the allowance, 1/0 for one NFT, 1/0 for approval-for-all. `via`
 * names the contract that keeps an ERC-20 allowance when it is not the token itself (Permit2).
 */
export type ApprovalEvent =
  | { kind: 'ERC20'; token: Address; owner: Address; spender: Address; amount: bigint; via?: Address }
  | { kind: 'ERC721'; token: Address; owner: Address; spender: Address; tokenId: bigint }
  | { kind: 'FOR_ALL'; token: Address; owner: Address; spender: Address; approved: boolean }

let topics:
  | Record<
      | 'TRANSFER'
      | 'APPROVAL'
      | 'APPROVAL_FOR_ALL'
      | 'TRANSFER_SINGLE'
      | 'TRANSFER_BATCH'
      | 'DEPOSIT'
      | 'WITHDRAWAL'
      | 'PERMIT2_APPROVAL'
      | 'PERMIT2_PERMIT',
      Hex
    >
  | undefined
/** The asset events' topics, hashed on first use: hashing while a service worker starts delays its first answer. */
const assetTopics = () =>
  (topics ??= {
    TRANSFER: toEventSelector('Transfer(address,address,uint256)'),
    APPROVAL: toEventSelector('Approval(address,address,uint256)'),
    APPROVAL_FOR_ALL: toEventSelector('ApprovalForAll(address,address,bool)'),
    TRANSFER_SINGLE: toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
    TRANSFER_BATCH: toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'),
    DEPOSIT: toEventSelector('Deposit(address,uint256)'),
    WITHDRAWAL: toEventSelector('Withdrawal(address,uint256)'),
    PERMIT2_APPROVAL: toEventSelector('Approval(address,address,address,uint160,uint48)'),
    PERMIT2_PERMIT: toEventSelector('Permit(address,address,address,uint160,uint48,uint48)'),
  })

// One-event ABIs: decodeEventLog hashes every event of the ABI it is given, on every call.
const erc20Transfer = [getAbiItem({ abi: erc20Abi, name: 'Transfer' })]
const erc20Approval = [getAbiItem({ abi: erc20Abi, name: 'Approval' })]
const erc721Transfer = [getAbiItem({ abi: erc721Abi, name: 'Transfer' })]
const erc721Approval = [getAbiItem({ abi: erc721Abi, name: 'Approval' })]
const erc721ApprovalForAll = [getAbiItem({ abi: erc721Abi, name: 'ApprovalForAll' })]
const erc1155TransferSingle = [getAbiItem({ abi: erc1155Abi, name: 'TransferSingle' })]
const erc1155TransferBatch = [getAbiItem({ abi: erc1155Abi, name: 'TransferBatch' })]
const wethDeposit = [getAbiItem({ abi: wethAbi, name: 'Deposit' })]
const wethWithdrawal = [getAbiItem({ abi: wethAbi, name: 'Withdrawal' })]
/** Permit2 sets an allowance by `approve` (Approval) or by a signed permit submitted on chain (Permit). */
const permit2Approvals = parseAbi([
  'event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)',
  'event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)',
])

/**
 * Each account's net change (lowercase account keys) per asset, under the key `keyOf` gives a movement's asset (null:
 * left out). What the rules that weigh a request's flows net: a swap's payouts, a sell probe's targets, a probe's
 * outcome.
 */
export function netByAccount(
  movements: Movement[],
  keyOf: (movement: Movement) => string | null,
): Map<string, Map<string, bigint>> {
  const net = new Map<string, Map<string, bigint>>()
  for (const movement of movements) {
    const key = keyOf(movement)
    if (key === null) continue
    const accounts = net.get(key) ?? new Map<string, bigint>()
    const from = movement.from.toLowerCase()
    const to = movement.to.toLowerCase()
    accounts.set(from, (accounts.get(from) ?? 0n) - movement.amount)
    accounts.set(to, (accounts.get(to) ?? 0n) + movement.amount)
    net.set(key, accounts)
  }
  return net
}

/** Movements and approvals in log order; logs that are not asset events are skipped. */
export function assetEventsFromLogs(logs: SimulatedLog[]): { movements: Movement[]; approvals: ApprovalEvent[] } {
  const movements: Movement[] = []
  const approvals: ApprovalEvent[] = []
  for (const log of logs) {
    try {
      collect(log, movements, approvals)
    } catch {
      // A log that matches a selector but not the standard layout is not an asset event we can interpret.
    }
  }
  return { movements, approvals }
}

function collect(log: SimulatedLog, movements: Movement[], approvals: ApprovalEvent[]): void {
  const { TRANSFER, APPROVAL, APPROVAL_FOR_ALL, TRANSFER_SINGLE, TRANSFER_BATCH, DEPOSIT, WITHDRAWAL, ...permit2 } =
    assetTopics()
  const token = getAddress(log.address)
  const topic = log.topics[0]
  if (
    (topic === permit2.PERMIT2_APPROVAL || topic === permit2.PERMIT2_PERMIT) &&
    isAddressEqual(token, PERMIT2_ADDRESS)
  ) {
    const { args } = decodeEventLog({ abi: permit2Approvals, ...log, topics: asTopics(log) })
    const { owner, spender, amount } = args
    approvals.push({ kind: 'ERC20', token: args.token, owner, spender, amount, via: PERMIT2_ADDRESS })
    return
  }
  const native = log.address.toLowerCase() === NATIVE_ASSET_ADDRESS
  if (topic === TRANSFER && log.topics.length === 3) {
    const { args } = decodeEventLog({ abi: erc20Transfer, ...log, topics: asTopics(log) })
    const asset: AssetRef = native ? { standard: 'NATIVE' } : { standard: 'ERC20', token }
    movements.push({ asset, from: args.from, to: args.to, amount: args.value })
  } else if (topic === TRANSFER && log.topics.length === 4) {
    const { args } = decodeEventLog({ abi: erc721Transfer, ...log, topics: asTopics(log) })
    movements.push({
      asset: { standard: 'ERC721', token, tokenId: args.tokenId },
      from: args.from,
      to: args.to,
      amount: 1n,
    })
  } else if (topic === TRANSFER_SINGLE) {
    const { args } = decodeEventLog({ abi: erc1155TransferSingle, ...log, topics: asTopics(log) })
    movements.push({
      asset: { standard: 'ERC1155', token, tokenId: args.id },
      from: args.from,
      to: args.to,
      amount: args.value,
    })
  } else if (topic === TRANSFER_BATCH) {
    const { args } = decodeEventLog({ abi: erc1155TransferBatch, ...log, topics: asTopics(log) })
    args.ids.forEach((id, index) => {
      const amount = args.values[index] ?? 0n
      movements.push({ asset: { standard: 'ERC1155', token, tokenId: id }, from: args.from, to: args.to, amount })
    })
  } else if (topic === DEPOSIT && log.topics.length === 2) {
    // WETH-style wrappers mint on Deposit without a Transfer event.
    const { args } = decodeEventLog({ abi: wethDeposit, ...log, topics: asTopics(log) })
    movements.push({
      asset: { standard: 'ERC20', token },
      from: zeroAddress,
      to: args.dst,
      amount: args.wad,
      wrap: true,
    })
  } else if (topic === WITHDRAWAL && log.topics.length === 2) {
    const { args } = decodeEventLog({ abi: wethWithdrawal, ...log, topics: asTopics(log) })
    movements.push({
      asset: { standard: 'ERC20', token },
      from: args.src,
      to: zeroAddress,
      amount: args.wad,
      wrap: true,
    })
  } else if (topic === APPROVAL && log.topics.length === 3) {
    const { args } = decodeEventLog({ abi: erc20Approval, ...log, topics: asTopics(log) })
    approvals.push({ kind: 'ERC20', token, owner: args.owner, spender: args.spender, amount: args.value })
  } else if (topic === APPROVAL && log.topics.length === 4) {
    const { args } = decodeEventLog({ abi: erc721Approval, ...log, topics: asTopics(log) })
    approvals.push({ kind: 'ERC721', token, owner: args.owner, spender: args.approved, tokenId: args.tokenId })
  } else if (topic === APPROVAL_FOR_ALL) {
    const { args } = decodeEventLog({ abi: erc721ApprovalForAll, ...log, topics: asTopics(log) })
    approvals.push({ kind: 'FOR_ALL', token, owner: args.owner, spender: args.operator, approved: args.approved })
  }
}

function asTopics(log: SimulatedLog): [Hex, ...Hex[]] {
  return log.topics as [Hex, ...Hex[]]
}
