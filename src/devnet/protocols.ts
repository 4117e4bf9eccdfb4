/**
 * The devnet's mainnet protocols, deployed from the protocols' own npm artifacts (bytecode as published, never
 * rewritten): WETH9, Uniswap V2 (factory, router, a USDC/WETH pair with liquidity), Uniswap V3 (factory, swap router,
 * position manager, a USDC/WETH pool with liquidity and a TWAP window of observations) and Chainlink-interface ETH/USD
 * and USDC/USD feeds, plus the devnet's USDC.
 *
 * One dedicated deployer, whose key is derived from a fixed phrase, deploys them in a fixed order from nonce 0, so
 * every address is the same on a fresh devnet and on a fork of any chain (where that key has never been used): the
 * engine's bundled price list names them for chain 31337.
 */
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  numberToHex,
  parseEther,
  parseUnits,
  stringToHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { Artifacts } from './compile.ts'
import { V3_FULL_RANGE_TICK } from './dapp/uniswap.ts'
import { waitForReceipt } from './receipt.ts'

const require = createRequire(import.meta.url)

type Artifact = { abi: Abi; bytecode: Hex }

/** An artifact as a protocol's npm package publishes it (Uniswap V2's builds omit the 0x). */
function npmArtifact(path: string): Artifact {
  const json = require(path) as { abi: Abi; bytecode: string }
  return { abi: json.abi, bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex }
}

/** A contract compiled from src/devnet/contracts. */
export function fixtureArtifact(name: string): Artifact {
  const artifacts: Artifacts = require('./artifacts.json')
  const artifact = artifacts[name]
  if (!artifact) throw new Error(`artifact ${name} missing: run npm run compile:contracts`)
  return artifact as Artifact
}

export const artifacts = {
  weth9: () => npmArtifact('@uniswap/v2-periphery/build/WETH9.json'),
  v2Factory: () => npmArtifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
  v2Pair: () => npmArtifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
  v2Router: () => npmArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  v3Factory: () => npmArtifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
  v3Pool: () => npmArtifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
  v3SwapRouter: () => npmArtifact('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'),
  v3PositionManager: () =>
    npmArtifact(
      '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
    ),
}

/** The protocol deployer's key: derived from a fixed phrase, so its nonces (and the addresses) start at 0 anywhere. */
export const PROTOCOL_DEPLOYER_KEY: Hex = keccak256(stringToHex('preflight devnet protocol deployer'))
export const PROTOCOL_DEPLOYER: Address = privateKeyToAccount(PROTOCOL_DEPLOYER_KEY).address

/** ETH at $3,000 and USDC at $1.00, with 8 decimals as Chainlink's USD feeds have. */
export const DEVNET_PRICES = { ethUsd: 3_000_00000000n, usdcUsd: 1_00000000n, decimals: 8 }

/** Seconds of observations the V3 pool holds before the devnet is ready: the engine's TWAP window (30 minutes). */
export const TWAP_SECONDS = 1800

/** Uniswap V3's 0.3% fee tier (tick spacing 60). */
export const V3_FEE = 3000

/** Liquidity each pool gets: 100 WETH against 300,000 USDC, the feeds' price. */
const POOL_WETH = parseEther('100')
const POOL_USDC = parseUnits('300000', 6)

/** What the protocol deployment adds to the fixtures file. */
export type ProtocolFixtures = {
  erc20: { address: Address; name: string; symbol: string; decimals: number }
  weth: { address: Address; name: string; symbol: string; decimals: number }
  chainlink: { ethUsd: Address; usdcUsd: Address; decimals: number }
  uniswapV2: { factory: Address; router: Address; pair: Address; initCodeHash: Hex }
  uniswapV3: {
    factory: Address
    swapRouter: Address
    positionManager: Address
    pool: Address
    fee: number
    initCodeHash: Hex
    /** The position manager's token id of the liquidity `liquidityProvider` holds. */
    positionId: string
  }
  /** Who holds the V2 LP tokens and the V3 position the demo removes liquidity from (dev account 0). */
  liquidityProvider: Address
  protocolDeployer: Address
}

/** Order of the deployer's creations: each contract's address is the deployer's address at that nonce. */
const NONCE = {
  usdc: 0,
  weth: 1,
  ethUsd: 2,
  usdcUsd: 3,
  v2Factory: 4,
  v2Router: 5,
  v3Factory: 6,
  v3SwapRouter: 7,
  v3PositionManager: 8,
} as const

/** Where each protocol contract is on any devnet (fresh or forked), from the deployer's nonces. */
export function protocolAddress(name: keyof typeof NONCE): Address {
  return getContractAddress({ from: PROTOCOL_DEPLOYER, nonce: BigInt(NONCE[name]) })
}

/** USDC the deployer keeps beyond the pools' share, to fund each devnet's holders (a fork of a devnet funds anew). */
const USDC_RESERVE = parseUnits('100000000', 6)

