/**
 * Fee-on-transfer and honeypot tokens for tests: TaxedToken, written here in Solidity, launched on the devnet with a
 * real Uniswap V2 pair and liquidity added through the real router, and bought through the router function such
 * tokens need (swapExactETHForTokensSupportingFeeOnTransferTokens).
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
import type { TxRequest } from '../../src/devnet/dapp/requests.ts'
import { DEADLINE } from '../../src/devnet/dapp/uniswap.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'
import { deployable } from './solc.ts'

/**
 * An 18-decimal token with one pair: buys from the pair and sells to it pay a tax (basis points) to the owner, or to
 * the token's own contract as many memecoins keep it, or sells are refused (unless code sits where a simulator once put
 * its sell probe, or unless the block's randomness is the last buy's, as in a simulation that leaves every block the
 * head's), or every buyer is blacklisted as it buys (three kinds of honeypot). The owner, who adds the liquidity,
 * is exempt. A token that keeps its tax may swap it back, as such memecoins do: on a holder's sale, once it holds
 * `swapBackAt` or more, it first sells all it holds through the router for ether paid to its team's wallet (the owner).
 */
const TAXED_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IRouter {
    function WETH() external pure returns (address);
    function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline) external;
}

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
    uint8 public immutable sellsRefused;
    bool public immutable blacklistsBuyers;
    address public immutable taxHolder;
    mapping(address => bool) public blacklisted;
    IRouter public immutable router;
    uint256 public immutable swapBackAt;
    bool private swapping;
    uint256 private boughtRandomness;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply, uint256 buyTax_, uint256 sellTax_, uint8 sellsRefused_, bool blacklistsBuyers_, bool taxToSelf_, IRouter router_, uint256 swapBackAt_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        buyTax = buyTax_;
        sellTax = sellTax_;
        sellsRefused = sellsRefused_;
        blacklistsBuyers = blacklistsBuyers_;
        taxHolder = taxToSelf_ ? address(this) : msg.sender;
        router = router_;
        swapBackAt = swapBackAt_;
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
        bool exempt = from == owner || to == owner || swapping;
        if (!exempt && to == pair && swapBackAt > 0 && balanceOf[address(this)] >= swapBackAt) swapBack();
        // Sales are refused, except where the sell probe once placed its code (0x…53454c4c), or (2) in the randomness of
        // the last buy, which a later block has only in a simulation: tells such a token reads.
        require(exempt || to != pair || sellsRefused == 0 || (sellsRefused == 1 ? address(uint160(0x53454c4c)).code.length > 0 : block.prevrandao == boughtRandomness), "sells are closed");
        if (!exempt && from == pair) boughtRandomness = block.prevrandao;
        require(!blacklisted[from], "blacklisted");
        if (!exempt && from == pair && blacklistsBuyers) blacklisted[to] = true;
        uint256 rate = exempt ? 0 : to == pair ? sellTax : from == pair ? buyTax : 0;
        uint256 tax = (value * rate) / 10_000;
        balanceOf[from] -= value;
        balanceOf[to] += value - tax;
        emit Transfer(from, to, value - tax);
        if (tax > 0) {
            balanceOf[taxHolder] += tax;
            emit Transfer(from, taxHolder, tax);
        }
    }

    function swapBack() private {
        swapping = true;
        uint256 amount = balanceOf[address(this)];
        allowance[address(this)][address(router)] = amount;
        address[] memory path = new address[](2);
        path[0] = address(this);
        path[1] = router.WETH();
        router.swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, path, owner, block.timestamp);
        swapping = false;
    }
}
`

export const feeRouterAbi = parseAbi([
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

/** A launched TaxedToken and its V2 pair with WETH. */
export type TaxedToken = { address: Address; pair: Address }

/**
 * How a TaxedToken taxes: basis points on buys from its pair and on sells to it (none unless given), kept by the
 * token's own contract instead of the owner, or sells refused outright or in any randomness but the last buy's, or
 * buyers blacklisted.
 */
export type Taxes = {
  buyTax?: bigint
  sellTax?: bigint
  taxToSelf?: boolean
  /** With taxToSelf: on a sale, once the contract holds this many tokens or more, it swaps them for its owner. */
  swapBackAt?: bigint
  sellsRefused?: boolean
  /** Sells refused except in the randomness of the block of the last buy. */
  sellsOnlyInBuysRandomness?: boolean
  blacklistsBuyers?: boolean
}

/** Deploys a TaxedToken from `maker` and gives it a V2 pair with liquidity through the real router. */
export async function launchTaxedToken(
  fixtures: Fixtures,
  maker: Address,
  symbol: string,
  taxes: Taxes,
): Promise<TaxedToken> {
  const client = devnetClient(fixtures.rpcUrl)
  const { abi, bytecode } = deployable('TaxedToken.sol', TAXED_TOKEN, 'TaxedToken')
  const send = async (hash: Promise<Hex>) => {
    const receipt = await waitForReceipt(client, await hash)
    if (receipt.status !== 'success') throw new Error(`${symbol}: a launch step reverted`)
    return receipt
  }
  const { buyTax = 0n, sellTax = 0n, taxToSelf = false, sellsRefused = false, blacklistsBuyers = false } = taxes
  const { factory, router } = fixtures.uniswapV2
  const deployed = await send(
    client.deployContract({
      account: maker,
      abi,
      bytecode,
      args: [
        `${symbol} Token`,
        symbol,
        POOL_TOKENS * 2n,
        buyTax,
        sellTax,
        taxes.sellsOnlyInBuysRandomness ? 2 : sellsRefused ? 1 : 0,
        blacklistsBuyers,
        taxToSelf,
        router,
        taxes.swapBackAt ?? 0n,
      ],
      chain: null,
    }),
  )
  const address = getAddress(deployed.contractAddress as Address)
  const weth = fixtures.weth.address
  const write = (to: Address, data: Hex, value = 0n) =>
    send(client.sendTransaction({ account: maker, to, data, value, gas: 5_000_000n, chain: null }))
  await write(factory, encodeFunctionData({ abi: factoryAbi, functionName: 'createPair', args: [address, weth] }))
  const pair = await client.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [address, weth],
  })
  await write(address, encodeFunctionData({ abi: ownerAbi, functionName: 'setPair', args: [pair] }))
  await write(address, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
  const addLiquidity = encodeFunctionData({
    abi: feeRouterAbi,
    functionName: 'addLiquidityETH',
    args: [address, POOL_TOKENS, 0n, 0n, maker, DEADLINE],
  })
  await write(router, addLiquidity, POOL_ETH)
  return { address, pair: getAddress(pair) }
}

/** `from`'s purchase of `token` for `value` wei through the router function fee-on-transfer tokens need. */
export function buyWithFeeRouter(fixtures: Fixtures, from: Address, token: Address, value: bigint): TxRequest {
  const data = encodeFunctionData({
    abi: feeRouterAbi,
    functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
    args: [0n, [fixtures.weth.address, token], from, DEADLINE],
  })
  return { from, to: fixtures.uniswapV2.router, data, value: numberToHex(value) }
}
