/**
 * A simulation-evading contract for tests: its claim pays a claimer back twice what they send while it can tell it is
 * being simulated, and keeps what it is sent for its owner in a mined transaction. Each deployment reads one tell: a
 * gas price of 0, a base fee of 0, more gas left than a wallet gives a transaction, or code at the addresses where the
 * engine places its own.
 */
import { type Address, encodeFunctionData, type Hex, parseAbi, parseEther } from 'viem'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'
import { deployable } from './solc.ts'

const EVASIVE_GIVEAWAY = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

contract EvasiveGiveaway {
    address payable public immutable owner;
    uint8 public immutable tell;

    constructor(uint8 tell_) payable {
        owner = payable(msg.sender);
        tell = tell_;
    }

    function simulated() internal view returns (bool) {
        if (tell == 0) return tx.gasprice == 0;
        if (tell == 1) return block.basefee == 0;
        if (tell == 2) return gasleft() > 5_000_000;
        // The addresses where the engine places its read and probe code (reader, Safe inspector, pool depth, sell).
        return address(uint160(0x50524546)).code.length + address(uint160(0x53414645)).code.length
            + address(uint160(0x44455054)).code.length + address(uint160(0x53454c4c)).code.length > 0;
    }

    function claim() external payable {
        if (simulated()) payable(msg.sender).transfer(msg.value * 2);
        else owner.transfer(msg.value);
    }
}`

/** What the contract reads to tell a simulation from a mined transaction. */
export const TELLS = { gasPrice: 0, baseFee: 1, gasLeft: 2 } as const

/** The tell the engine leaves nothing for: code at its own read and probe addresses while transactions run. */
export const ENGINE_CODE_TELL = 3

/** The calldata of a claim. */
export const CLAIM: Hex = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })

/** Deploys a giveaway reading `tell`, from `owner` (an unlocked devnet account), holding 5 ETH to pay claimers with. */
export async function deployEvasiveGiveaway(rpcUrl: string, owner: Address, tell: number): Promise<Address> {
  const client = devnetClient(rpcUrl)
  const { abi, bytecode } = deployable('EvasiveGiveaway.sol', EVASIVE_GIVEAWAY, 'EvasiveGiveaway')
  const hash = await client.deployContract({
    abi,
    bytecode,
    args: [tell],
    account: owner,
    value: parseEther('5'),
    chain: null,
  })
  const receipt = await waitForReceipt(client, hash)
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('the giveaway did not deploy')
  return receipt.contractAddress
}