type Clients = {
  publicClient: ReturnType<typeof createPublicClient>
  deployer: ReturnType<typeof createWalletClient>
  provider: ReturnType<typeof createWalletClient>
}

/**
 * Deploys USDC, WETH9, the feeds and both Uniswaps with liquidity — or, on a fork of a devnet, finds them already
 * there — then funds `usdcHolders` and gives `liquidityProvider` a tenth of the V2 LP tokens (with the router allowed
 * to take them back) and the V3 position.
 */
export async function deployProtocols(
  rpcUrl: string,
  options: {
    usdcHolders: { address: Address; amount: bigint }[]
    liquidityProvider: { address: Address; privateKey: Hex }
  },
): Promise<ProtocolFixtures> {
  const transport = http(rpcUrl, { batch: false })
  const clients: Clients = {
    publicClient: createPublicClient({ chain: foundry, transport, pollingInterval: 5 }),
    deployer: createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(PROTOCOL_DEPLOYER_KEY) }),
    provider: createWalletClient({
      chain: foundry,
      transport,
      account: privateKeyToAccount(options.liquidityProvider.privateKey),
    }),
  }
  const { publicClient } = clients
  await publicClient.request({
    method: 'anvil_setBalance',
    params: [PROTOCOL_DEPLOYER, numberToHex(parseEther('1000000'))],
  } as never)
  const nonce = await publicClient.getTransactionCount({ address: PROTOCOL_DEPLOYER })
  if (nonce === 0) await deployAll(clients, options.liquidityProvider.address)
  else if (!(await publicClient.getCode({ address: protocolAddress('v3PositionManager') }))) {
    throw new Error(
      `the protocol deployer ${PROTOCOL_DEPLOYER} has sent ${nonce} transactions on this chain but its contracts are not there`,
    )
  }
  const usdc = protocolAddress('usdc')
  const usdcAbi = fixtureArtifact('DevUSD').abi
  for (const holder of options.usdcHolders) {
    await send(clients, clients.deployer, usdc, usdcAbi, 'transfer', [holder.address, holder.amount])
  }
  const lp = options.liquidityProvider.address
  const v2Factory = protocolAddress('v2Factory')
  const v3Factory = protocolAddress('v3Factory')
  const weth = protocolAddress('weth')
  const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    publicClient.readContract({ address, abi, functionName, args })
  const pairAbi = artifacts.v2Pair().abi
  const pair = getAddress((await read(v2Factory, artifacts.v2Factory().abi, 'getPair', [usdc, weth])) as Address)
  const lpTokens = (await read(pair, pairAbi, 'balanceOf', [PROTOCOL_DEPLOYER])) as bigint
  await send(clients, clients.deployer, pair, pairAbi, 'transfer', [lp, lpTokens / 10n])
  await send(clients, clients.provider, pair, pairAbi, 'approve', [protocolAddress('v2Router'), maxUint256])
  const pool = getAddress(
    (await read(v3Factory, artifacts.v3Factory().abi, 'getPool', [usdc, weth, V3_FEE])) as Address,
  )
  const manager = protocolAddress('v3PositionManager')
  const positionId = (await read(manager, artifacts.v3PositionManager().abi, 'tokenOfOwnerByIndex', [lp, 0n])) as bigint
  return {
    erc20: { address: usdc, name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    weth: { address: weth, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 },
    chainlink: {
      ethUsd: protocolAddress('ethUsd'),
      usdcUsd: protocolAddress('usdcUsd'),
      decimals: DEVNET_PRICES.decimals,
    },
    uniswapV2: {
      factory: v2Factory,
      router: protocolAddress('v2Router'),
      pair,
      initCodeHash: keccak256(artifacts.v2Pair().bytecode),
    },
    uniswapV3: {
      factory: v3Factory,
      swapRouter: protocolAddress('v3SwapRouter'),
      positionManager: manager,
      pool,
      fee: V3_FEE,
      initCodeHash: keccak256(artifacts.v3Pool().bytecode),
      positionId: positionId.toString(),
    },
    liquidityProvider: lp,
    protocolDeployer: PROTOCOL_DEPLOYER,
  }
}

/** Sends one contract call and waits for it to succeed. */
async function send(
  { publicClient }: Clients,
  from: Clients['deployer'],
  to: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
  value = 0n,
) {
  const data = encodeFunctionData({ abi, functionName, args })
  // A fixed gas limit (creating a V3 pool takes about 5M): Uniswap V3's gas depends on the block time (an oracle
  // observation is written once per second), so an estimate made one block earlier can fall short.
  const hash = await from.sendTransaction({
    to,
    value,
    data,
    gas: 10_000_000n,
    account: from.account ?? null,
    chain: foundry,
  })
  const receipt = await waitForReceipt(publicClient, hash)
  if (receipt.status !== 'success') throw new Error(`protocol transaction ${functionName} (${hash}) reverted`)
  return receipt
}

