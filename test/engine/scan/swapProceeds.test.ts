/**
 * Swaps through honest routers whose output is paid to another address: Uniswap V2's router and V3's SwapRouter (the
 * devnet's, from their npm artifacts), the Universal Router over both, a route of two V2 pairs, and a router of an
 * interface that takes a fee. Each is
 * scanned, then executed, and the address and amount the scan names must be what that address received.
 */
import {
  type Address,
  createTestClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  numberToHex,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { beforeEach, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE, routerV2Abi, v2SwapEthForTokens, v3SwapEthForUsdc } from '../../../src/devnet/dapp/uniswap.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { ownersExecution } from '../../support/safeExecution.ts'
import { runtimeCode } from '../../support/solc.ts'
import { launchTaxedToken } from '../../support/taxedTokens.ts'
import { deployUniversalRouter, MSG_SENDER, universalRouterSwapEthForUsdc } from '../../support/universalRouter.ts'
import { devnetClient } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const account = (index: number) => fx().accounts[index]?.address as Address
const user = () => account(0)
const attacker = () => account(7)
const client = () => devnetClient(fx().rpcUrl)
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()

const tokensRouterAbi = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])

async function scan(txs: TxRequest[], userAccount: Address = user()): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(
    {
      txObjects: txs.map((tx) => ({
        from: tx.from,
        to: tx.to,
        data: tx.data ?? '0x',
        value: BigInt(tx.value ?? 0).toString(),
      })),
      userAccount,
      metadata: { origin: 'https://swap.example' },
    },
    { rpcUrl: fx().rpcUrl, chainId: 31337 },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

const proceedsWarnings = (response: ScanTransactionsResponse) =>
  response.warnings.filter((warning) => warning.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')

/** Sends each request for real and returns what `holder` gained of `token` ('native': ether). */
async function executeAndMeasure(txs: TxRequest[], holder: Address, token: Address | 'native'): Promise<bigint> {
  const balance = () =>
    token === 'native'
      ? client().getBalance({ address: holder })
      : client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })
  const before = await balance()
  for (const tx of txs) {
    const hash = await client().sendTransaction({
      account: tx.from,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value ?? 0),
      gas: 3_000_000n,
      chain: null,
    })
    expect((await waitForReceipt(client(), hash)).status).toBe('success')
  }
  return (await balance()) - before
}

/** The one proceeds warning: says it names `recipient`, and its data's amount is what `recipient` gets for real. */
async function expectPaidTo(
  response: ScanTransactionsResponse,
  txs: TxRequest[],
  recipient: Address,
  token: Address | 'native',
  symbol: string,
): Promise<void> {
  expect(response.action).toBe('WARN')
  // The pool that pays the recipient is no hidden wallet of a drainer: the proceeds warning says it all.
  expect(response.warnings.map((warning) => warning.kind)).toEqual(['TRADE_PROCEEDS_TO_OTHER_ADDRESS'])
  const [warning] = response.warnings
  if (!warning) throw new Error('no proceeds warning')
  expect(warning.severity).toBe('WARNING')
  expect(warning.message).toMatch(new RegExp(`[\\d,.]+ ${symbol}(?: it pays out)? to ${short(recipient)}, not to you`))
  expect(warning.data).toMatchObject({ recipient: recipient.toLowerCase() })
  const amount = BigInt((warning.data as { amount: string }).amount)
  expect(amount).toBeGreaterThan(0n)
  expect(await executeAndMeasure(txs, recipient, token)).toBe(amount)
}

function v2SwapTokensForEthTo(from: Address, amount: bigint, to: Address): TxRequest[] {
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [fx().uniswapV2.router, amount] })
  const swap = encodeFunctionData({
    abi: routerV2Abi,
    functionName: 'swapExactTokensForETH',
    args: [amount, 0n, [fx().erc20.address, fx().weth.address], to, DEADLINE],
  })
  return [
    { from, to: fx().erc20.address, data: approve },
    { from, to: fx().uniswapV2.router, data: swap },
  ]
}

/** `tx` with its swap's recipient (the user, encoded as `to`/`recipient`) replaced by `other`. */
const paying = (tx: TxRequest, other: Address): TxRequest => ({
  ...tx,
  data: tx.data?.replace(tx.from.slice(2).toLowerCase(), other.slice(2).toLowerCase()) as Hex,
})

