/**
 * Blur signatures, with the EIP-712 types of Blur's published exchange contracts (v1 BlurExchange: Order and the bulk
 * Root; v2 BlurExchangeV2: Order with a Merkle root of listings), scanned against the devnet's NFTs.
 */
import { TypedDataUtils } from '@metamask/eth-sig-util'
import { type Address, encodeAbiParameters, type Hex, hashStruct, keccak256, parseEther, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import {
  BLUR_DOMAIN,
  BLUR_ROOT_TYPES,
  BLUR_V1_ORDER_TYPES,
  BLUR_V2_ORDER_TYPES,
  blurV1Listing,
} from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const BLUR_V1 = '0x000000000000Ad05Ccc4F10045630fb830B95127'
const BLUR_V2 = '0xb2ecfE4E4D61f8790bbb9DE2D1259B9e2410CEA5'

/** OpenZeppelin's sorted-pair hash, as the exchanges' Merkle proofs combine nodes. */
function hashPair(a: Hex, b: Hex): Hex {
  const [low, high] = BigInt(a) < BigInt(b) ? [a, b] : [b, a]
  return keccak256(`0x${low.slice(2)}${high.slice(2)}`)
}

describe('scanMessage: Blur orders', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let user: Address
  const validate = messageResponseValidator()
  const request = (data: unknown, origin = 'https://blur.io') => ({
    message: { kind: 'SIGN_TYPED_DATA', data },
    userAccount: user,
    metadata: { origin },
  })
  const listing = (tokenId: bigint, price: bigint) =>
    blurV1Listing({
      chainId: fixtures.chainId,
      exchange: BLUR_V1,
      trader: user,
      collection: fixtures.erc721.address,
      tokenId,
      price,
      fees: [{ rate: 50, recipient: fixtures.accounts[4]?.address as Address }],
    })
  const kinds = (response: { warnings: { kind: string; severity: string }[] }) =>
    response.warnings.map((w) => [w.kind, w.severity])
  /** A Root over two listings, with each listing's proof, as a bulk listing on Blur is signed. */
  const bulk = (prices: [bigint, bigint], proofs: 'valid' | 'wrong' = 'valid') => {
    const orders = [listing(1n, prices[0]).message, listing(2n, prices[1]).message]
    const leaves = orders.map((order) =>
      hashStruct({ types: BLUR_V1_ORDER_TYPES, primaryType: 'Order', data: order as never }),
    )
    const root = hashPair(leaves[0] as Hex, leaves[1] as Hex)
    const sibling = (index: number) => (proofs === 'valid' ? leaves[1 - index] : keccak256('0x01'))
    return {
      types: BLUR_ROOT_TYPES,
      primaryType: 'Root',
      domain: { ...BLUR_DOMAIN, chainId: fixtures.chainId, verifyingContract: BLUR_V1 },
      message: { root, orders: orders.map((order, index) => ({ order, proof: [sibling(index)] })) },
    }
  }
  const v2Order = (listings: { index: number; tokenId: number; amount: number; price: bigint }[] | null) => {
    const leaves = (listings ?? []).map((l) =>
      keccak256(
        encodeAbiParameters(
          [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
          [BigInt(l.index), BigInt(l.tokenId), BigInt(l.amount), l.price],
        ),
      ),
    )
    const root = leaves.length === 2 ? hashPair(leaves[0] as Hex, leaves[1] as Hex) : keccak256('0xab')
    return {
      types: BLUR_V2_ORDER_TYPES,
      primaryType: 'Order',
      domain: { ...BLUR_DOMAIN, chainId: fixtures.chainId, verifyingContract: BLUR_V2 },
      message: {
        trader: user,
        collection: fixtures.erc721.address,
        listingsRoot: root,
        numberOfListings: 2,
        expirationTime: 1900000000,
        assetType: 0,
        makerFee: { recipient: zeroAddress, rate: 0 },
        salt: 9,
        orderType: 0,
        nonce: 0,
        ...(listings
          ? {
              listings: listings.map((l, index) => ({
                ...l,
                price: l.price.toString(),
                proof: [leaves[1 - index]],
              })),
            }
          : {}),
      },
    }
  }

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
  })
  afterAll(() => devnet?.stop())

  it('the types are those of Blur’s published contracts (their ORDER_TYPEHASH strings)', () => {
    expect(TypedDataUtils.encodeType('Order', BLUR_V1_ORDER_TYPES)).toBe(
      'Order(address trader,uint8 side,address matchingPolicy,address collection,uint256 tokenId,uint256 amount,' +
        'address paymentToken,uint256 price,uint256 listingTime,uint256 expirationTime,Fee[] fees,uint256 salt,' +
        'bytes extraParams,uint256 nonce)Fee(uint16 rate,address recipient)',
    )
    expect(TypedDataUtils.encodeType('Order', BLUR_V2_ORDER_TYPES)).toBe(
      'Order(address trader,address collection,bytes32 listingsRoot,uint256 numberOfListings,uint256 expirationTime,' +
        'uint8 assetType,FeeRate makerFee,uint256 salt,uint8 orderType,uint256 nonce)FeeRate(address recipient,uint16 rate)',
    )
    expect(TypedDataUtils.encodeType('Root', BLUR_ROOT_TYPES)).toBe('Root(bytes32 root)')
  })

  it('a v1 listing on blur.io at a price: the NFT for the price less fees, action NONE', async () => {
    const { response } = await scanOk(request(listing(1n, parseEther('1'))), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send Devnet Apes #1',
      'Receive 0.995 ETH',
    ])
  })

  it('a v1 listing for nothing: TRADE_FOR_NOTHING, BLOCK', async () => {
    const { response } = await scanOk(request(listing(1n, 0n)), fixtures.rpcUrl)
    expect(kinds(response)).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    expect(response.action).toBe('BLOCK')
  })

  it('a fair v1 order asked for by a site that is not Blur: BLUR_V2_ORDER_NOT_ON_BLUR, BLOCK', async () => {
    const { response } = await scanOk(
      request(listing(1n, parseEther('1')), 'https://blur-rewards.example'),
      fixtures.rpcUrl,
    )
    expect(kinds(response)).toEqual([['BLUR_V2_ORDER_NOT_ON_BLUR', 'CRITICAL']])
    expect(response.action).toBe('BLOCK')
  })

  it('a bare bulk Root on blur.io is a blind signature: WARN, said in words', async () => {
    const data = bulk([parseEther('1'), parseEther('1')])
    const { orders: _tree, ...signed } = data.message
    const { response } = await scanOk(request({ ...data, message: signed }), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/^This is a Blur bulk signature: one hash that approves every order/)
    expect(response.action).toBe('WARN')
    const offSite = await scanOk(request({ ...data, message: signed }, 'https://claim-blur.example'), fixtures.rpcUrl)
    expect(kinds(offSite.response)).toEqual([
      ['BLUR_BULK_ORDER_NOT_ON_BLUR', 'CRITICAL'],
      ['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING'],
    ])
    expect(offSite.response.action).toBe('BLOCK')
  })

  it('a bulk Root with its tree: every order proven and read; one for nothing makes it BLOCK', async () => {
    const fair = await scanOk(request(bulk([parseEther('1'), parseEther('2')])), fixtures.rpcUrl)
    expect(fair.response.action).toBe('NONE')
    expect(fair.response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send Devnet Apes #1',
      'Send Devnet Apes #2',
      'Receive 2.985 ETH',
    ])
    const drain = await scanOk(request(bulk([parseEther('1'), 0n])), fixtures.rpcUrl)
    expect(kinds(drain.response)).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    expect(drain.response.warnings[0]?.message).toMatch(/^1 of the 2 orders in this bulk signature/)
  })

  it('a tree whose proofs do not lead to the signed root is not believed: blind, WARN', async () => {
    const { response } = await scanOk(request(bulk([parseEther('1'), parseEther('1')], 'wrong')), fixtures.rpcUrl)
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/do not lead to the root it signs/)
    expect(response.simulationResults.expectedStateChanges).toEqual([])
  })

  it('a bulk Root given with only part of its tree is not read as the part: blind, WARN', async () => {
    // The root signs a listing for 1 ETH and one for nothing; the request shows only the first, with a valid proof.
    const data = bulk([parseEther('1'), 0n])
    const shown = { ...data, message: { ...data.message, orders: data.message.orders.slice(0, 1) } }
    const { response } = await scanOk(request(shown), fixtures.rpcUrl)
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/only part of the tree it signs/)
    expect(response.simulationResults.expectedStateChanges).toEqual([])
  })

  it('a v2 order given with fewer listings than it signs is not read as those: blind, WARN', async () => {
    const both = v2Order([
      { index: 0, tokenId: 1, amount: 1, price: parseEther('1') },
      { index: 1, tokenId: 2, amount: 1, price: 0n },
    ])
    const shown = { ...both, message: { ...both.message, listings: both.message.listings?.slice(0, 1) } }
    const { response } = await scanOk(request(shown), fixtures.rpcUrl)
    expect(kinds(response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/only part of the tree it signs/)
    expect(response.action).toBe('WARN')
  })

  it('a v2 order: blind without its listings, read with them, BLOCK when a listing is free', async () => {
    const blind = await scanOk(request(v2Order(null)), fixtures.rpcUrl)
    expect(kinds(blind.response)).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    const fair = [
      { index: 0, tokenId: 1, amount: 1, price: parseEther('1') },
      { index: 1, tokenId: 3, amount: 1, price: parseEther('1') },
    ]
    const read = await scanOk(request(v2Order(fair)), fixtures.rpcUrl)
    expect(read.response.action).toBe('NONE')
    expect(read.response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      'Send Devnet Apes #1',
      'Send Devnet Apes #3',
      'Receive 2 ETH',
    ])
    const free = [fair[0] as (typeof fair)[0], { ...(fair[1] as (typeof fair)[0]), price: 0n }]
    const drain = await scanOk(request(v2Order(free)), fixtures.rpcUrl)
    expect(kinds(drain.response)).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    const offSite = await scanOk(request(v2Order(fair), 'https://blur.example'), fixtures.rpcUrl)
    expect(kinds(offSite.response)).toEqual([['BLUR_V2_ORDER_NOT_ON_BLUR', 'CRITICAL']])
  })
})
