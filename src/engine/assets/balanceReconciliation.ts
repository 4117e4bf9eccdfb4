/**
 * Reconciles what the simulation traced (traceTransfers' native transfers, token events) with the balances it read
 * before and after. Events can lie or be missing (a token that moves balances silently, one whose events cancel out,
 * a SELFDESTRUCT that forwards ETH outside the trace); the native reads cannot, and a token's reads are a second
 * witness. Only accounts and tokens the scan knew to read are covered: the user, the called contracts, the calldata's
 * addresses and every account the events name.
 */
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem'
import {
  type AssetRef,
  accrualKey,
  accruedInterest,
  READER_ADDRESS,
  type ReadResults,
  readKeys,
  type SimulationResult,
  tokenMetadata,
} from '../simulation/index.ts'

/** One account's net change in one fungible asset (or one NFT), as traced and as read. */
export type BalanceNet = {
  account: Address
  asset: AssetRef
  /** The net the events and traced transfers show. */
  traced: bigint
  /** The balance read before and after the transactions, when both reads answered. */
  read: { before: bigint; after: bigint } | null
  /**
   * Interest the token's events say the account had accrued before the transactions (Aave's `balanceIncrease`):
   * counted in `traced`, while `read` had it before and after.
   */
  accrued: bigint
  /** Amount moved with each other account (lowercase key), from the traced flows. */
  flows: Map<string, bigint>
}

/** An asset's identity, as nets are kept per asset: the native currency, a token, or one NFT. */
export const assetKey = (asset: AssetRef) =>
  asset.standard === 'NATIVE'
    ? 'native'
    : asset.standard === 'ERC20'
      ? `erc20:${asset.token.toLowerCase()}`
      : `${asset.standard}:${asset.token.toLowerCase()}:${asset.tokenId}`

/** Accounts that are no one's: mints and burns, and the reader the simulation injects. */
export const ignoredAccount = (account: Address) =>
  isAddressEqual(account, zeroAddress) || isAddressEqual(account, READER_ADDRESS)

/** The read key of an account's balance of an asset; null for ERC-721 (its owner is what the events say). */
export function balanceKey(asset: AssetRef, account: Address): string | null {
  if (asset.standard === 'NATIVE') return readKeys.native(account)
  if (asset.standard === 'ERC20') return readKeys.erc20Balance(asset.token, account)
  if (asset.standard === 'ERC1155') return readKeys.erc1155Balance(asset.token, account, asset.tokenId)
  return null
}

/**
 * Every account's net in every native, ERC-20 and ERC-1155 asset that was traced or read, in order of first
 * appearance (traced first). A WETH-style Deposit/Withdrawal counts only where the account's balance of the token was
 * read (a contract without balanceOf that logs Deposit mints nothing). ERC-20 balance reads of a contract that is an
 * NFT collection (they count NFTs) or of a token without decimals are not fungible changes. A token's own address
 * whose balance of it reads the same before and after is its mint and burn (Compound V2's markets and their forks log
 * a mint as a Transfer from the market and a redemption as one to it): no one's change.
 */
export function balanceNets(result: SimulationResult): BalanceNet[] {
  const nets = new Map<string, BalanceNet>()
  const accrued = accruedInterest(result.outcomes.flatMap((outcome) => outcome.logs))
  const netOf = (account: Address, asset: AssetRef) => {
    const key = `${assetKey(asset)}|${account.toLowerCase()}`
    const net = nets.get(key) ?? {
      account,
      asset,
      traced: 0n,
      read: readPair(result.reads, asset, account),
      accrued: asset.standard === 'ERC20' ? (accrued.get(accrualKey(asset.token, account)) ?? 0n) : 0n,
      flows: new Map(),
    }
    nets.set(key, net)
    return net
  }
  const touch = (account: Address, asset: AssetRef, delta: bigint, other: Address) => {
    const net = netOf(account, asset)
    net.traced += delta
    const otherKey = other.toLowerCase()
    net.flows.set(otherKey, (net.flows.get(otherKey) ?? 0n) + (delta < 0n ? -delta : delta))
  }
  const collections = new Set<string>()
  for (const movement of result.movements) {
    const { asset, from, to, amount } = movement
    if (asset.standard === 'ERC721') collections.add(asset.token.toLowerCase())
    if (asset.standard === 'ERC721' || amount === 0n || isAddressEqual(from, to)) continue
    const holder = isAddressEqual(from, zeroAddress) ? to : from
    if (movement.wrap && readPair(result.reads, asset, holder) === null) continue
    touch(from, asset, -amount, to)
    touch(to, asset, amount, from)
  }
  for (const approval of result.approvals) if (approval.kind !== 'ERC20') collections.add(approval.token.toLowerCase())
  const fungible = (token: Address) =>
    !collections.has(token.toLowerCase()) && tokenMetadata(result.chainId, token, result.reads).decimals !== null
  for (const key of result.reads.before.keys()) {
    const read = readBalanceKey(key)
    if (!read || ignoredAccount(read.account)) continue
    if (read.asset.standard === 'ERC20' && !fungible(read.asset.token)) continue
    netOf(read.account, read.asset)
  }
  return [...nets.values()].filter((net) => !ignoredAccount(net.account) && !mintsAsItself(net))
}

/** A token's own address in its own token, read unchanged while its events move it (mintsAsItself in balanceNets). */
function mintsAsItself({ account, asset, read }: BalanceNet): boolean {
  return (
    asset.standard === 'ERC20' && isAddressEqual(account, asset.token) && read !== null && read.before === read.after
  )
}

/** What the reads say an account's balance did; the traced net when they were not made. */
export function netChange(net: BalanceNet): bigint {
  return net.read ? net.read.after - net.read.before : net.traced
}

/**
 * Native currency that left the accounts the scan read without a traced transfer taking it anywhere: the sum of what
 * their balances lost beyond what the trace shows. A SELFDESTRUCT forwards a contract's balance this way (Cancun
 * kept the opcode's transfer) and traceTransfers does not report it on every node, so the recipient stays unknown.
 */
export function untracedNativeOutflow(nets: BalanceNet[]): bigint {
  let missing = 0n
  for (const net of nets) {
    if (net.asset.standard !== 'NATIVE' || !net.read) continue
    missing += net.traced - (net.read.after - net.read.before)
  }
  return missing > 0n ? missing : 0n
}

function readPair(reads: ReadResults, asset: AssetRef, account: Address): BalanceNet['read'] {
  const key = balanceKey(asset, account)
  const before = key ? reads.before.get(key) : undefined
  const after = key ? reads.after.get(key) : undefined
  return typeof before === 'bigint' && typeof after === 'bigint' ? { before, after } : null
}

/** The account and asset a balance read key names (readKeys.native, erc20Balance, erc1155Balance); null otherwise. */
function readBalanceKey(key: string): { account: Address; asset: AssetRef } | null {
  const [kind, first, second, third] = key.split(':')
  if (kind === 'native' && first) return { account: getAddress(first), asset: { standard: 'NATIVE' } }
  if (kind === 'erc20' && first && second) {
    return { account: getAddress(second), asset: { standard: 'ERC20', token: getAddress(first) } }
  }
  if (kind === 'erc1155' && first && second && third) {
    const asset: AssetRef = { standard: 'ERC1155', token: getAddress(first), tokenId: BigInt(third) }
    return { account: getAddress(second), asset }
  }
  return null
}
