/**
 * Buying a token that cannot be sold back (a honeypot), or only at a heavy tax: each fixture token is written here in
 * Solidity, given a real Uniswap V2 pair with liquidity through the devnet's router, and bought through
 * swapExactETHForTokensSupportingFeeOnTransferTokens. The scan's sell probe must warn for the honeypot, the 40 % sell
 * tax and the 25 % buy tax, and stay silent for a 2 % tax and for listed USDC. Then reality: the buy is executed and
 * sold through the real router, and the honeypot's sale reverts while the heavy tax's pays exactly what the scan said.
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
} from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { sendEth, type TxRequest, transferErc20 } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE } from '../../../src/devnet/dapp/uniswap.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { SELL_PROBE_ADDRESS } from '../../../src/engine/simulation/sellProbe.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

/**
 * An 18-decimal token with one pair: buys from the pair and sells to it pay the owner a tax (basis points), or sells
 * are refused outright (the honeypot). The owner, who adds the liquidity, is exempt.
 */
const TAXED_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

contract TaxedToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public immutable owner;
    address public pair;
    uint256 public immutable buyTax;
    uint256 public immutable sellTax;
    bool public immutable sellsRefused;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply, uint256 buyTax_, uint256 sellTax_, bool sellsRefused_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        buyTax = buyTax_;
        sellTax = sellTax_;
        sellsRefused = sellsRefused_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setPair(address pair_) external {
        require(msg.sender == owner, "not the owner");
        pair = pair_;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        move(from, to, value);
        return true;
    }

    function move(address from, address to, uint256 value) private {
        bool exempt = from == owner || to == owner;
        require(exempt || to != pair || !sellsRefused, "sells are closed");
        uint256 rate = exempt ? 0 : to == pair ? sellTax : from == pair ? buyTax : 0;
        uint256 tax = (value * rate) / 10_000;
        balanceOf[from] -= value;
        balanceOf[to] += value - tax;
        emit Transfer(from, to, value - tax);
        if (tax > 0) {
            balanceOf[owner] += tax;
            emit Transfer(from, owner, tax);
        }
    }
}
`

const routerAbi = parseAbi([
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
])
const factoryAbi = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
])
const ownerAbi = parseAbi(['function setPair(address pair)'])

/** What the pair starts with: 1,000,000 tokens against 20 ETH, so a 1 ETH buy moves the price by about a tenth. */
const POOL_TOKENS = parseEther('1000000')
const POOL_ETH = parseEther('20')

const fx = devnetRolledBackPerTest()
const account = (index: number) => fx().accounts[index]?.address as Address
const maker = () => account(5)
const buyer = () => account(1)
const client = () => devnetClient(fx().rpcUrl)

type Token = { address: Address; pair: Address }
const tokens: Record<'honeypot' | 'heavySellTax' | 'heavyBuyTax' | 'smallTax', Token> = {} as never

/** Deploys a TaxedToken from the maker and gives it a V2 pair with liquidity through the real router. */
async function launch(symbol: string, buyTax: bigint, sellTax: bigint, sellsRefused: boolean): Promise<Token> {
  const { abi, bytecode } = deployable('TaxedToken.sol', TAXED_TOKEN, 'TaxedToken')
  const send = async (hash: Promise<Hex>) => {
    const receipt = await waitForReceipt(client(), await hash)
    if (receipt.status !== 'success') throw new Error(`${symbol}: a launch step reverted`)
    return receipt
  }
  const deployed = await send(
    client().deployContract({
      account: maker(),
      abi,
      bytecode,
      args: [`${symbol} Token`, symbol, POOL_TOKENS * 2n, buyTax, sellTax, sellsRefused],
      chain: null,
    }),
  )
  const address = getAddress(deployed.contractAddress as Address)
  const { factory, router } = fx().uniswapV2
  const write = (to: Address, data: Hex, value = 0n) =>
    send(client().sendTransaction({ account: maker(), to, data, value, gas: 5_000_000n, chain: null }))
  await write(
    factory,
    encodeFunctionData({ abi: factoryAbi, functionName: 'createPair', args: [address, fx().weth.address] }),
  )
  const pair = await client().readContract({
    address: factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [address, fx().weth.address],
  })
  await write(address, encodeFunctionData({ abi: ownerAbi, functionName: 'setPair', args: [pair] }))
  await write(address, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
  const addLiquidity = encodeFunctionData({
    abi: routerAbi,
    functionName: 'addLiquidityETH',
    args: [address, POOL_TOKENS, 0n, 0n, maker(), DEADLINE],
  })
  await write(router, addLiquidity, POOL_ETH)
  return { address, pair: getAddress(pair) }
}

beforeAll(async () => {
  tokens.honeypot = await launch('HONEY', 0n, 0n, true)
  tokens.heavySellTax = await launch('TAX40', 0n, 4_000n, false)
  tokens.heavyBuyTax = await launch('BUY25', 2_500n, 0n, false)
  tokens.smallTax = await launch('FEE2', 200n, 200n, false)
}, 120_000)

/** The buyer's purchase of `token` for `value` wei through the fee-on-transfer-safe router function. */
function buy(token: Address, value: bigint): TxRequest {
  const data = encodeFunctionData({
    abi: routerAbi,
    functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
    args: [0n, [fx().weth.address, token], buyer(), DEADLINE],
  })
  return { from: buyer(), to: fx().uniswapV2.router, data, value: numberToHex(value) }
}

async function scan(tx: TxRequest, fetch?: typeof globalThis.fetch) {
  const { outcome, stats } = await scanTransactionsWithStats(scanRequest(tx), {
    rpcUrl: fx().rpcUrl,
    chainId: 31337,
    fetch,
  })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

const unsellable = (response: ScanTransactionsResponse) =>
  response.warnings.filter((warning) => warning.kind === 'TOKEN_CANNOT_BE_SOLD')
const dataOf = (warning: Warning | undefined) => warning?.data as Record<string, unknown>
const short = (address: Address) => `${address.toLowerCase().slice(0, 6)}…${address.toLowerCase().slice(-4)}`

/** The buyer approves the router and sells `amount` of `token` for ETH through it: the ETH it paid, gas aside, or the revert. */
async function sellForReal(token: Address, amount: bigint): Promise<{ reverted: boolean; ethBack: bigint }> {
  const from = buyer()
  const { router } = fx().uniswapV2
  const approval = await client().sendTransaction({
    account: from,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
    gas: 100_000n,
    chain: null,
  })
  await waitForReceipt(client(), approval)
  const before = await client().getBalance({ address: from })
  const hash = await client().sendTransaction({
    account: from,
    to: router,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
      args: [amount, 0n, [token, fx().weth.address], from, DEADLINE],
    }),
    // Fixed: an estimate would refuse to send the honeypot's sale, which is what is tested.
    gas: 1_000_000n,
    chain: null,
  })
  const receipt = await waitForReceipt(client(), hash)
  const after = await client().getBalance({ address: from })
  return {
    reverted: receipt.status !== 'success',
    ethBack: after - before + receipt.gasUsed * receipt.effectiveGasPrice,
  }
}

const balanceOf = (token: Address, owner: Address) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('buying a token that cannot be sold back, on the devnet', () => {
  it('a honeypot (sells to its pair refused): TOKEN_CANNOT_BE_SOLD, WARN; executed, the real sale reverts', async () => {
    const { address, pair } = tokens.honeypot
    const tx = buy(address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    // The first scan of a new token needs its metadata (the second call); the probe travels in the same batch.
    expect(roundTrips).toBe(2)
    expect(response.action).toBe('WARN')
    const [warning, ...others] = unsellable(response)
    expect(others).toEqual([])
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toBe(
      `You may not be able to sell HONEY (${short(address)}): selling it back to the pool it came from ` +
        `(${short(pair)}) fails in the simulation.`,
    )
    expect(dataOf(warning)).toMatchObject({
      token: address.toLowerCase(),
      pool: pair.toLowerCase(),
      failure: 'TRANSFER',
    })
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect(bought.toString()).toBe(dataOf(warning).sold)
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(true)
    expect(await balanceOf(address, buyer())).toBe(bought)
  })

  it('a 40% sell tax: WARN with the loss; executed, the real sale pays exactly what the scan said', async () => {
    const { address, pair } = tokens.heavySellTax
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    const [warning] = unsellable(response)
    const data = dataOf(warning)
    expect(data.failure).toBeNull()
    expect(data.buyTaxPercent).toBe(0)
    // A 40% tax on the tokens sent: the ETH it costs is a little less, as the untaxed sale moves the price further.
    const loss = data.sellTaxPercent as number
    expect(loss).toBeGreaterThan(38)
    expect(loss).toBeLessThanOrEqual(40)
    expect(warning?.message).toBe(
      `You may not be able to sell TAX40 (${short(address)}) for what it is worth: selling it back to the pool it ` +
        `came from (${short(pair)}) loses ${Math.round(loss)}% to the token's own tax in the simulation.`,
    )
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect(bought.toString()).toBe(data.sold)
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(false)
    expect(sale.ethBack.toString()).toBe(data.returned)
    // Untaxed, the same tokens would have fetched `untaxed`: the real sale lost what the scan said.
    expect(Number((sale.ethBack * 10_000n) / BigInt(data.untaxed as string)) / 100).toBeCloseTo(
      100 - (data.sellTaxPercent as number),
      1,
    )
  })

  it('a 25% buy tax: WARN, read from the buy itself (the pool sends more than the buyer gets)', async () => {
    const { address } = tokens.heavyBuyTax
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    const [warning] = unsellable(response)
    expect(warning?.message).toMatch(
      new RegExp(
        `^BUY25 \\(${short(address)}\\) keeps 25% of this buy as its own tax: the pool sends [\\d,.]+ BUY25 and you receive [\\d,.]+ BUY25\\.$`,
      ),
    )
    const data = dataOf(warning)
    expect(data).toMatchObject({ failure: null, buyTaxPercent: 25, sellTaxPercent: 0 })
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    expect(executed.get(`${buyer().toLowerCase()}|${address.toLowerCase()}`)?.toString()).toBe(data.sold)
  })

  it('a 2% tax each way: NONE; executed, the real sale loses about 2%', async () => {
    const { address } = tokens.smallTax
    const tx = buy(address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(2)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    const [, untaxed] = await client().readContract({
      address: fx().uniswapV2.router,
      abi: routerAbi,
      functionName: 'getAmountsOut',
      args: [bought, [address, fx().weth.address]],
    })
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(false)
    expect(Number((sale.ethBack * 10_000n) / (untaxed as bigint)) / 100).toBeCloseTo(98, 0)
  })

  it('buying listed USDC through the same router function: NONE, one round trip (no probe)', async () => {
    const tx = buy(fx().erc20.address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(1)
    expect(response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, response, tx)
  })

  it('plain transfers cost one round trip: ETH, and USDC', async () => {
    expect((await scan(sendEth(fx(), buyer()))).roundTrips).toBe(1)
    expect((await scan(transferErc20(fx(), buyer()))).roundTrips).toBe(1)
  })

  it('a second scan of a known token: the probe is the only extra round trip', async () => {
    const tx = buy(tokens.heavySellTax.address, parseEther('1'))
    await scan(tx)
    const again = await scan(tx)
    expect(again.roundTrips).toBe(2)
    expect(unsellable(again.response)).toHaveLength(1)
  })

  it('a node that fails the probe: the scan answers as without it, no warning, no error', async () => {
    const failingProbe: typeof globalThis.fetch = async (url, init) => {
      const body = JSON.parse(String(init?.body))
      const calls: { id: number; method: string; params: unknown[] }[] = Array.isArray(body) ? body : [body]
      const isProbe = (call: (typeof calls)[number]) =>
        call.method === 'eth_simulateV1' && JSON.stringify(call.params).includes(SELL_PROBE_ADDRESS.slice(2))
      const forwarded = calls.filter((call) => !isProbe(call))
      const refused = calls
        .filter(isProbe)
        .map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'header not found' } }))
      const answers = forwarded.length
        ? await (await globalThis.fetch(url, { ...init, body: JSON.stringify(forwarded) })).json()
        : []
      const all = [...answers, ...refused]
      return new Response(JSON.stringify(Array.isArray(body) ? all : all[0]), {
        headers: { 'content-type': 'application/json' },
      })
    }
    const { response } = await scan(buy(tokens.honeypot.address, parseEther('1')), failingProbe)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
  })
})
