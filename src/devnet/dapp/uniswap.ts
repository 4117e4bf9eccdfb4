/**
 * The Uniswap requests of the demo dapp, built against the devnet's real Uniswap V2 and V3 deployments: the page's
 * buttons, the real-protocol tests and the benchmark send exactly these.
 */
import { type Address, encodeFunctionData, maxUint128, numberToHex, parseAbi } from 'viem'
import type { Fixtures } from '../fixtures.ts'
import type { TxRequest } from './requests.ts'

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
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'function refundETH() payable',
])

/** Far in the future, so a request built now never expires, whatever the devnet's clock says. */
export const DEADLINE = 2n ** 40n

/** The widest range a position in a 60-spaced pool can take, so the pool prices at every tick. */
export const V3_FULL_RANGE_TICK = 887_220

/** Swaps `value` wei of ETH for `token` through the V2 router (the WETH/token pair), paid to `from`, any price. */
export function v2SwapEthForTokens(fixtures: Fixtures, from: Address, token: Address, value: bigint): TxRequest {
  const data = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [fixtures.weth.address, token], from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data, value: numberToHex(value) }
}

/** Swaps `amount` of `token` for ETH through the V2 router; the router must be approved for it first. */
export function v2SwapTokensForEth(fixtures: Fixtures, from: Address, token: Address, amount: bigint): TxRequest {
  const data = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'swapExactTokensForETH',
    args: [amount, 0n, [token, fixtures.weth.address], from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data }
}

/** Swaps `value` wei of ETH for USDC through the V3 swap router's exactInputSingle (the router wraps the ETH). */
export function v3SwapEthForUsdc(fixtures: Fixtures, from: Address, value: bigint): TxRequest {
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
  return { from, to: fixtures.uniswapV3.swapRouter, data, value: numberToHex(value) }
}

/**
 * Adds `value` wei of ETH and up to `amount` of `token` to the V2 pair, LP tokens to `from`; the router takes the
 * token at the pair's ratio (and refunds unused ETH), so it must be approved for `amount` first.
 */
export function v2AddLiquidityEth(
  fixtures: Fixtures,
  from: Address,
  token: Address,
  amount: bigint,
  value: bigint,
): TxRequest {
  const data = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'addLiquidityETH',
    args: [token, amount, 0n, 0n, from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data, value: numberToHex(value) }
}

/** Burns `liquidity` of `from`'s LP tokens of the V2 token/WETH pair for the token and ETH; the router must be approved for them. */
export function v2RemoveLiquidityEth(fixtures: Fixtures, from: Address, token: Address, liquidity: bigint): TxRequest {
  const data = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'removeLiquidityETH',
    args: [token, liquidity, 0n, 0n, from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data }
}

/** Takes `liquidity` out of the devnet's V3 position and collects everything it is owed to `from`, in one multicall. */
export function v3DecreaseAndCollect(fixtures: Fixtures, from: Address, liquidity: bigint): TxRequest {
  const tokenId = BigInt(fixtures.uniswapV3.positionId)
  const calls = [
    encodeFunctionData({
      abi: positionManagerAbi,
      functionName: 'decreaseLiquidity',
      args: [{ tokenId, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }],
    }),
    encodeFunctionData({
      abi: positionManagerAbi,
      functionName: 'collect',
      args: [{ tokenId, recipient: from, amount0Max: maxUint128, amount1Max: maxUint128 }],
    }),
  ]
  const data = encodeFunctionData({ abi: positionManagerAbi, functionName: 'multicall', args: [calls] })
  return { from, to: fixtures.uniswapV3.positionManager, data }
}

/**
 * Opens a new full-range position in the devnet's V3 pool for `recipient` with `value` wei of ETH (wrapped by the
 * position manager) and up to `usdc` of USDC, refunding unused ETH in the same multicall; the manager must be approved
 * for the USDC first.
 */
export function v3MintWithEth(
  fixtures: Fixtures,
  from: Address,
  value: bigint,
  usdc: bigint,
  recipient: Address,
): TxRequest {
  const weth = fixtures.weth.address
  const usdcAddress = fixtures.erc20.address
  const wethFirst = BigInt(weth) < BigInt(usdcAddress)
  const mint = encodeFunctionData({
    abi: positionManagerAbi,
    functionName: 'mint',
    args: [
      {
        token0: wethFirst ? weth : usdcAddress,
        token1: wethFirst ? usdcAddress : weth,
        fee: fixtures.uniswapV3.fee,
        tickLower: -V3_FULL_RANGE_TICK,
        tickUpper: V3_FULL_RANGE_TICK,
        amount0Desired: wethFirst ? value : usdc,
        amount1Desired: wethFirst ? usdc : value,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient,
        deadline: DEADLINE,
      },
    ],
  })
  const refund = encodeFunctionData({ abi: positionManagerAbi, functionName: 'refundETH' })
  const data = encodeFunctionData({ abi: positionManagerAbi, functionName: 'multicall', args: [[mint, refund]] })
  return { from, to: fixtures.uniswapV3.positionManager, data, value: numberToHex(value) }
}
