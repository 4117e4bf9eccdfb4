/**
 * Shared by the real-protocol tests: the devnet's Uniswap calls, and reality as the oracle — execute what was scanned
 * on the devnet and compare every account's balance deltas with the scan's state changes.
 */
import {
  type Address,
  createTestClient,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  getAddress,
  type Hex,
  http,
  parseAbi,
  publicActions,
  toEventSelector,
  walletActions,
} from 'viem'
import { expect } from 'vitest'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import type { ScanTransactionsResponse, StateChange } from '../../src/engine/index.ts'

export const routerV2Abi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountToken, uint256 amountETH)',
])
export const swapRouterAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
])
export const positionManagerAbi = parseAbi([
  'struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
  'function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)',
  'function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)',
  'function multicall(bytes[] data) payable returns (bytes[] results)',
])

/** Far enough in the future for any test. */
export const DEADLINE = 2n ** 40n

export type Tx = { from: Address; to: Address; data: Hex; value?: bigint }

/** The request a scan gets for one transaction from its sender. */
export function scanRequest(tx: Tx) {
  return {
    txObjects: [{ from: tx.from, to: tx.to, data: tx.data, value: (tx.value ?? 0n).toString() }],
    userAccount: tx.from,
    metadata: { origin: 'https://app.uniswap.org' },
  }
}

/** ETH for USDC through the V2 router, to `from`. */
export function v2SwapEthForUsdc(fixtures: Fixtures, from: Address, value: bigint): Tx {
  const data = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [fixtures.weth.address, fixtures.erc20.address], from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data, value }
}

/** ETH for USDC through the V3 swap router's exactInputSingle (the router wraps the ETH). */
export function v3SwapEthForUsdc(fixtures: Fixtures, from: Address, value: bigint): Tx {
  const data = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: fixtures.weth.address,
        tokenOut: fixtures.erc20.address,
        fee: fixtures.uniswapV3.fee,
        recipient: from,
        deadline: DEADLINE,
        amountIn: value,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
  })
  return { from, to: fixtures.uniswapV3.swapRouter, data, value }
}

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
export async function executedDeltas(rpcUrl: string, tx: Tx, claimed: Deltas): Promise<Deltas> {
  const client = devnetClient(rpcUrl)
  const hash = await client.sendTransaction({
    account: tx.from,
    to: tx.to,
    data: tx.data,
    value: tx.value ?? 0n,
    // A fixed limit, as a wallet's estimate plus margin would give: the node's own estimate is not what is tested.
    gas: 3_000_000n,
    chain: null,
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  if (receipt.status !== 'success') {
    const replay = await client
      .call({
        account: tx.from,
        to: tx.to,
        data: tx.data,
        value: tx.value ?? 0n,
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
export async function expectRealityMatches(rpcUrl: string, response: ScanTransactionsResponse, tx: Tx) {
  const claimed = claimedDeltas(response)
  const nonZero = new Map([...claimed].filter(([, delta]) => delta !== 0n))
  const executed = await executedDeltas(rpcUrl, tx, claimed)
  expect(Object.fromEntries(nonZero)).toEqual(Object.fromEntries(executed))
  return executed
}
