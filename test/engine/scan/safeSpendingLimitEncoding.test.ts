/**
 * A spending limit written so that the warning and the allowance module read it differently. Safe's AllowanceModule is
 * compiled for Solidity 0.7 with ABI coder v1, which does not reject a word holding more than its type: it keeps the
 * low 16 bits of `resetTimeMin`. A batch setting a limit that renews "every 1957 days" by its full word (2,818,080
 * minutes) sets one that renews every 32 minutes. The module here is this test's own stand-in, compiled with ABI coder
 * v1 and storing what setAllowance is given as the module does.
 */
import { type Address, concat, encodeFunctionData, encodePacked, type Hex, parseAbi, size } from 'viem'
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
pragma abicoder v1;
contract SpendingLimits {
    struct Allowance { uint96 amount; uint16 resetTimeMin; }
    mapping(address => mapping(address => mapping(address => Allowance))) public allowances;
    mapping(address => mapping(address => bool)) public delegates;
    function addDelegate(address delegate) external { delegates[msg.sender][delegate] = true; }
    function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32) external {
        require(delegates[msg.sender][delegate], "not a delegate");
        allowances[msg.sender][delegate][token] = Allowance(allowanceAmount, resetTimeMin);
    }
}`

const moduleAbi = parseAbi([
  'function addDelegate(address delegate)',
  'function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32 resetBaseMin)',
  'function allowances(address safe, address delegate, address token) view returns (uint96 amount, uint16 resetTimeMin)',
])
const safeAbi = parseAbi(['function enableModule(address module)'])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

const entry = (to: Address, data: Hex) =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0n, BigInt(size(data)), data])

/** setAllowance's calldata with `resetWord` as the whole word of resetTimeMin, as an ABI coder v1 contract accepts it. */
function setAllowanceWith(delegate: Address, token: Address, amount: bigint, resetWord: bigint): Hex {
  const canonical = encodeFunctionData({
    abi: moduleAbi,
    functionName: 'setAllowance',
    args: [delegate, token, amount, 0, 0],
  })
  const word = resetWord.toString(16).padStart(64, '0')
  return `${canonical.slice(0, 2 + 8 + 64 * 3)}${word}${canonical.slice(2 + 8 + 64 * 4)}` as Hex
}

describe('a spending limit whose renewal is written with bits the allowance module drops', () => {
  it('"again every 1957 days" by the word is every 32 minutes in the module: the warning says what the module stores', async () => {
    const client = devnetClient(fx().rpcUrl)
    await client.request({
      method: 'anvil_setCode' as never,
      params: [ALLOWANCE_MODULE, runtimeCode('SpendingLimits.sol', moduleSource, 'SpendingLimits')] as never,
    })
    const delegate = fx().drainer.attacker as Address
    const token = fx().erc20.address
    const batch = concat([
      entry(
        fx().safe.address,
        encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [ALLOWANCE_MODULE] }),
      ),
      entry(ALLOWANCE_MODULE, encodeFunctionData({ abi: moduleAbi, functionName: 'addDelegate', args: [delegate] })),
      entry(ALLOWANCE_MODULE, setAllowanceWith(delegate, token, 1_000_000_000n, 1440n * 1957n)),
    ])
    const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [batch] })
    const tx = { ...plainSafeTx(fx().safeContracts.multiSendCallOnly, 0n, 0n, data), operation: 1 }
    const response = await scanSafeProposal(fx(), tx)
    const limit = response.warnings.find((warning) => warning.message.includes('allowance module'))
    expect(limit?.message).not.toContain('1957 days')
    expect(limit?.message).toContain('again every 32 minutes')
    expect(response.action).toBe('BLOCK')

    // Executed with the owners' signatures: the module renews the limit every 32 minutes.
    const owner = fx().accounts[0]?.address as Address
    const signatures = await ownerSignatures(fx(), tx)
    const hash = await client.sendTransaction({
      account: owner,
      to: fx().safe.address,
      data: execTransactionData(tx, signatures),
      chain: null,
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    const [amount, resetTimeMin] = await client.readContract({
      address: ALLOWANCE_MODULE,
      abi: moduleAbi,
      functionName: 'allowances',
      args: [fx().safe.address, delegate, token],
    })
    expect(amount).toBe(1_000_000_000n)
    expect(resetTimeMin).toBe(32)
  })
})
