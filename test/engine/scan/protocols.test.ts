/**
 * Real protocols on the devnet (Uniswap V2 and V3 from their npm artifacts, WETH9): each scenario is scanned, then
 * executed for real, and every account's balance deltas must equal the scan's state changes (gas aside).
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approveErc20, type TxRequest } from '../../../src/devnet/dapp/requests.ts'
import {
  positionManagerAbi,
  v2AddLiquidityEth,
  v2RemoveLiquidityEth,
  v2SwapEthForTokens,
  v2SwapTokensForEth,
  v3DecreaseAndCollect,
  v3MintWithEth,
  v3SwapEthForUsdc,
} from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const wethAbi = parseAbi(['function deposit() payable', 'function withdraw(uint256 wad)'])

let devnet: Devnet
let rpcUrl: string

beforeAll(async () => {
  devnet = await startTestDevnet()
  rpcUrl = devnet.fixtures.rpcUrl
})
afterAll(async () => {
  await devnet?.stop()
})

const fx = () => devnet.fixtures
const account = (index: number) => fx().accounts[index]?.address as Address

/** Scans `tx` on the devnet (chain known, as the extension and server know it) and checks the response's shape. */
async function scan(tx: TxRequest): Promise<{ response: ScanTransactionsResponse; roundTrips: number }> {
  const { outcome, stats } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl, chainId: 31337 })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

const userChanges = (response: ScanTransactionsResponse, user: Address) =>
  response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []

/** The user's transfers by asset symbol, each with where its price came from (null: no price). */
const priceSourcesOf = (response: ScanTransactionsResponse, user: Address) =>
  Object.fromEntries(
    userChanges(response, user).flatMap(({ rawInfo }) =>
      rawInfo.kind === 'NATIVE_ASSET_TRANSFER' || rawInfo.kind === 'ERC20_TRANSFER'
        ? [[rawInfo.data.asset.symbol, rawInfo.data.asset.price?.source ?? null]]
        : [],
    ),
  )

