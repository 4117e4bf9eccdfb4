/**
 * LooksRare v2 maker orders with the EIP-712 types and domain of `@looksrare/sdk-v2` (its `makerTypes` and
 * `getBatchOrderTypes`, domain "LooksRareProtocol" version 2), listing and bidding on the devnet's NFTs: the scan shows
 * the NFTs and the price, read against what the devnet says the user holds, and judges the price as Seaport's is.
 */
import { type Address, createPublicClient, erc20Abi, http, parseAbi, parseEther, zeroAddress } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { NAMED_DOMAIN_FIELDS } from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import type { ScanMessageResponse } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { amountOf, diffsOf, orderScanner } from '../messageSupport.ts'

/** LooksRareProtocol on mainnet, the SDK's EXCHANGE_V2: the domain's verifying contract (not deployed here). */
const EXCHANGE_V2 = '0x0000000000E655fAe4d56241588680F86E3b2377'
/** The SDK's `makerTypes.Maker`, field for field. */
const MAKER_FIELDS = [
  ['quoteType', 'uint8'],
  ['globalNonce', 'uint256'],
  ['subsetNonce', 'uint256'],
  ['orderNonce', 'uint256'],
  ['strategyId', 'uint256'],
  ['collectionType', 'uint8'],
  ['collection', 'address'],
  ['currency', 'address'],
  ['signer', 'address'],
  ['startTime', 'uint256'],
  ['endTime', 'uint256'],
  ['price', 'uint256'],
  ['itemIds', 'uint256[]'],
  ['amounts', 'uint256[]'],
  ['additionalParameters', 'bytes'],
].map(([name, type]) => ({ name: name as string, type: type as string }))
const ASK = 1
const BID = 0

type Maker = Record<string, unknown>