describe('swaps through Uniswap’s routers', () => {
  it('V2 swapExactETHForTokens paying the user: NONE', async () => {
    const response = await scan([v2SwapEthForTokens(fx(), user(), fx().erc20.address, parseEther('1'))])
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
  })

  it('V2 swapExactETHForTokens paying another address: WARN naming it, and it receives the USDC', async () => {
    const tx = paying(v2SwapEthForTokens(fx(), user(), fx().erc20.address, parseEther('1')), attacker())
    const response = await scan([tx])
    await expectPaidTo(response, [tx], attacker(), fx().erc20.address, 'USDC')
  })

  it('V2 swapExactETHForTokens paying another account the request also sends from: no proceeds warning', async () => {
    const mine = account(1)
    const txs = [
      { from: mine, to: user(), value: numberToHex(parseEther('0.1')) },
      paying(v2SwapEthForTokens(fx(), user(), fx().erc20.address, parseEther('1')), mine),
    ]
    expect(proceedsWarnings(await scan(txs))).toEqual([])
    expect(proceedsWarnings(await scan(txs.slice(1)))).toHaveLength(1)
  })

  it('V3 exactInputSingle paying the user: NONE; paying another address: WARN, and it receives the USDC', async () => {
    const honest = v3SwapEthForUsdc(fx(), user(), parseEther('1'))
    expect((await scan([honest])).warnings).toEqual([])
    const tx = paying(honest, attacker())
    await expectPaidTo(await scan([tx]), [tx], attacker(), fx().erc20.address, 'USDC')
  })

  it('V2 swapExactTokensForETH (the router unwraps WETH): to the user nothing, to another address WARN in ETH', async () => {
    const amount = parseUnits('1000', 6)
    expect(proceedsWarnings(await scan(v2SwapTokensForEthTo(user(), amount, user())))).toEqual([])
    const txs = v2SwapTokensForEthTo(user(), amount, attacker())
    await expectPaidTo(await scan(txs), txs, attacker(), 'native', 'ETH')
  })
})

describe('swaps through the Universal Router, as the Uniswap interface sends them', () => {
  for (const pool of ['v2', 'v3'] as const) {
    it(`WRAP_ETH, then a ${pool} exact-in swap: to the caller NONE (and it pays them); to another address WARN, and it receives the USDC`, async () => {
      const router = await deployUniversalRouter(fx(), account(8))
      const swap = (recipient: Address) =>
        universalRouterSwapEthForUsdc(fx(), router, user(), parseEther('1'), recipient, pool)
      const honest = await scan([swap(MSG_SENDER)])
      expect(honest.warnings).toEqual([])
      expect(honest.action).toBe('NONE')
      const tx = swap(attacker())
      await expectPaidTo(await scan([tx]), [tx], attacker(), fx().erc20.address, 'USDC')
      expect(await executeAndMeasure([swap(MSG_SENDER)], user(), fx().erc20.address)).toBeGreaterThan(0n)
    })
  }
})

