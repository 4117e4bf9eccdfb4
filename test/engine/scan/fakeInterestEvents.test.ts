/**
 * A token that logs Aave's interest events without being an Aave token: its "buy" logs 100 LIE minted for the buyer
 * and an Aave-style Mint whose balanceIncrease is those 100, while its balanceOf never moves. Only the tokens Aave's
 * address book lists are trusted to log interest, so the events and reads still disagree
 * (RELIABLE_SIMULATION_NOT_POSSIBLE), as they did before interest was read: for a buyer holding none, and for one
 * already holding 100 LIE (a real airdrop), whose balance could have "accrued" those 100.
 */
import { type Address, createTestClient, encodeFunctionData, erc20Abi, http, parseAbi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { devnetClient } from '../protocolSupport.ts'
import { scanOnDevnet } from '../transactionSupport.ts'

const LIE: Address = '0x00000000000000000000000000000000000011e0'

const source = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
contract FakeInterestToken {
    string public constant name = "Lie Token";
    string public constant symbol = "LIE";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(address indexed caller, address indexed onBehalfOf, uint256 value, uint256 balanceIncrease, uint256 index);
    function totalSupply() external pure returns (uint256) { return 1e27; }
    /** A real gift: balanceOf moves as the event says. */
    function airdrop(address to) external {
        balanceOf[to] += 100 ether;
        emit Transfer(address(0), to, 100 ether);
    }
    function buy() external payable {
        emit Transfer(address(0), msg.sender, 100 ether);
        emit Mint(msg.sender, msg.sender, 100 ether, 100 ether, 1e27);
    }
}`

describe('a token faking Aave interest events to hide that its balance never moves', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
    const anvil = createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
    await anvil.setCode({ address: LIE, bytecode: runtimeCode('FakeInterestToken.sol', source, 'FakeInterestToken') })
  }, 60_000)
  afterAll(() => devnet?.stop())

  it('buying "100 LIE" for 1 ETH: the events say 100, the balance 0: RELIABLE_SIMULATION_NOT_POSSIBLE, WARN', async () => {
    const user = devnet.fixtures.accounts[2]?.address as Address
    const buy = encodeFunctionData({ abi: parseAbi(['function buy() payable']), functionName: 'buy' })
    const tx: TxRequest = { from: user, to: LIE, data: buy, value: `0x${parseEther('1').toString(16)}` }
    const response = await scanOnDevnet(devnet.fixtures.rpcUrl, tx)
    expect(response.warnings.map((warning) => warning.kind)).toContain('RELIABLE_SIMULATION_NOT_POSSIBLE')
    expect(response.action).toBe('WARN')
    // Executed: the ETH is gone and the buyer holds no LIE, whatever the events said.
    const client = devnetClient(devnet.fixtures.rpcUrl)
    const hash = await client.sendTransaction({
      account: user,
      to: LIE,
      data: buy,
      value: parseEther('1'),
      chain: null,
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    expect(await client.getBalance({ address: LIE })).toBe(parseEther('1'))
    expect(await client.readContract({ address: LIE, abi: erc20Abi, functionName: 'balanceOf', args: [user] })).toBe(0n)
  })

  it('buying "100 LIE" for 1 ETH while holding 100 LIE: the events still are no Aave token\'s, WARN', async () => {
    const user = devnet.fixtures.accounts[3]?.address as Address
    const client = devnetClient(devnet.fixtures.rpcUrl)
    const lie = parseAbi(['function airdrop(address to)', 'function buy() payable'])
    const airdrop = await client.writeContract({
      account: user,
      address: LIE,
      abi: lie,
      functionName: 'airdrop',
      args: [user],
      chain: null,
    })
    expect((await waitForReceipt(client, airdrop)).status).toBe('success')
    const buy = encodeFunctionData({ abi: lie, functionName: 'buy' })
    const tx: TxRequest = { from: user, to: LIE, data: buy, value: `0x${parseEther('1').toString(16)}` }
    const response = await scanOnDevnet(devnet.fixtures.rpcUrl, tx)
    expect(response.warnings.map((warning) => warning.kind)).toContain('RELIABLE_SIMULATION_NOT_POSSIBLE')
    expect(response.action).toBe('WARN')
    // Executed: the contract keeps the 1 ETH and the buyer still holds the 100 LIE of the airdrop, no more.
    const paid = await client.getBalance({ address: LIE })
    const hash = await client.sendTransaction({
      account: user,
      to: LIE,
      data: buy,
      value: parseEther('1'),
      chain: null,
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    expect((await client.getBalance({ address: LIE })) - paid).toBe(parseEther('1'))
    const held = await client.readContract({ address: LIE, abi: erc20Abi, functionName: 'balanceOf', args: [user] })
    expect(held).toBe(parseEther('100'))
  })
})