describe('real protocols: scanned, then executed, balances compared', () => {
  it('Uniswap V2: swap 1 ETH for USDC in one round trip, both priced, every balance as claimed', async () => {
    const tx = v2SwapEthForTokens(fx(), account(1), fx().erc20.address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(1)
    expect(response.action).toBe('NONE')
    const diffs = userChanges(response, tx.from).map((change) => change.humanReadableDiff)
    expect(diffs).toContain('Send 1 ETH')
    expect(diffs.some((diff) => /^Receive 2,9\d\d\.\d+ USDC$/.test(diff))).toBe(true)
    expect(priceSourcesOf(response, tx.from)).toEqual({ ETH: 'Chainlink', USDC: 'Chainlink' })
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${fx().uniswapV2.pair.toLowerCase()}|${fx().weth.address.toLowerCase()}`)).toBe(
      parseEther('1'),
    )
  })

  it('Uniswap V3: swap 1 ETH for USDC through exactInputSingle in one round trip, both priced, as claimed', async () => {
    const tx = v3SwapEthForUsdc(fx(), account(1), parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(1)
    expect(response.action).toBe('NONE')
    expect(priceSourcesOf(response, tx.from)).toEqual({ ETH: 'Chainlink', USDC: 'Chainlink' })
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${fx().uniswapV3.pool.toLowerCase()}|${fx().weth.address.toLowerCase()}`)).toBe(
      parseEther('1'),
    )
  })

  it('approve the V2 router, then swap USDC for ETH: both as claimed', async () => {
    const from = account(1)
    const approve = approveErc20(fx(), from, fx().uniswapV2.router)
    const approval = await scan(approve)
    expect(userChanges(approval.response, from).map((change) => change.rawInfo.kind)).toEqual(['ERC20_APPROVAL'])
    await expectRealityMatches(rpcUrl, approval.response, approve)
    const swap = v2SwapTokensForEth(fx(), from, fx().erc20.address, parseUnits('1000', 6))
    const { response } = await scan(swap)
    expect(response.action).toBe('NONE')
    await expectRealityMatches(rpcUrl, response, swap)
  })

  it('Uniswap V2: add liquidity with ETH and USDC, LP tokens minted as claimed', async () => {
    const from = account(0)
    const client = devnetClient(rpcUrl)
    const approved = await client.writeContract({
      account: from,
      address: fx().erc20.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    const tx = v2AddLiquidityEth(fx(), from, fx().erc20.address, parseUnits('3000', 6), parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('NONE')
    const kinds = userChanges(response, from).map((change) => change.humanReadableDiff.split(' ')[0])
    expect(kinds).toEqual(expect.arrayContaining(['Send', 'Receive']))
    await expectRealityMatches(rpcUrl, response, tx)
  })

  it('Uniswap V2: remove liquidity — LP tokens go to the pair, which burns them: no warning, balances as claimed', async () => {
    const from = account(0)
    const client = devnetClient(rpcUrl)
    const lp = await client.readContract({
      address: fx().uniswapV2.pair,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [from],
    })
    const tx = v2RemoveLiquidityEth(fx(), from, fx().erc20.address, lp / 2n)
    const { response } = await scan(tx)
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    await expectRealityMatches(rpcUrl, response, tx)
  })

  it('Uniswap V3: take liquidity out of the position (decrease + collect in one multicall), as claimed', async () => {
    const from = account(0)
    const client = devnetClient(rpcUrl)
    const position = await client.readContract({
      address: fx().uniswapV3.positionManager,
      abi: positionManagerAbi,
      functionName: 'positions',
      args: [BigInt(fx().uniswapV3.positionId)],
    })
    const tx = v3DecreaseAndCollect(fx(), from, position[7] / 10n)
    const { response } = await scan(tx)
    expect(response.action).toBe('NONE')
    const received = userChanges(response, from).map((change) => change.humanReadableDiff)
    expect(received.some((diff) => diff.startsWith('Receive') && diff.endsWith('USDC'))).toBe(true)
    expect(received.some((diff) => diff.startsWith('Receive') && diff.endsWith('WETH'))).toBe(true)
    await expectRealityMatches(rpcUrl, response, tx)
  })

  it('Uniswap V3: a new position minted to the user, and one minted to another account: the NFT comes from no one (counterparty null, the key the reference requires), as claimed', async () => {
    const from = account(0)
    const approve = approveErc20(fx(), from, fx().uniswapV3.positionManager)
    const client = devnetClient(rpcUrl)
    await waitForReceipt(
      client,
      await client.sendTransaction({ account: from, to: approve.to, data: approve.data, chain: null }),
    )
    const nftOf = (response: ScanTransactionsResponse, holder: Address) =>
      userChanges(response, holder).find((change) => change.rawInfo.kind === 'ERC721_TRANSFER')?.rawInfo
    const own = v3MintWithEth(fx(), from, parseEther('0.1'), parseUnits('1000', 6), from)
    const mine = (await scan(own)).response
    expect(mine.action).toBe('NONE')
    expect(nftOf(mine, from)).toMatchObject({ kind: 'ERC721_TRANSFER', data: { counterparty: null } })
    await expectRealityMatches(rpcUrl, mine, own)
    const other = account(3)
    const gift = v3MintWithEth(fx(), from, parseEther('0.1'), parseUnits('1000', 6), other)
    const given = (await scan(gift)).response
    expect(nftOf(given, other)).toMatchObject({ kind: 'ERC721_TRANSFER', data: { counterparty: null } })
    await expectRealityMatches(rpcUrl, given, gift)
  })

  it('WETH9: wrap and unwrap, as claimed', async () => {
    const from = account(2)
    const wrap: TxRequest = {
      from,
      to: fx().weth.address,
      data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
      value: numberToHex(parseEther('2')),
    }
    const wrapped = await scan(wrap)
    expect(userChanges(wrapped.response, from).map((change) => change.humanReadableDiff)).toEqual([
      'Send 2 ETH',
      'Receive 2 WETH',
    ])
    await expectRealityMatches(rpcUrl, wrapped.response, wrap)
    const unwrap: TxRequest = {
      from,
      to: fx().weth.address,
      data: encodeFunctionData({ abi: wethAbi, functionName: 'withdraw', args: [parseEther('1.5')] }),
    }
    const unwrapped = await scan(unwrap)
    await expectRealityMatches(rpcUrl, unwrapped.response, unwrap)
  })
})
