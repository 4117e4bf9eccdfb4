/**
 * A honeypot that traps only buys made in the block a "prepare" armed: a bundle of prepare then buy, mined in one
 * block as a wallet's bundle is, leaves the buyer unable to sell. The scan runs the bundle in one block, and its sell
 * probe must replay it the same way: replayed a block each, the buy was not trapped and the probe found it sellable.
 */
import {
  type Address,
  createTestClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEADLINE } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { buyWithFeeRouter, feeRouterAbi } from '../../support/taxedTokens.ts'
import { devnetClient } from '../protocolSupport.ts'

const source = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
contract BlockTrap {
    string public constant name = "Block Trap";
    string public constant symbol = "BTRAP";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public trapped;
    address public pair;
    address private immutable owner;
    uint256 public armedBlock;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    constructor(uint256 supply) { owner = msg.sender; totalSupply = supply; balanceOf[msg.sender] = supply; emit Transfer(address(0), msg.sender, supply); }
    function setPair(address pair_) external { require(msg.sender == owner); pair = pair_; }
    function prepare() external { armedBlock = block.number; }
    function approve(address spender, uint256 value) external returns (bool) { allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true; }
    function transfer(address to, uint256 value) external returns (bool) { _move(msg.sender, to, value); return true; }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) allowance[from][msg.sender] -= value;
        _move(from, to, value);
        return true;
    }
    function _move(address from, address to, uint256 value) private {
        require(!(to == pair && trapped[from]), "trapped");
        if (from == pair && block.number == armedBlock) trapped[to] = true;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}`

const trapAbi = parseAbi([
  'function setPair(address pair)',
  'function prepare()',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function trapped(address account) view returns (bool)',
])
const factoryAbi = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
])

describe('a honeypot that traps only a buy in the block its bundle armed', () => {
  let devnet: Devnet
  let token: Address
  let pair: Address
  beforeAll(async () => {
    devnet = await startTestDevnet()
    const fx = devnet.fixtures
    const client = devnetClient(fx.rpcUrl)
    const maker = fx.accounts[5]?.address as Address
    const send = async (to: Address, data: Hex, value = 0n) => {
      const hash = await client.sendTransaction({ account: maker, to, data, value, gas: 5_000_000n, chain: null })
      expect((await waitForReceipt(client, hash)).status).toBe('success')
    }
    const { abi, bytecode } = deployable('BlockTrap.sol', source, 'BlockTrap')
    const deployed = await client.deployContract({
      account: maker,
      abi,
      bytecode,
      args: [parseEther('1000000')],
      chain: null,
    })
    token = getAddress((await waitForReceipt(client, deployed)).contractAddress as Address)
    const { factory, router } = fx.uniswapV2
    await send(
      factory,
      encodeFunctionData({ abi: factoryAbi, functionName: 'createPair', args: [token, fx.weth.address] }),
    )
    pair = await client.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'getPair',
      args: [token, fx.weth.address],
    })
    await send(token, encodeFunctionData({ abi: trapAbi, functionName: 'setPair', args: [pair] }))
    await send(token, encodeFunctionData({ abi: trapAbi, functionName: 'approve', args: [router, maxUint256] }))
    const liquidity = encodeFunctionData({
      abi: feeRouterAbi,
      functionName: 'addLiquidityETH',
      args: [token, parseEther('1000000'), 0n, 0n, maker, DEADLINE],
    })
    await send(router, liquidity, parseEther('20'))
  }, 120_000)
  afterAll(() => devnet?.stop())

  it('prepare then buy for 1 ETH: TOKEN_CANNOT_BE_SOLD; mined in one block, the buyer cannot sell', async () => {
    const fx = devnet.fixtures
    const buyer = fx.accounts[1]?.address as Address
    const prepare = {
      from: buyer,
      to: token,
      data: encodeFunctionData({ abi: trapAbi, functionName: 'prepare' }),
      value: 0n,
    }
    const buyTx = buyWithFeeRouter(fx, buyer, token, parseEther('1'))
    const purchase = { from: buyer, to: buyTx.to as Address, data: buyTx.data as Hex, value: parseEther('1') }
    const txObjects = [prepare, purchase].map((tx) => ({ ...tx, value: tx.value.toString() }))
    const request = { txObjects, userAccount: buyer, metadata: { origin: 'https://launch.example' } }
    const outcome = await scanTransactions(request, { rpcUrl: fx.rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(outcome.response.warnings.map((warning) => warning.kind)).toContain('TOKEN_CANNOT_BE_SOLD')

    // Mined in one block, as the bundle lands: the buyer is trapped, and a sale to the pair reverts.
    const anvil = createTestClient({ mode: 'anvil', transport: http(fx.rpcUrl) })
    const client = devnetClient(fx.rpcUrl)
    await anvil.setAutomine(false)
    try {
      const hashes: Hex[] = []
      for (const tx of [prepare, purchase]) {
        hashes.push(await client.sendTransaction({ account: buyer, ...tx, gas: 500_000n, chain: null }))
      }
      await anvil.mine({ blocks: 1 })
      for (const hash of hashes) expect((await waitForReceipt(client, hash)).status).toBe('success')
    } finally {
      await anvil.setAutomine(true)
    }
    expect(await client.readContract({ address: token, abi: trapAbi, functionName: 'trapped', args: [buyer] })).toBe(
      true,
    )
    await expect(
      client.simulateContract({
        account: buyer,
        address: token,
        abi: trapAbi,
        functionName: 'transfer',
        args: [pair, 1n],
      }),
    ).rejects.toThrow(/trapped/)
  })
})
