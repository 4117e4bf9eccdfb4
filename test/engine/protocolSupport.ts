/**
 * Shared by the real-protocol tests: scan requests for the dapp's transactions (src/devnet/dapp), and reality as the
 * oracle — execute what was scanned on the devnet and compare every account's balance deltas with the scan's state
 * changes.
 */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  erc721Abi,
  getAddress,
  type Hex,
  http,
  publicActions,
  toEventSelector,
  walletActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { expect } from 'vitest'
import type { TxRequest } from '../../src/devnet/dapp/requests.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { ScanTransactionsResponse, StateChange } from '../../src/engine/index.ts'

/** The request a scan gets for one transaction from its sender (quantities in decimal, as the API takes them). */
export function scanRequest(tx: TxRequest) {
  return {
    txObjects: [{ from: tx.from, to: tx.to, data: tx.data ?? '0x', value: weiOf(tx).toString() }],
    userAccount: tx.from,
    metadata: { origin: 'https://app.uniswap.org' },
  }
}

/** The wei a request sends: its hex `value`, or none. */
const weiOf = (tx: TxRequest) => BigInt(tx.value ?? 0)

/** A client that sends as any unlocked devnet account. */
export function devnetClient(rpcUrl: string) {
  return createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    .extend(publicActions)
    .extend(walletActions)
}

const TRANSFER = toEventSelector('Transfer(address,address,uint256)')
const DEPOSIT = toEventSelector('Deposit(address,uint256)')
const WITHDRAWAL = toEventSelector('Withdrawal(address,uint256)')

type Deltas = Map<string, bigint>

const key = (account: string, asset: string) => `${account.toLowerCase()}|${asset.toLowerCase()}`

/** Every account's balance deltas the scan claims, by account and asset ('native', a token, or token#id for NFTs). */
export function claimedDeltas(response: ScanTransactionsResponse): Deltas {
  const deltas: Deltas = new Map()
  for (const [account, changes] of Object.entries(response.simulationResults.aggregated.expectedStateChanges)) {
    for (const change of changes as StateChange[]) {
      const raw = change.rawInfo
      if (raw.kind === 'NATIVE_ASSET_TRANSFER') add(deltas, key(account, 'native'), raw.data.amount)
      else if (raw.kind === 'ERC20_TRANSFER') add(deltas, key(account, raw.data.asset.address), raw.data.amount)
      else if (raw.kind === 'ERC721_TRANSFER' || raw.kind === 'ERC1155_TRANSFER') {
        add(deltas, key(account, `${raw.data.asset.address}#${raw.data.tokenId}`), raw.data.amount)
      }
    }
  }
  return deltas
}

function add(deltas: Deltas, entry: string, amount: { before: string; after: string }) {
  deltas.set(entry, (deltas.get(entry) ?? 0n) + BigInt(amount.after) - BigInt(amount.before))
}

/**
 * Sends `tx` for real and measures every balance it moved: native and token balances of every account the scan or
 * the receipt names, read at the blocks before and after, the sender's gas added back; NFTs by their owners.
 */
