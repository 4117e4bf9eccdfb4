/**
 * Token metadata: each field read on its own (a contract without name() keeps its symbol, decimals and ERC-1155 flag;
 * an early token's bytes32 name and symbol are text), and a cache that stays bounded however many tokens scans name.
 */
import { type Address, createTestClient, encodeFunctionData, http, numberToHex, pad, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../../src/engine/index.ts'
import { readKeys } from '../../../src/engine/simulation/reads.ts'
import {
  cachedTokenCount,
  cachedTokenMetadata,
  TOKEN_METADATA_CACHE_SIZE,
  tokenMetadata,
} from '../../../src/engine/simulation/tokenMetadata.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'

const CHAIN = 999_001
const SPENDER: Address = '0x2222222222222222222222222222222222222222'
const token = (index: number) => pad(numberToHex(index + 1), { size: 20 }) as Address

/** Before-block reads as a simulation returns them for a token named `T<index>`. */
function readsFor(address: Address, index: number) {
  const before = new Map<string, unknown>([
    [readKeys.tokenField(address, 'name'), `Token ${index}`],
    [readKeys.tokenField(address, 'symbol'), `T${index}`],
    [readKeys.tokenField(address, 'decimals'), 18],
  ])
  return { before, after: new Map<string, unknown>() }
}

describe('token metadata cache', () => {
  it(`holds at most ${TOKEN_METADATA_CACHE_SIZE} tokens and forgets the least recently used first`, () => {
    for (let index = 0; index < TOKEN_METADATA_CACHE_SIZE; index += 1) {
      tokenMetadata(CHAIN, token(index), readsFor(token(index), index))
    }
    expect(cachedTokenCount()).toBe(TOKEN_METADATA_CACHE_SIZE)
    // Token 0 is used again, so token 1 is now the least recently used.
    expect(cachedTokenMetadata(CHAIN, token(0))?.symbol).toBe('T0')
    for (let index = TOKEN_METADATA_CACHE_SIZE; index < TOKEN_METADATA_CACHE_SIZE + 5_000; index += 1) {
      tokenMetadata(CHAIN, token(index), readsFor(token(index), index))
    }
    expect(cachedTokenCount()).toBe(TOKEN_METADATA_CACHE_SIZE)
    expect(cachedTokenMetadata(CHAIN, token(0))?.symbol).toBe('T0')
    expect(cachedTokenMetadata(CHAIN, token(1))).toBeUndefined()
    expect(cachedTokenMetadata(CHAIN, token(TOKEN_METADATA_CACHE_SIZE + 4_999))?.name).toBe('Token 14999')
  })
})

describe('token metadata read from contracts that answer oddly', () => {
  const source = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Base {
    event Transfer(address indexed from, address indexed to, uint256 value);
    mapping(address => uint256) public balanceOf;
    function mint(address to, uint256 amount) external { balanceOf[to] += amount; emit Transfer(address(0), to, amount); }
    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount; balanceOf[to] += amount; emit Transfer(msg.sender, to, amount); return true;
    }
}
contract Bytes32Text is Base {
    function name() external pure returns (bytes32) { return "Maker"; }
    function symbol() external pure returns (bytes32) { return "MKR"; }
    function decimals() external pure returns (uint8) { return 18; }
}
contract NoName is Base {
    function name() external pure returns (string memory) { revert(); }
    function symbol() external pure returns (string memory) { return "MOON"; }
    function decimals() external pure returns (uint8) { return 6; }
}`
  const tokenAbi = parseAbi([
    'function mint(address to, uint256 amount)',
    'function transfer(address to, uint256 amount)',
  ])
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(() => devnet?.stop())
  const user = () => devnet.fixtures.accounts[1]?.address as Address

  async function scan(txObjects: { from: Address; to: Address; data: `0x${string}` }[]) {
    const outcome = await scanTransactions(
      { txObjects, userAccount: user(), metadata: { origin: 'https://tokens.example' } },
      { rpcUrl: devnet.fixtures.rpcUrl, chainId: 31337 },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    return outcome.response
  }

  /** `contract`'s code placed at `token`, which mints `amount` to a payer and pays it to the user, in one scan. */
  async function receive(token: Address, contract: string, amount: bigint): Promise<ScanTransactionsResponse> {
    const anvil = createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
    await anvil.setCode({ address: token, bytecode: runtimeCode('Odd.sol', source, contract) })
    const payer = devnet.fixtures.accounts[2]?.address as Address
    return scan([
      {
        from: payer,
        to: token,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [payer, amount] }),
      },
      {
        from: payer,
        to: token,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [user(), amount] }),
      },
    ])
  }
  const userChanges = (response: ScanTransactionsResponse) =>
    response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address] ?? []

  it('a bytes32 name and symbol (MKR-style) read as text', async () => {
    const token: Address = '0x00000000000000000000000000000000000e0001'
    const [change] = userChanges(await receive(token, 'Bytes32Text', 5n * 10n ** 18n))
    expect(change?.humanReadableDiff).toBe('Receive 5 MKR')
    expect(change?.rawInfo.data).toMatchObject({ asset: { symbol: 'MKR', name: 'Maker', decimals: 18 } })
  })

  it('a token whose name() reverts keeps its symbol and decimals', async () => {
    const token: Address = '0x00000000000000000000000000000000000e0005'
    const [change] = userChanges(await receive(token, 'NoName', 25_000_000_000n))
    expect(change?.humanReadableDiff).toBe('Receive 25,000 MOON')
    expect(change?.rawInfo.data).toMatchObject({ asset: { symbol: 'MOON', name: 'Unknown token', decimals: 6 } })
    expect(cachedTokenMetadata(31337, token)).toEqual({ name: null, symbol: 'MOON', decimals: 6, is1155: false })
  })

  it('an ERC-1155 without name() is an ERC-1155: its approval for all says so, and is cached', async () => {
    const items = devnet.fixtures.erc1155.address
    const approve = parseAbi(['function setApprovalForAll(address operator, bool approved)'])
    const data = encodeFunctionData({ abi: approve, functionName: 'setApprovalForAll', args: [SPENDER, true] })
    const [change] = userChanges(await scan([{ from: user(), to: items, data }]))
    expect(change?.rawInfo.kind).toBe('ERC1155_APPROVAL_FOR_ALL')
    expect(cachedTokenMetadata(31337, items)).toMatchObject({ name: null, is1155: true })
  })
})