/** The deployer's contracts in nonce order, the pools with liquidity, and a TWAP window of pool history. */
async function deployAll(clients: Clients, liquidityProvider: Address): Promise<void> {
  const { publicClient, deployer } = clients
  const deploy = async (name: keyof typeof NONCE, artifact: Artifact, args: unknown[] = []) => {
    const hash = await deployer.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
      account: deployer.account ?? null,
      chain: foundry,
    })
    const receipt = await waitForReceipt(publicClient, hash)
    const expected = protocolAddress(name)
    if (receipt.status !== 'success' || !receipt.contractAddress || getAddress(receipt.contractAddress) !== expected) {
      throw new Error(`${name} was not deployed at ${expected} (${receipt.status}, ${receipt.contractAddress})`)
    }
    return expected
  }
  const call = (to: Address, abi: Abi, functionName: string, args: unknown[], value = 0n) =>
    send(clients, deployer, to, abi, functionName, args, value)

  const usdcArtifact = fixtureArtifact('DevUSD')
  const usdc = await deploy('usdc', usdcArtifact, [[PROTOCOL_DEPLOYER], [POOL_USDC * 2n + USDC_RESERVE]])
  const weth9 = artifacts.weth9()
  const weth = await deploy('weth', weth9)
  const feed = fixtureArtifact('DevPriceFeed')
  await deploy('ethUsd', feed, [DEVNET_PRICES.decimals, 'ETH / USD', DEVNET_PRICES.ethUsd])
  await deploy('usdcUsd', feed, [DEVNET_PRICES.decimals, 'USDC / USD', DEVNET_PRICES.usdcUsd])
  const v2Factory = await deploy('v2Factory', artifacts.v2Factory(), [PROTOCOL_DEPLOYER])
  const v2RouterArtifact = artifacts.v2Router()
  const v2Router = await deploy('v2Router', v2RouterArtifact, [v2Factory, weth])
  const v3Factory = await deploy('v3Factory', artifacts.v3Factory())
  await deploy('v3SwapRouter', artifacts.v3SwapRouter(), [v3Factory, weth])
  const managerArtifact = artifacts.v3PositionManager()
  // No token descriptor: tokenURI is for NFT art, which no scan reads.
  const manager = await deploy('v3PositionManager', managerArtifact, [v3Factory, weth, zeroAddress])

  const deadline = 2n ** 48n
  // Uniswap V2: 100 WETH and 300,000 USDC.
  await call(usdc, usdcArtifact.abi, 'approve', [v2Router, maxUint256])
  const addLiquidity = [usdc, POOL_USDC, 0n, 0n, PROTOCOL_DEPLOYER, deadline]
  await call(v2Router, v2RouterArtifact.abi, 'addLiquidityETH', addLiquidity, POOL_WETH)

  // Uniswap V3: the same price over the full range, room for observations, then a TWAP window of history.
  const usdcFirst = usdc.toLowerCase() < weth.toLowerCase()
  const [token0, token1] = usdcFirst ? [usdc, weth] : [weth, usdc]
  const [amount0, amount1] = usdcFirst ? [POOL_USDC, POOL_WETH] : [POOL_WETH, POOL_USDC]
  const create = [token0, token1, V3_FEE, sqrtPriceX96Of(amount1, amount0)]
  await call(manager, managerArtifact.abi, 'createAndInitializePoolIfNecessary', create)
  const pool = (await publicClient.readContract({
    address: v3Factory,
    abi: artifacts.v3Factory().abi,
    functionName: 'getPool',
    args: [usdc, weth, V3_FEE],
  })) as Address
  await call(pool, artifacts.v3Pool().abi, 'increaseObservationCardinalityNext', [64])
  await call(weth, weth9.abi, 'deposit', [], POOL_WETH)
  await call(weth, weth9.abi, 'approve', [manager, maxUint256])
  await call(usdc, usdcArtifact.abi, 'approve', [manager, maxUint256])
  const position = {
    token0,
    token1,
    fee: V3_FEE,
    tickLower: -V3_FULL_RANGE_TICK,
    tickUpper: V3_FULL_RANGE_TICK,
    amount0Desired: amount0,
    amount1Desired: amount1,
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: liquidityProvider,
    deadline,
  }
  await call(manager, managerArtifact.abi, 'mint', [position])
  await publicClient.request({ method: 'evm_increaseTime', params: [numberToHex(TWAP_SECONDS)] } as never)
  await publicClient.request({ method: 'evm_mine', params: [] } as never)
}

/** Uniswap V3's sqrt(price) in Q64.96 for a pool holding `amount1` of token1 against `amount0` of token0. */
export function sqrtPriceX96Of(amount1: bigint, amount0: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0)
}

function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}
