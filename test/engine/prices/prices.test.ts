/**
 * Dollar prices read on-chain in the scan's own call, against the devnet's Chainlink-interface feeds and Uniswap V3
 * pools: feeds for ETH and USDC, a TWAP for a token without a feed, null for stale feeds, thin pools and unknown
 * tokens; rendered per API version; and the warning for a large value sent for next to nothing back.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE, swapRouterAbi, v2AddLiquidityEth, v2SwapEthForTokens } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import {
  artifacts,
  fixtureArtifact,
  PROTOCOL_DEPLOYER_KEY,
  protocolAddress,
  sqrtPriceX96Of,
} from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import {
  type Erc20Asset,
  type NativeAsset,
  type ScanTransactionsResponse,
  scanTransactionsWithStats,
} from '../../../src/engine/index.ts'
import { priceSources } from '../../../src/engine/prices/index.ts'
import { renderTransactions } from '../../../src/server/render.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { devnetClient, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const feedAbi = parseAbi(['function setAnswer(int256 answer, uint256 updatedAt)'])
const poolAbi = parseAbi(['function increaseObservationCardinalityNext(uint16 observationCardinalityNext)'])
const managerAbi = parseAbi([
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
])
const wethAbi = parseAbi(['function deposit() payable'])

let devnet: Devnet
let rpcUrl: string
const fx = () => devnet.fixtures
const client = () => devnetClient(rpcUrl)
/** Who creates the test tokens and their pools (an unlocked dev account). */
const maker = () => fx().accounts[5]?.address as Address
/** Who scans transfers and swaps. */
const user = () => fx().accounts[6]?.address as Address

/**
 * A token priced by a deep V3 pool ($30 a token, 100 WETH deep), one whose only pool is thin (1 WETH), and one whose
 * pool holds 40 WETH ($120,000) parked out of range, where nobody can sell the token for any of it.
 */
let deep: Address
let thin: Address
let parked: Address

beforeAll(async () => {
  devnet = await startTestDevnet()
  rpcUrl = devnet.fixtures.rpcUrl
  deep = await tokenWithPool('Deep Token', 'DEEP', parseEther('100'), parseEther('10000'))
  thin = await tokenWithPool('Thin Token', 'THIN', parseEther('1'), parseEther('100'))
  parked = await tokenWithPool('Parked Token', 'PARK', parseEther('40'), parseEther('4000'), 'parked')
  // A TWAP window of history for both pools.
  await client().request({ method: 'evm_increaseTime', params: [numberToHex(1800)] } as never)
  await client().mine({ blocks: 1 })
})
afterAll(async () => {
  await devnet?.stop()
})

let snapshot: Hex
beforeEach(async () => {
  snapshot = await client().snapshot()
  return async () => {
    await client().revert({ id: snapshot })
  }
})

async function send(to: Address, data: Hex, value = 0n, from = maker()) {
  const hash = await client().sendTransaction({ account: from, to, data, value, gas: 10_000_000n, chain: null })
  const receipt = await waitForReceipt(client(), hash)
  if (receipt.status !== 'success') throw new Error(`setup transaction to ${to} reverted`)
  return receipt
}

/**
 * A new 18-decimal token, held by `maker`, with a V3 pool against WETH priced at `weth` for `tokens`: its liquidity
 * over the full range, or `parked` as that much WETH alone, out of range where the token is worth next to nothing.
 */
async function tokenWithPool(
  name: string,
  symbol: string,
  weth: bigint,
  tokens: bigint,
  range: 'full' | 'parked' = 'full',
): Promise<Address> {
  const token = fixtureArtifact('DevToken')
  const hash = await client().deployContract({
    account: maker(),
    abi: token.abi,
    bytecode: token.bytecode,
    args: [name, symbol, 18, [maker()], [parseEther('1000000')]],
    chain: null,
  })
  const address = getAddress((await waitForReceipt(client(), hash)).contractAddress as Address)
  const manager = fx().uniswapV3.positionManager
  const wethAddress = fx().weth.address
  const tokenFirst = address.toLowerCase() < wethAddress.toLowerCase()
  const [token0, token1] = tokenFirst ? [address, wethAddress] : [wethAddress, address]
  const [amount0, amount1] = tokenFirst ? [tokens, weth] : [weth, tokens]
  const [wethOnly0, wethOnly1] = tokenFirst ? [0n, weth] : [weth, 0n]
  const [tickLower, tickUpper] =
    range === 'full' ? [-887220, 887220] : tokenFirst ? [-887220, -600000] : [600000, 887220]
  const fee = 3000
  await send(
    manager,
    encodeFunctionData({
      abi: managerAbi,
      functionName: 'createAndInitializePoolIfNecessary',
      args: [token0, token1, fee, sqrtPriceX96Of(amount1, amount0)],
    }),
  )
  const pool = (await client().readContract({
    address: fx().uniswapV3.factory,
    abi: artifacts.v3Factory().abi,
    functionName: 'getPool',
    args: [address, wethAddress, fee],
  })) as Address
  await send(pool, encodeFunctionData({ abi: poolAbi, functionName: 'increaseObservationCardinalityNext', args: [8] }))
  await send(wethAddress, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), weth)
  for (const spent of [address, wethAddress]) {
    await send(spent, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [manager, maxUint256] }))
  }
  await send(
    manager,
    encodeFunctionData({
      abi: managerAbi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee,
          tickLower,
          tickUpper,
          amount0Desired: range === 'full' ? amount0 : wethOnly0,
          amount1Desired: range === 'full' ? amount1 : wethOnly1,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: maker(),
          deadline: DEADLINE,
        },
      ],
    }),
  )
  return address
}