describe('scanMessage: LooksRare v2 maker orders', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let user: Address
  let attacker: Address
  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })
  const domain = () => ({
    name: 'LooksRareProtocol',
    version: '2',
    chainId: fixtures.chainId,
    verifyingContract: EXCHANGE_V2,
  })
  /** A maker as the SDK's createMakerAsk/createMakerBid fill it in (ETH for asks, the devnet's WETH for bids). */
  const maker = (fields: Maker): Maker => ({
    quoteType: ASK,
    globalNonce: '0',
    subsetNonce: '0',
    orderNonce: '0',
    strategyId: 0,
    collectionType: 0,
    collection: fixtures.erc721.address,
    currency: fields.quoteType === BID ? fixtures.weth.address : zeroAddress,
    signer: user,
    startTime: '1764250000',
    endTime: '1766842000',
    price: parseEther('1').toString(),
    itemIds: ['1'],
    amounts: ['1'],
    additionalParameters: '0x',
    ...fields,
  })
  const single = (fields: Maker) => ({
    types: { EIP712Domain: NAMED_DOMAIN_FIELDS, Maker: MAKER_FIELDS },
    primaryType: 'Maker',
    domain: domain(),
    message: maker(fields),
  })
  /** A BatchOrder of height 1, as the SDK's signMultipleMakerOrders signs two makers. */
  const batch = (makers: Maker[]) => ({
    types: { EIP712Domain: NAMED_DOMAIN_FIELDS, BatchOrder: [{ name: 'tree', type: 'Maker[2]' }], Maker: MAKER_FIELDS },
    primaryType: 'BatchOrder',
    domain: domain(),
    message: { tree: makers.map(maker) },
  })
  const scan = orderScanner(
    () => user,
    'https://looksrare.org',
    () => fixtures.rpcUrl,
  )
  const kinds = (response: ScanMessageResponse) => response.warnings.map((w) => [w.kind, w.severity])

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
    attacker = fixtures.accounts[8]?.address as Address
  })
  afterAll(() => devnet?.stop())

  it('an ask of an ape the user holds, for 1 ETH: the ape and at most 1 ETH (fees come off), NONE', async () => {
    const response = await scan(single({}))
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send Devnet Apes #1',
      'Receive at most 1 ETH',
    ])
    const owner = await client().readContract({
      address: fixtures.erc721.address,
      abi: parseAbi(['function ownerOf(uint256) view returns (address)']),
      functionName: 'ownerOf',
      args: [1n],
    })
    expect(owner).toBe(user)
    expect(response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC721_TRANSFER',
      data: { tokenId: '1', amount: { before: '1', after: '0' } },
    })
    const eth = await client().getBalance({ address: user })
    expect(amountOf(response, 1)).toEqual({ before: eth.toString(), after: (eth + parseEther('1')).toString() })
  })

  it('an ask of that ape for 1 wei, in ETH or WETH: TRADE_FOR_NOTHING, BLOCK (NONE before)', async () => {
    for (const currency of [zeroAddress, fixtures.weth.address]) {
      const response = await scan(single({ price: '1', currency }))
      expect(kinds(response)).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
      expect(response.action).toBe('BLOCK')
      expect(diffsOf(response.simulationResults.expectedStateChanges)[0]).toBe('Send Devnet Apes #1')
    }
  })

  it('an ask of ERC-1155 items names each id and amount', async () => {
    const items = { collectionType: 1, collection: fixtures.erc1155.address, itemIds: ['1', '2'], amounts: ['3', '2'] }
    const response = await scan(single({ ...items, price: parseEther('0.2').toString() }))
    expect(response.action).toBe('NONE')
    const changes = response.simulationResults.expectedStateChanges
    expect(changes.map((c) => [c.rawInfo.kind, (c.rawInfo.data as { tokenId?: string }).tokenId])).toEqual([
      ['ERC1155_TRANSFER', '1'],
      ['ERC1155_TRANSFER', '2'],
      ['NATIVE_ASSET_TRANSFER', undefined],
    ])
    expect(amountOf(response, 0)).toEqual({ before: '10', after: '7' })
    expect(amountOf(response, 1)).toEqual({ before: '5', after: '3' })
    expect(diffsOf(changes)[2]).toBe('Receive at most 0.2 ETH')
  })

  it('a bid of 1 WETH for an ape: the WETH read from the devnet, and the ape, NONE', async () => {
    const response = await scan(single({ quoteType: BID, itemIds: ['4'] }))
    expect(response.action).toBe('NONE')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual(['Send 1 WETH', 'Receive Devnet Apes #4'])
    const weth = await client().readContract({
      address: fixtures.weth.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    })
    expect(amountOf(response, 0)).toEqual({ before: weth.toString(), after: (weth - parseEther('1')).toString() })
  })

  it('a collection bid (strategy 1): any one ape of the collection for the price', async () => {
    const response = await scan(
      single({ quoteType: BID, strategyId: 1, itemIds: [], price: parseEther('0.5').toString() }),
    )
    expect(response.action).toBe('NONE')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send 0.5 WETH',
      'Receive any 1 Devnet Apes',
    ])
  })

  it('a batch of two asks, one for 1 wei: each judged on its own, BLOCK; the apes and the price added up', async () => {
    const response = await scan(batch([{ itemIds: ['1'] }, { itemIds: ['2'], price: '1' }]))
    expect(kinds(response)).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    expect(response.warnings[0]?.message).toMatch(/^1 of the 2 orders in this bulk signature give/)
    expect(response.action).toBe('BLOCK')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send Devnet Apes #1',
      'Send Devnet Apes #2',
      'Receive at most 1 ETH',
    ])
    const eth = await client().getBalance({ address: user })
    expect(amountOf(response, 2)).toEqual({ before: eth.toString(), after: (eth + parseEther('1') + 1n).toString() })
  })

  it('a maker whose signer is another account: nothing shown, and a warning that says so', async () => {
    const response = await scan(single({ signer: attacker }))
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.action).toBe('WARN')
    expect(response.simulationResults.expectedStateChanges).toEqual([])
  })

  it('an ask of a strategy that sets its own price (not standard): shown at its signed price, and WARN', async () => {
    const response = await scan(single({ strategyId: 3 }))
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.warnings[0]?.message).toContain('a strategy contract (id 3) decides it')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send Devnet Apes #1',
      'Receive at most 1 ETH',
    ])
  })
})