describe('routes and fees', () => {
  let token: Address

  beforeEach(async () => {
    token = (await launchTaxedToken(fx(), account(9), 'ROUTE', {})).address
  })

  /** USDC → WETH → ROUTE over two V2 pairs, paid to `to`: the first pair pays the second, the second pays `to`. */
  function twoHops(to: Address): TxRequest[] {
    const amount = parseUnits('1000', 6)
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, amount],
    })
    const swap = encodeFunctionData({
      abi: tokensRouterAbi,
      functionName: 'swapExactTokensForTokens',
      args: [amount, 0n, [fx().erc20.address, fx().weth.address, token], to, DEADLINE],
    })
    return [
      { from: user(), to: fx().erc20.address, data: approve },
      { from: user(), to: fx().uniswapV2.router, data: swap },
    ]
  }

  it('a two-pair route paying the user: no proceeds warning', async () => {
    expect(proceedsWarnings(await scan(twoHops(user())))).toEqual([])
  })

  it('a two-pair route into a token without a price, paying another address: WARN, as it receives', async () => {
    const txs = twoHops(attacker())
    await expectPaidTo(await scan(txs), txs, attacker(), token, 'ROUTE')
  })

  /** An interface's router: swaps through the V2 router to itself, pays `feeBps` of the output to `feeTo`, the rest to `to`. */
  const FEE_ROUTER: Address = '0x00000000000000000000000000000000000fee01'
  const feeRouterSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IRouter {
    function swapExactETHForTokens(uint256, address[] calldata, address, uint256) external payable returns (uint256[] memory);
}
interface IToken { function transfer(address, uint256) external returns (bool); }
contract FeeRouter {
    function swap(address router, address[] calldata path, address to, address feeTo, uint256 feeBps) external payable {
        uint256[] memory amounts = IRouter(router).swapExactETHForTokens{value: msg.value}(0, path, address(this), type(uint256).max);
        uint256 out = amounts[amounts.length - 1];
        uint256 fee = out * feeBps / 10000;
        IToken(path[path.length - 1]).transfer(feeTo, fee);
        IToken(path[path.length - 1]).transfer(to, out - fee);
    }
}`
  const feeRouterAbi = parseAbi([
    'function swap(address router, address[] path, address to, address feeTo, uint256 feeBps) payable',
  ])

  async function feeSwap(feeTo: Address, feeBps: bigint): Promise<TxRequest> {
    await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
      address: FEE_ROUTER,
      bytecode: runtimeCode('FeeRouter.sol', feeRouterSource, 'FeeRouter'),
    })
    const data = encodeFunctionData({
      abi: feeRouterAbi,
      functionName: 'swap',
      args: [fx().uniswapV2.router, [fx().weth.address, fx().erc20.address], user(), feeTo, feeBps],
    })
    return { from: user(), to: FEE_ROUTER, data, value: numberToHex(parseEther('1')) }
  }

  it('an interface fee of 0.25 % to its own address: no proceeds warning', async () => {
    expect(proceedsWarnings(await scan([await feeSwap(account(5), 25n)]))).toEqual([])
  })

  it('a “fee” of 90 % to another address: WARN naming it, and it receives that much', async () => {
    const tx = await feeSwap(attacker(), 9000n)
    await expectPaidTo(await scan([tx]), [tx], attacker(), fx().erc20.address, 'USDC')
  })
})

describe('swaps a Safe makes, executed by its owner', () => {
  const safeAbi = parseAbi(['function nonce() view returns (uint256)'])

  async function safeSwap(to: Address): Promise<TxRequest> {
    const safe = fx().safe.address
    const nonce = await client().readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
    const swap = v2SwapEthForTokens(fx(), safe, fx().erc20.address, parseEther('1'))
    const proposal = plainSafeTx(swap.to, parseEther('1'), nonce, paying(swap, to).data)
    return { from: user(), to: safe, data: await ownersExecution(fx(), proposal) }
  }

  it('paid to the Safe: no proceeds warning; paid to another address: WARN, and it receives the USDC', async () => {
    expect(proceedsWarnings(await scan([await safeSwap(fx().safe.address)]))).toEqual([])
    const tx = await safeSwap(attacker())
    await expectPaidTo(await scan([tx]), [tx], attacker(), fx().erc20.address, 'USDC')
  })
})

describe('a swap whose output is deposited for the user', () => {
  /**
   * A zap as yield and bridge interfaces make them: swaps the ether sent through the V2 router to itself and deposits
   * the output into a farm in the sender's name. The farm keeps the tokens and records them for the user (its event
   * names the user); or, `forNobody`, for nobody (its event names no one: what an attacker's contract could emit).
   */
  const ZAP: Address = '0x0000000000000000000000000000000000002a90'
  const FARM: Address = '0x000000000000000000000000000000000000fa53'
  const zapSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IRouter {
    function swapExactETHForTokens(uint256, address[] calldata, address, uint256) external payable returns (uint256[] memory);
}
interface IToken {
    function approve(address, uint256) external returns (bool);
    function transferFrom(address, address, uint256) external returns (bool);
}
contract Farm {
    mapping(address => uint256) public deposited;
    event Deposited(address indexed owner, uint256 amount);
    event Stored(uint256 amount);
    function deposit(address token, uint256 amount, address owner, bool forNobody) external {
        IToken(token).transferFrom(msg.sender, address(this), amount);
        if (forNobody) {
            emit Stored(amount);
        } else {
            deposited[owner] += amount;
            emit Deposited(owner, amount);
        }
    }
}
contract Zap {
    function zap(address router, address[] calldata path, address farm, bool forNobody) external payable {
        uint256[] memory amounts = IRouter(router).swapExactETHForTokens{value: msg.value}(0, path, address(this), type(uint256).max);
        uint256 out = amounts[amounts.length - 1];
        IToken(path[path.length - 1]).approve(farm, out);
        Farm(farm).deposit(path[path.length - 1], out, msg.sender, forNobody);
    }
}`
  const zapAbi = parseAbi(['function zap(address router, address[] path, address farm, bool forNobody) payable'])

  async function zap(forNobody: boolean): Promise<TxRequest> {
    const test = createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) })
    await test.setCode({ address: ZAP, bytecode: runtimeCode('Zap.sol', zapSource, 'Zap') })
    await test.setCode({ address: FARM, bytecode: runtimeCode('Zap.sol', zapSource, 'Farm') })
    const data = encodeFunctionData({
      abi: zapAbi,
      functionName: 'zap',
      args: [fx().uniswapV2.router, [fx().weth.address, fx().erc20.address], FARM, forNobody],
    })
    return { from: user(), to: ZAP, data, value: numberToHex(parseEther('1')) }
  }

  it('into a farm that records it in the user’s name: no proceeds warning, and the farm holds it for the user', async () => {
    const tx = await zap(false)
    const response = await scan([tx])
    expect(proceedsWarnings(response)).toEqual([])
    expect(response.action).toBe('NONE')
    const held = await executeAndMeasure([tx], FARM, fx().erc20.address)
    expect(held).toBeGreaterThan(0n)
    const recorded = await client().readContract({
      address: FARM,
      abi: parseAbi(['function deposited(address) view returns (uint256)']),
      functionName: 'deposited',
      args: [user()],
    })
    expect(recorded).toBe(held)
  })

  it('into a contract that records it for nobody: WARN naming that contract, and it receives the USDC', async () => {
    const tx = await zap(true)
    const response = await scan([tx])
    const [warning] = proceedsWarnings(response)
    if (!warning) throw new Error('no proceeds warning')
    expect(warning.data).toMatchObject({ recipient: FARM.toLowerCase() })
    const amount = BigInt((warning.data as { amount: string }).amount)
    expect(await executeAndMeasure([tx], FARM, fx().erc20.address)).toBe(amount)
  })
})
