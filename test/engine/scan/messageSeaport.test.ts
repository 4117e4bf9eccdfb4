/**
 * Seaport orders built and signed by OpenSea's own library (@opensea/seaport-js) against Seaport deployed on the
 * devnet from the library's bytecode: bulk listings (one signature over a tree of orders) and collection offers, read
 * and judged; a signed bulk listing is then filled on chain to show what the signature really gives away.
 */
import { type Address, createPublicClient, createWalletClient, type Hex, http, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { SEAPORT_ORDER_TYPES } from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanMessage } from '../../../src/engine/index.ts'
import { knownProtocol } from '../../../src/engine/risk/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { type DevnetSeaport, deploySeaport, ItemType, type SignedPayload } from '../../support/seaport.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const nftAbi = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])

describe('scanMessage: Seaport orders from OpenSea’s library', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let seaport: DevnetSeaport
  let user: Address
  let attacker: Address
  const validate = messageResponseValidator()
  const request = (data: unknown, origin = 'https://opensea.io') => ({
    message: { kind: 'SIGN_TYPED_DATA', data },
    userAccount: user,
    metadata: { origin },
  })
  const listing = (tokenId: string, price: bigint, recipient?: Address) => ({
    offer: [{ itemType: ItemType.ERC721 as 2, token: fixtures.erc721.address, identifier: tokenId }],
    consideration: [{ amount: price.toString(), ...(recipient ? { recipient } : {}) }],
  })
  /** Signs a bulk listing as the user, through the library; returns the payload the wallet was asked to sign. */
  const signBulk = async (orders: ReturnType<typeof listing>[]) => {
    const { seaport: client, signed } = seaport.client(fixtures.accounts[0]?.privateKey as Hex)
    const { executeAllActions } = await client.createBulkOrders(orders, user)
    const created = await executeAllActions()
    return { payload: signed[0] as SignedPayload, created }
  }

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
    attacker = fixtures.accounts[8]?.address as Address
    seaport = await deploySeaport(fixtures)
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex),
    })
    const hash = await wallet.writeContract({
      address: fixtures.erc721.address,
      abi: nftAbi,
      functionName: 'setApprovalForAll',
      args: [seaport.address, true],
    })
    await waitForReceipt(createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) }), hash)
  }, 60_000)
  afterAll(() => devnet?.stop())

  it('an honest bulk listing: every order of the tree read and added up, action NONE', async () => {
    const { payload } = await signBulk([listing('1', parseEther('1')), listing('3', parseEther('2'))])
    expect(payload.primaryType).toBe('BulkOrder')
    const { response, roundTrips } = await scanOk(request(payload), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send Devnet Apes #1',
      'Send Devnet Apes #3',
      'Receive 3 ETH',
    ])
    expect(roundTrips).toBe(1)
  })

  it('a bulk listing of NFTs for 1 wei each to someone else: BLOCK, and the signature really gives them away', async () => {
    const drain = [listing('1', 1n, attacker), listing('2', 1n, attacker), listing('3', 1n, attacker)]
    const { payload, created } = await signBulk(drain)
    const tree = payload.types.BulkOrder?.[0]?.type
    expect(tree).toBe('OrderComponents[2][2]')
    const { response } = await scanOk(request(payload, 'https://opensea-airdrop.example'), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    expect(response.warnings[0]?.message).toMatch(/^3 of the 4 orders in this bulk signature give away/)
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send Devnet Apes #1',
      'Send Devnet Apes #2',
      'Send Devnet Apes #3',
    ])

    // Reality: anyone holding the signature takes ape #2 for 1 wei.
    const { seaport: thief } = seaport.client(fixtures.accounts[9]?.privateKey as Hex)
    const taker = fixtures.accounts[9]?.address as Address
    const { executeAllActions } = await thief.fulfillOrder({ order: created[1] as never, accountAddress: taker })
    await (await executeAllActions()).wait()
    const owner = await createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) }).readContract({
      address: fixtures.erc721.address,
      abi: nftAbi,
      functionName: 'ownerOf',
      args: [2n],
    })
    expect(owner).toBe(taker)
  })

  it('a listing paid in a counterfeit "USDC" (the devnet\'s, scanned as mainnet): SUSPECTED_MALICIOUS, WARN', async () => {
    const price = { token: fixtures.erc20.address, amount: '1000000000000' }
    const { payload } = await signBulk([
      {
        offer: [{ itemType: ItemType.ERC721 as 2, token: fixtures.erc721.address, identifier: '4' }],
        consideration: [price],
      },
      {
        offer: [{ itemType: ItemType.ERC721 as 2, token: fixtures.erc721.address, identifier: '5' }],
        consideration: [price],
      },
    ])
    const outcome = await scanMessage(request(payload), { rpcUrl: fixtures.rpcUrl, chainId: 1 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(outcome.response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toContain(
      'Receive 2,000,000 USDC',
    )
    expect(outcome.response.action).toBe('WARN')
    expect(outcome.response.warnings).toContainEqual(
      expect.objectContaining({
        kind: 'SUSPECTED_MALICIOUS',
        data: expect.objectContaining({ token: fixtures.erc20.address.toLowerCase() }),
      }),
    )
  })

  it('a collection offer: you pay 1 WETH, you receive any item of the collection, action NONE', async () => {
    const { seaport: client, signed } = seaport.client(fixtures.accounts[0]?.privateKey as Hex)
    const { executeAllActions } = await client.createOrder(
      {
        offer: [{ token: fixtures.weth.address, amount: parseEther('1').toString() }],
        consideration: [
          {
            itemType: ItemType.ERC721,
            token: fixtures.erc721.address,
            criteria: `0x${'00'.repeat(32)}`,
            recipient: user,
          },
        ],
      },
      user,
    )
    await executeAllActions()
    const payload = signed[0] as SignedPayload
    expect(payload.primaryType).toBe('OrderComponents')
    const { response } = await scanOk(request(payload), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send 1 WETH',
      'Receive any 1 Devnet Apes',
    ])
    expect(response.simulationResults.expectedStateChanges[1]?.rawInfo).toMatchObject({
      kind: 'ERC721_TRANSFER',
      data: { tokenId: null, contract: { address: fixtures.erc721.address.toLowerCase() } },
    })
  })

  it('a criteria listing that gives away any of your NFTs for nothing: BLOCK', async () => {
    const { seaport: client, signed } = seaport.client(fixtures.accounts[0]?.privateKey as Hex)
    const { executeAllActions } = await client.createOrder(
      {
        offer: [{ itemType: ItemType.ERC721, token: fixtures.erc721.address, criteria: `0x${'00'.repeat(32)}` }],
        consideration: [{ amount: '1', recipient: attacker }],
      },
      user,
    )
    await executeAllActions()
    const { response } = await scanOk(request(signed[0]), fixtures.rpcUrl)
    expect(response.action).toBe('BLOCK')
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send any 1 of your Devnet Apes',
    ])
  })

  it('every released Seaport version’s domain is read the same way, and its contract labelled Seaport', async () => {
    const versions: [string, Address][] = [
      ['1.1', '0x00000000006c3852cbEf3e08E8dF289169EdE581'],
      ['1.4', '0x00000000000001ad428e4906aE43D8F9852d0dD6'],
      ['1.5', '0x00000000000000ADc04C56Bf30aC9d3c0aAF14dC'],
      ['1.6', '0x0000000000000068F116a894984e2DB1123eB395'],
    ]
    for (const [version, verifyingContract] of versions) {
      const data = {
        types: SEAPORT_ORDER_TYPES,
        primaryType: 'OrderComponents',
        domain: { name: 'Seaport', version, chainId: fixtures.chainId, verifyingContract },
        message: {
          offerer: user,
          zone: attacker,
          offer: [
            { itemType: 2, token: fixtures.erc721.address, identifierOrCriteria: 1, startAmount: 1, endAmount: 1 },
          ],
          consideration: [],
          orderType: 0,
          startTime: 0,
          endTime: 1900000000,
          zoneHash: `0x${'00'.repeat(32)}`,
          salt: 1,
          conduitKey: `0x${'00'.repeat(32)}`,
          counter: 0,
        },
      }
      const { response } = await scanOk(request(data), fixtures.rpcUrl)
      expect([version, response.action]).toEqual([version, 'BLOCK'])
      // On mainnet, where every version is deployed, its contract is Seaport's (devnet chain 31337 has none).
      expect(knownProtocol(1, verifyingContract)?.name).toBe('Seaport')
    }
  })
})
