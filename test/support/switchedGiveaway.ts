/**
 * A simulation-spoofing contract for tests: it pays a claimer back twice what they send until its owner switches it,
 * and from then on keeps what it is sent for the owner. A scan made before the switch shows a gift; the signature
 * made after it loses the whole value.
 */
import { type Address, encodeFunctionData, type Hex, parseAbi, parseEther } from 'viem'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'
import { deployable } from './solc.ts'

const SWITCHED_GIVEAWAY = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

contract SwitchedGiveaway {
    address payable public immutable owner;
    bool public switched;

    constructor() payable {
        owner = payable(msg.sender);
    }

    function flip() external {
        require(msg.sender == owner, "owner only");
        switched = true;
    }

    function claim() external payable {
        if (switched) owner.transfer(msg.value);
        else payable(msg.sender).transfer(msg.value * 2);
    }
}`

const giveawayAbi = parseAbi(['function claim() payable', 'function flip()'])

/** The calldata of a claim. */
export const CLAIM: Hex = encodeFunctionData({ abi: giveawayAbi, functionName: 'claim' })

export type SwitchedGiveaway = { address: Address; owner: Address; flip(): Promise<void> }

/** Deploys a giveaway from `owner` (an unlocked devnet account) holding 5 ETH to pay claimers with. */
export async function deploySwitchedGiveaway(rpcUrl: string, owner: Address): Promise<SwitchedGiveaway> {
  const client = devnetClient(rpcUrl)
  const { abi, bytecode } = deployable('SwitchedGiveaway.sol', SWITCHED_GIVEAWAY, 'SwitchedGiveaway')
  const deployed = await client.deployContract({ abi, bytecode, account: owner, value: parseEther('5'), chain: null })
  const address = (await waitForReceipt(client, deployed)).contractAddress as Address
  return {
    address,
    owner,
    flip: async () => {
      const hash = await client.writeContract({
        abi: giveawayAbi,
        address,
        functionName: 'flip',
        account: owner,
        chain: null,
      })
      const receipt = await waitForReceipt(client, hash)
      if (receipt.status !== 'success') throw new Error('the giveaway could not be switched')
    },
  }
}
