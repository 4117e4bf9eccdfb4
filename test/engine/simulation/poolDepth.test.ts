/**
 * The PoolDepth probe the price reads place: its committed runtime code is its source compiled, and what it says a
 * Uniswap V3 pool pays for a token within 5% of its price is what a real sale stopped at that price is paid.
 */
import { readFileSync } from 'node:fs'
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256, parseAbi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEADLINE, swapRouterAbi } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import {
  POOL_DEPTH_ADDRESS,
  POOL_DEPTH_CODE,
  type PoolDepth,
  poolDepthRead,
} from '../../../src/engine/simulation/poolDepthRead.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { INJECTED_SETTINGS, runtimeCode } from '../../support/solc.ts'
import { devnetClient } from '../protocolSupport.ts'

const SOURCE = new URL('../../../src/engine/simulation/PoolDepth.sol', import.meta.url)
const poolAbi = parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)'])
const wethAbi = parseAbi(['function deposit() payable'])

describe('PoolDepth', () => {
  it('is PoolDepth.sol compiled (solc 0.8.28, optimizer 200, evm paris, no metadata)', () => {
    const source = readFileSync(SOURCE, 'utf8')
    expect(runtimeCode('PoolDepth.sol', source, 'PoolDepth', INJECTED_SETTINGS)).toBe(POOL_DEPTH_CODE)
  }, 60_000)

  describe('on the devnet', () => {
    let devnet: Devnet
    const fx = () => devnet.fixtures
    const client = () => devnetClient(fx().rpcUrl)
    const seller = () => fx().accounts[5]?.address as Address

    beforeAll(async () => {
      devnet = await startTestDevnet()
    })
    afterAll(() => devnet?.stop())

    async function probe(pool: Address, token: Address): Promise<PoolDepth> {
      const read = poolDepthRead('depth', pool, token)
      const { data } = await client().call({
        to: read.to,
        data: read.data,
        stateOverride: [{ address: POOL_DEPTH_ADDRESS, code: POOL_DEPTH_CODE }],
      })
      return read.decode(data as Hex) as PoolDepth
    }

    async function send(to: Address, data: Hex, value = 0n) {
      const hash = await client().sendTransaction({ account: seller(), to, data, value, chain: null })
      expect((await waitForReceipt(client(), hash)).status).toBe('success')
    }

    it('says what a real sale of WETH stopped 5% below the price is paid, in USDC, and changes nothing', async () => {
      const { pool } = fx().uniswapV3
      const weth = fx().weth.address
      const usdc = fx().erc20.address
      const [sqrtPrice, tick] = await client().readContract({ address: pool, abi: poolAbi, functionName: 'slot0' })
      const depth = await probe(pool, weth)
      expect(depth).toMatchObject({ live: true, tick })
      expect(depth.paid).toBeGreaterThan(0n)
      const [after] = await client().readContract({ address: pool, abi: poolAbi, functionName: 'slot0' })
      expect(after).toBe(sqrtPrice)

      // The same sale for real: more WETH than the band takes, stopped where the probe stops (sqrt(0.95) of the
      // sqrt price in the direction a WETH sale moves it).
      const router = fx().uniswapV3.swapRouter
      const wethIsToken0 = weth.toLowerCase() < usdc.toLowerCase()
      const limit = wethIsToken0 ? (sqrtPrice * 974_679n) / 1_000_000n : (sqrtPrice * 1_025_978n) / 1_000_000n
      const amountIn = parseEther('50')
      await send(weth, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), amountIn)
      await send(weth, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
      const balance = () =>
        client().readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [seller()] })
      const before = await balance()
      const params = {
        tokenIn: weth,
        tokenOut: usdc,
        fee: fx().uniswapV3.fee,
        recipient: seller(),
        deadline: DEADLINE,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: limit,
      }
      await send(router, encodeFunctionData({ abi: swapRouterAbi, functionName: 'exactInputSingle', args: [params] }))
      expect((await balance()) - before).toBe(depth.paid)
    })

    it('a pool of other tokens, or an address without code, is no pool of the token', async () => {
      expect((await probe(fx().uniswapV3.pool, fx().accounts[7]?.address as Address)).live).toBe(false)
      expect((await probe(fx().accounts[7]?.address as Address, fx().weth.address)).live).toBe(false)
    })
  })
})
