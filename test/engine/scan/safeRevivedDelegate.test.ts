/**
 * A Safe that once gave a spending limit and later removed its delegate without removing the allowance (Safe's
 * AllowanceModule keeps allowances unless `removeDelegate(delegate, true)`; a delegate's transfer needs it to be a
 * delegate again). A proposal that only calls `addDelegate(delegate)` moves nothing and sets no allowance, yet the old
 * allowance takes effect again. The module here is this test's own stand-in, modelling those two rules.
 */
import { type Address, concat, encodeFunctionData, encodePacked, erc20Abi, type Hex, parseAbi, size } from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { devnetClient } from '../protocolSupport.ts'
import { ownerSignatures, scanSafeProposal } from '../safeSupport.ts'

const fx = devnetRolledBackPerTest()
const ALLOWANCE_MODULE: Address = '0xAA46724893dedD72658219405185Fb0Fc91e091C'

const moduleSource = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
interface ISafe { function execTransactionFromModule(address to, uint256 value, bytes calldata data, uint8 operation) external returns (bool); }
contract SpendingLimits {
    struct Allowance { uint96 amount; uint96 spent; }
    mapping(address => mapping(address => mapping(address => Allowance))) public allowances;
    mapping(address => mapping(address => bool)) public delegates;
    function addDelegate(address delegate) external { delegates[msg.sender][delegate] = true; }
    function removeDelegate(address delegate, bool removeAllowances) external {
        require(!removeAllowances, "not modelled");
        delegates[msg.sender][delegate] = false;
    }
    function setAllowance(address delegate, address token, uint96 amount, uint16, uint32) external {
        require(delegates[msg.sender][delegate], "not a delegate");
        allowances[msg.sender][delegate][token].amount = amount;
    }
    function executeAllowanceTransfer(address safe, address token, address to, uint96 amount) external {
        require(delegates[safe][msg.sender], "not a delegate");
        Allowance storage allowance = allowances[safe][msg.sender][token];
        require(allowance.spent + amount <= allowance.amount, "over the limit");
        allowance.spent += amount;
        bytes memory transfer = abi.encodeWithSignature("transfer(address,uint256)", to, amount);
        require(ISafe(safe).execTransactionFromModule(token, 0, transfer, 0), "transfer failed");
    }
}`

const moduleAbi = parseAbi([
  'function addDelegate(address delegate)',
  'function removeDelegate(address delegate, bool removeAllowances)',
  'function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32 resetBaseMin)',
  'function executeAllowanceTransfer(address safe, address token, address to, uint96 amount)',
])
const safeAbi = parseAbi(['function enableModule(address module)', 'function nonce() view returns (uint256)'])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])
const entry = (to: Address, data: Hex) =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0n, BigInt(size(data)), data])
const moduleCall = (data: Parameters<typeof encodeFunctionData<typeof moduleAbi>>[0]) => encodeFunctionData(data)

describe('a removed delegate whose allowance the module kept, added back', () => {
  it('addDelegate alone: a WARNING that its old allowance takes effect; executed, the delegate takes 1,000 USDC', async () => {
    const client = devnetClient(fx().rpcUrl)
    await client.request({
      method: 'anvil_setCode' as never,
      params: [ALLOWANCE_MODULE, runtimeCode('SpendingLimits.sol', moduleSource, 'SpendingLimits')] as never,
    })
    const safe = fx().safe.address
    const usdc = fx().erc20.address
    const delegate = fx().accounts[4]?.address as Address
    const owner = fx().accounts[0]?.address as Address
    const nonce = () => client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
    const execute = async (tx: ReturnType<typeof plainSafeTx>) => {
      const data = execTransactionData(tx, await ownerSignatures(fx(), tx))
      const hash = await client.sendTransaction({ account: owner, to: safe, data, chain: null })
      expect((await waitForReceipt(client, hash)).status).toBe('success')
    }
    // Months ago: a spending limit of 1,000 USDC for the delegate; later the delegate removed, its allowance kept.
    const setUp = concat([
      entry(safe, encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [ALLOWANCE_MODULE] })),
      entry(ALLOWANCE_MODULE, moduleCall({ abi: moduleAbi, functionName: 'addDelegate', args: [delegate] })),
      entry(
        ALLOWANCE_MODULE,
        moduleCall({ abi: moduleAbi, functionName: 'setAllowance', args: [delegate, usdc, 1_000_000_000n, 0, 0] }),
      ),
    ])
    const batch = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [setUp] })
    await execute({ ...plainSafeTx(fx().safeContracts.multiSendCallOnly, 0n, await nonce(), batch), operation: 1 })
    const remove = moduleCall({ abi: moduleAbi, functionName: 'removeDelegate', args: [delegate, false] })
    await execute(plainSafeTx(ALLOWANCE_MODULE, 0n, await nonce(), remove))

    const addBack = moduleCall({ abi: moduleAbi, functionName: 'addDelegate', args: [delegate] })
    const proposal = plainSafeTx(ALLOWANCE_MODULE, 0n, await nonce(), addBack)
    const response = await scanSafeProposal(fx(), proposal)
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SET_OWNER_AUTHORITY')
    expect(warning?.message).toContain('delegate')

    // Executed: the delegate takes 1,000 USDC from the Safe with no owner's confirmation.
    await execute(proposal)
    const before = await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [safe] })
    const take = moduleCall({
      abi: moduleAbi,
      functionName: 'executeAllowanceTransfer',
      args: [safe, usdc, delegate, 1_000_000_000n],
    })
    const hash = await client.sendTransaction({ account: delegate, to: ALLOWANCE_MODULE, data: take, chain: null })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    const after = await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [safe] })
    expect(before - after).toBe(1_000_000_000n)
  })
})