async function scan(tx: TxRequest): Promise<{ response: ScanTransactionsResponse; roundTrips: number }> {
  const { outcome, stats } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl, chainId: 31337 })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

/** The asset of the user's first change in `token` ('native' for ETH). */
function assetOf(response: ScanTransactionsResponse, account: Address, token: Address | 'native') {
  const changes = response.simulationResults.aggregated.expectedStateChanges[account.toLowerCase() as Address] ?? []
  for (const change of changes) {
    const raw = change.rawInfo
    if (raw.kind === 'NATIVE_ASSET_TRANSFER' && token === 'native') return raw.data.asset as NativeAsset
    if (raw.kind === 'ERC20_TRANSFER' && token !== 'native' && raw.data.asset.address === token.toLowerCase()) {
      return raw.data.asset as Erc20Asset
    }
  }
  throw new Error(`no change of ${token} for ${account}`)
}

const transfer = (token: Address, from: Address, amount: bigint): TxRequest => ({
  from,
  to: token,
  data: encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [fx().accounts[7]?.address as Address, amount],
  }),
})

/** Sells `amount` of `token` into its 0.3% V3 pool against WETH, as `maker`. */
async function sell(token: Address, amount: bigint) {
  const router = fx().uniswapV3.swapRouter
  await send(token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
  const params = {
    tokenIn: token,
    tokenOut: fx().weth.address,
    fee: 3000,
    recipient: maker(),
    deadline: DEADLINE,
    amountIn: amount,
    amountOutMinimum: 0n,
    sqrtPriceLimitX96: 0n,
  }
  await send(router, encodeFunctionData({ abi: swapRouterAbi, functionName: 'exactInputSingle', args: [params] }))
}

async function latestTimestamp(): Promise<bigint> {
  return (await client().getBlock()).timestamp
}

/** Sets a devnet feed's answer as its deployer (updatedAt 0: current). */
async function setFeed(feed: Address, answer: bigint, updatedAt: bigint) {
  const deployer = createWalletClient({
    chain: foundry,
    transport: http(rpcUrl),
    account: privateKeyToAccount(PROTOCOL_DEPLOYER_KEY),
  })
  const hash = await deployer.writeContract({
    address: feed,
    abi: feedAbi,
    functionName: 'setAnswer',
    args: [answer, updatedAt],
  })
  await waitForReceipt(client(), hash)
}

describe('the bundled price list', () => {
  it("names the devnet's feeds and Uniswap deployment where the devnet deploys them", () => {
    const devnetSources = priceSources(31337)
    expect(devnetSources?.native?.feed).toBe(protocolAddress('ethUsd'))
    expect(devnetSources?.feeds.get(protocolAddress('weth').toLowerCase())?.feed).toBe(protocolAddress('ethUsd'))
    expect(devnetSources?.feeds.get(protocolAddress('usdc').toLowerCase())?.feed).toBe(protocolAddress('usdcUsd'))
    expect(devnetSources?.uniswapV3[0]?.factory).toBe(protocolAddress('v3Factory'))
    expect(devnetSources?.uniswapV2[0]?.factory).toBe(protocolAddress('v2Factory'))
    // The devnet includes mainnet's list, so a fork of mainnet prices mainnet's tokens too.
    expect(devnetSources?.feeds.has('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toBe(true)
    expect(priceSources(999_999)).toBeNull()
  })

  it('holds only checksummed addresses, which the engine uses as they are', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../src/engine/prices/data/priceSources.json'), 'utf8')
    const addresses = text.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? []
    expect(addresses.length).toBeGreaterThan(20)
    expect(addresses.filter((address) => getAddress(address) !== address)).toEqual([])
  })
})

describe('prices read in the same call', () => {
  it('ETH from the ETH/USD feed, USDC from the USDC/USD feed, in one round trip', async () => {
    const eth = await scan({
      from: user(),
      to: fx().accounts[7]?.address as Address,
      value: numberToHex(parseEther('1')),
    })
    expect(eth.roundTrips).toBe(1)
    const now = Number(await latestTimestamp())
    const native = assetOf(eth.response, user(), 'native')
    expect(native.price).toEqual({ source: 'Chainlink', dollarValuePerToken: 3000, updatedAt: expect.any(Number) })
    expect(Math.abs((native.price?.updatedAt ?? 0) - now)).toBeLessThan(30)
    const usdc = await scan(transfer(fx().erc20.address, fx().accounts[0]?.address as Address, parseUnits('5', 6)))
    expect(usdc.roundTrips).toBe(1)
    expect(assetOf(usdc.response, fx().accounts[0]?.address as Address, fx().erc20.address).price).toMatchObject({
      source: 'Chainlink',
      dollarValuePerToken: 1,
    })
  })

  it('a token without a feed: the 30-minute TWAP of its deep V3 pool against WETH, times ETH/USD', async () => {
    const { response, roundTrips } = await scan(transfer(deep, maker(), parseEther('3')))
    expect(roundTrips).toBe(1)
    const price = assetOf(response, maker(), deep).price
    expect(price?.source).toBe('UniswapV3')
    // 0.01 WETH a token at $3,000 an ETH; a tick is 0.01%, so the TWAP is within a few ticks of the pool's price.
    expect(price?.dollarValuePerToken).toBeCloseTo(30, 1)
  })

  it('a thin pool invents no price: null', async () => {
    const { response } = await scan(transfer(thin, maker(), parseEther('3')))
    expect(assetOf(response, maker(), thin).price).toBeNull()
  })

  it('quote tokens parked out of range invent no price: what a sale would be paid is what counts', async () => {
    const { response } = await scan(transfer(parked, maker(), parseEther('3')))
    expect(assetOf(response, maker(), parked).price).toBeNull()
  })

  it('a deep pool whose price now is more than 10% off its TWAP gives null', async () => {
    await sell(deep, parseEther('1500'))
    const { response } = await scan(transfer(deep, maker(), parseEther('3')))
    expect(assetOf(response, maker(), deep).price).toBeNull()
  })

  it('a deep pool moved less than 10% still prices at its TWAP', async () => {
    await sell(deep, parseEther('100'))
    const { response } = await scan(transfer(deep, maker(), parseEther('3')))
    expect(assetOf(response, maker(), deep).price?.dollarValuePerToken).toBeCloseTo(30, 0)
  })

  it('a stale feed gives null, never its old answer', async () => {
    const now = await latestTimestamp()
    await setFeed(fx().chainlink.usdcUsd, 1_00000000n, now - 3n * 86_400n)
    const { response } = await scan(transfer(fx().erc20.address, fx().accounts[0]?.address as Address, 5n))
    expect(assetOf(response, fx().accounts[0]?.address as Address, fx().erc20.address).price).toBeNull()
  })

  it('a feed that answers zero or less gives null', async () => {
    await setFeed(fx().chainlink.ethUsd, -1n, 0n)
    const { response } = await scan({ from: user(), to: fx().accounts[7]?.address as Address, value: '0x1' })
    expect(assetOf(response, user(), 'native').price).toBeNull()
  })

  it('renders snake_case before 2023-03-08 and camelCase after', async () => {
    const { response } = await scan({ from: user(), to: fx().accounts[7]?.address as Address, value: '0x1' })
    const legacy = renderTransactions(response, '2022-06-01', 'r') as {
      simulationResults: { expectedStateChanges: { rawInfo: { data: { asset: { price: unknown } } } }[] }
    }
    expect(legacy.simulationResults.expectedStateChanges[0]?.rawInfo.data.asset.price).toEqual({
      source: 'Chainlink',
      last_updated_at: expect.any(Number),
      dollar_value_per_token: 3000,
    })
    const current = renderTransactions(response, '2023-05-17', 'r') as {
      simulationResults: { aggregated: typeof legacy.simulationResults }
    }
    expect(current.simulationResults.aggregated.expectedStateChanges[0]?.rawInfo.data.asset.price).toEqual({
      source: 'Chainlink',
      updatedAt: expect.any(Number),
      dollarValuePerToken: 3000,
    })
  })
})

describe('a large value out for next to nothing in', () => {
  it('a swap at a fair price raises nothing', async () => {
    const { response } = await scan(v2SwapEthForTokens(fx(), user(), fx().erc20.address, parseEther('1')))
    expect(response.warnings).toEqual([])
  })

  it('a swap into a pair priced a thousand times off: TRADE_FOR_NOTHING with both dollar values', async () => {
    // A V2 pair that sells DEEP at 100 ETH a token, while its deep V3 pool says $30.
    const router = fx().uniswapV2.router
    await send(deep, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
    const addLiquidity = v2AddLiquidityEth(fx(), maker(), deep, parseEther('1'), parseEther('100'))
    await send(addLiquidity.to, addLiquidity.data as Hex, BigInt(addLiquidity.value as Hex))
    const { response } = await scan(v2SwapEthForTokens(fx(), user(), deep, parseEther('1')))
    const warning = response.warnings.find((w) => w.kind === 'TRADE_FOR_NOTHING')
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toMatch(/^You send about \$3,000\.00 and get back about \$0\.\d\d\./)
    expect(response.action).toBe('WARN')
  })
})