export async function executedDeltas(rpcUrl: string, tx: TxRequest, claimed: Deltas): Promise<Deltas> {
  const client = devnetClient(rpcUrl)
  const hash = await client.sendTransaction({
    account: tx.from,
    to: tx.to,
    data: tx.data,
    value: weiOf(tx),
    // A fixed limit, as a wallet's estimate plus margin would give: the node's own estimate is not what is tested.
    gas: 3_000_000n,
    chain: null,
  })
  const receipt = await waitForReceipt(client, hash)
  if (receipt.status !== 'success') {
    const replay = await client
      .call({
        account: tx.from,
        to: tx.to,
        data: tx.data,
        value: weiOf(tx),
        blockNumber: receipt.blockNumber - 1n,
      })
      .then(
        () => 'no revert on replay',
        (error: Error) => error.message,
      )
    throw new Error(`${hash} reverted on the devnet (${receipt.gasUsed} gas): ${replay}`)
  }
  const after = receipt.blockNumber
  const before = after - 1n
  const accounts = new Set<string>([tx.from.toLowerCase(), tx.to.toLowerCase()])
  const tokens = new Set<string>()
  const nfts = new Set<string>()
  for (const entry of claimed.keys()) {
    const [account, asset] = entry.split('|') as [string, string]
    accounts.add(account)
    if (asset.includes('#')) nfts.add(asset)
    else if (asset !== 'native') tokens.add(asset)
  }
  for (const log of receipt.logs) {
    const [topic, ...indexed] = log.topics
    const named = indexed.slice(0, 2).map((word) => `0x${word.slice(26)}`)
    if (topic === TRANSFER && indexed.length === 2) tokens.add(log.address.toLowerCase())
    if (topic === TRANSFER && indexed.length === 3)
      nfts.add(`${log.address.toLowerCase()}#${BigInt(indexed[2] as Hex)}`)
    if (topic === DEPOSIT || topic === WITHDRAWAL) tokens.add(log.address.toLowerCase())
    if (topic === TRANSFER || topic === DEPOSIT || topic === WITHDRAWAL) for (const a of named) accounts.add(a)
    accounts.add(log.address.toLowerCase())
  }
  accounts.delete('0x0000000000000000000000000000000000000000')
  const deltas: Deltas = new Map()
  const gas = receipt.gasUsed * receipt.effectiveGasPrice
  for (const account of accounts) {
    const address = getAddress(account)
    const native =
      (await client.getBalance({ address, blockNumber: after })) -
      (await client.getBalance({ address, blockNumber: before }))
    const paid = account === tx.from.toLowerCase() ? gas : 0n
    if (native + paid !== 0n) deltas.set(key(account, 'native'), native + paid)
    for (const token of tokens) {
      const balance = (blockNumber: bigint) =>
        client.readContract({
          address: getAddress(token),
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
          blockNumber,
        })
      const delta = (await balance(after)) - (await balance(before))
      if (delta !== 0n) deltas.set(key(account, token), delta)
    }
  }
  for (const nft of nfts) {
    const [token, id] = nft.split('#') as [string, string]
    const ownerAt = (blockNumber: bigint) =>
      client
        .readContract({
          address: getAddress(token),
          abi: erc721Abi,
          functionName: 'ownerOf',
          args: [BigInt(id)],
          blockNumber,
        })
        .then(
          (owner) => owner.toLowerCase(),
          () => null,
        )
    const [was, is] = [await ownerAt(before), await ownerAt(after)]
    if (was === is) continue
    if (was) deltas.set(key(was, nft), -1n)
    if (is) deltas.set(key(is, nft), 1n)
  }
  return deltas
}

/** Scans' claims against what happened: the same non-zero deltas for every account and asset, gas aside. */
export async function expectRealityMatches(rpcUrl: string, response: ScanTransactionsResponse, tx: TxRequest) {
  const claimed = claimedDeltas(response)
  const nonZero = new Map([...claimed].filter(([, delta]) => delta !== 0n))
  const executed = await executedDeltas(rpcUrl, tx, claimed)
  expect(Object.fromEntries(nonZero)).toEqual(Object.fromEntries(executed))
  return executed
}

/**
 * The devnet's dev accounts by index, a public client and a wallet client signing as one of them (locally, as a
 * wallet signs), for tests that deploy and drive a protocol's contracts on the devnet `fx` gives.
 */
export function devnetSigners(fx: () => Fixtures) {
  const account = (index: number) => privateKeyToAccount(fx().accounts[index]?.privateKey as Hex)
  const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 50 })
  const wallet = (index: number) =>
    createWalletClient({ account: account(index), chain: foundry, transport: http(fx().rpcUrl) })
  return { account, chain, wallet }
}
