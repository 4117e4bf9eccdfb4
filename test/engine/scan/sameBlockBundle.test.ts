/**
 * A bundle whose second transaction behaves as it will on chain only in the block of the first: a "claim" that
 * refunds what it is sent unless a "prepare" ran in the same block, and then forwards it to the attacker. A wallet
 * sends a bundle (wallet_sendCalls, an atomic batch) into one block, so the scan must run it in one block too: run a
 * block per transaction, the claim refunded and the bundle scanned NONE. Mined in one block, it pays the attacker.
 */
import { type Address, createTestClient, encodeFunctionData, type Hex, http, parseAbi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { devnetClient } from '../protocolSupport.ts'

const CLAIM: Address = '0x00000000000000000000000000000000005b10c0'
const ATTACKER: Address = '0x000000000000000000000000000000000000a77A'

const source = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
contract SameBlockClaim {
    uint256 public armed;
    function prepare() external { armed = block.number; }
    function claim() external payable {
        address to = armed == block.number ? ${ATTACKER} : msg.sender;
        (bool sent,) = to.call{value: msg.value}("");
        require(sent);
    }
}`

const abi = parseAbi(['function prepare()', 'function claim() payable'])

describe('a bundle that drains only when its transactions share a block', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
    const anvil = createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
    await anvil.setCode({ address: CLAIM, bytecode: runtimeCode('SameBlockClaim.sol', source, 'SameBlockClaim') })
  }, 60_000)
  afterAll(() => devnet?.stop())

  it('prepare then claim 2 ETH: the scan shows the 2 ETH leaving, as mining both in one block does', async () => {
    const { rpcUrl } = devnet.fixtures
    const user = devnet.fixtures.accounts[3]?.address as Address
    const prepare = encodeFunctionData({ abi, functionName: 'prepare' })
    const claim = encodeFunctionData({ abi, functionName: 'claim' })
    const txObjects = [
      { from: user, to: CLAIM, data: prepare, value: '0' },
      { from: user, to: CLAIM, data: claim, value: parseEther('2').toString() },
    ]
    const request = { txObjects, userAccount: user, metadata: { origin: 'https://claim.example' } }
    const outcome = await scanTransactions(request, { rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    const diffs = (
      outcome.response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []
    ).map((change) => change.humanReadableDiff)
    expect(diffs).toContain('Send 2 ETH')
    expect(outcome.response.action).toBe('WARN')

    // Mined as a wallet's bundle lands: both in one block. The attacker gets the 2 ETH.
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const client = devnetClient(rpcUrl)
    await anvil.setAutomine(false)
    try {
      const hashes: Hex[] = []
      for (const tx of txObjects) {
        hashes.push(
          await client.sendTransaction({
            account: user,
            to: tx.to,
            data: tx.data,
            value: BigInt(tx.value),
            gas: 100_000n,
            chain: null,
          }),
        )
      }
      await anvil.mine({ blocks: 1 })
      for (const hash of hashes) expect((await waitForReceipt(client, hash)).status).toBe('success')
    } finally {
      await anvil.setAutomine(true)
    }
    expect(await client.getBalance({ address: ATTACKER })).toBe(parseEther('2'))
  })
})
