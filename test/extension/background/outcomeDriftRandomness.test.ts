/**
 * Continue's re-check against the real engine on the devnet, where every scan draws its block's prevRandao afresh: a
 * loot box that mints one ERC-1155 item whose id is drawn from that randomness shows another item in every scan, as it
 * mints another when sent. The re-check must not call that worse, or an honest mint could never be continued.
 */
import { type Address, decodeEventLog, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats } from '../../../src/engine/index.ts'
import { outcomeDrift } from '../../../src/extension/background/outcomeDrift.ts'
import { devnetClient, scanRequest } from '../../engine/protocolSupport.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'

const LOOT_BOX: Address = '0x000000000000000000000000000000000001007b'
/** An ERC-1155 collection whose `open` mints the caller one item, its id the block's prevRandao (a gacha's draw). */
const lootBoxSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract LootBox {
    mapping(uint256 => mapping(address => uint256)) internal balances;
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0xd9b67a26 || id == 0x01ffc9a7; }
    function uri(uint256) external pure returns (string memory) { return ""; }
    function balanceOf(address account, uint256 id) external view returns (uint256) { return balances[id][account]; }
    function open() external {
        uint256 id = block.prevrandao;
        balances[id][msg.sender] += 1;
        emit TransferSingle(msg.sender, address(0), msg.sender, id, 1);
    }
}`
const lootBoxAbi = parseAbi([
  'function open()',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
])

describe("Continue's re-check of a mint that draws its item from the block's randomness, on the devnet", () => {
  let devnet: Devnet
  let rpcUrl: string

  beforeAll(async () => {
    devnet = await startTestDevnet()
    rpcUrl = devnet.fixtures.rpcUrl
    await devnetClient(rpcUrl).setCode({
      address: LOOT_BOX,
      bytecode: runtimeCode('LootBox.sol', lootBoxSource, 'LootBox'),
    })
  }, 60_000)
  afterAll(() => devnet?.stop())

  async function scan(tx: TxRequest): Promise<ScanTransactionsResponse> {
    const { outcome } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
    return outcome.response
  }

  /** The ids of the ERC-1155 items a scan shows `user` receiving. */
  function received(response: ScanTransactionsResponse, user: Address): (string | null)[] {
    const changes = response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []
    return changes.flatMap(({ rawInfo }) => (rawInfo.kind === 'ERC1155_TRANSFER' ? [rawInfo.data.tokenId] : []))
  }

  it('two scans show two different items, one each; the re-check finds nothing worse, and sending mints one item', async () => {
    const user = devnet.fixtures.accounts[3]?.address as Address
    const tx: TxRequest = { from: user, to: LOOT_BOX, data: '0xfcfff16f', value: '0x0' }
    const shown = await scan(tx)
    const fresh = await scan(tx)
    expect(received(shown, user)).toHaveLength(1)
    expect(received(fresh, user)).toHaveLength(1)
    // Each scan's block has its own prevRandao: the two ids are 256-bit draws that do not repeat.
    expect(received(fresh, user)).not.toEqual(received(shown, user))
    expect(outcomeDrift(shown, fresh)).toEqual([])
    // Sent, the box mints the user one item of the collection, a third id again.
    const client = devnetClient(rpcUrl)
    const hash = await client.sendTransaction({ account: user, to: LOOT_BOX, data: tx.data, chain: null })
    const receipt = await waitForReceipt(client, hash)
    const mints = receipt.logs.map((log) => decodeEventLog({ abi: lootBoxAbi, data: log.data, topics: log.topics }))
    expect(mints).toHaveLength(1)
    expect(mints[0]?.args).toMatchObject({ to: user, value: 1n })
  })
})
