import { describe, expect, it } from 'vitest'
import { SEAPORT_ORDER_TYPES } from '../../../src/devnet/eip712.ts'
import type { Address } from '../../../src/engine/index.ts'
import {
  findSeaportOrders,
  isCriteriaItem,
  isTradeForNothing,
  type SeaportTrade,
} from '../../../src/engine/messages/seaport.ts'
import { parseTypedData } from '../../../src/engine/messages/typedData.ts'

const USER = '0x6c8ee01f1f8b62e987b3d18f6f28b22a0ada755f' as Address
const NFT = '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d'
const ZERO = '0x0000000000000000000000000000000000000000'
const FEE = '0x0000a26b00c1f0df003000390027140000faa719'

/** The shape of the reference's Seaport example: sell one NFT, paid in ETH minus fees. */
function order(offer: object[], consideration: object[]) {
  const result = parseTypedData({
    types: SEAPORT_ORDER_TYPES,
    primaryType: 'OrderComponents',
    domain: {
      name: 'Seaport',
      version: '1.5',
      chainId: '1',
      verifyingContract: '0x00000000000000ADc04C56Bf30aC9d3c0aAF14dC',
    },
    message: {
      offerer: USER,
      zone: ZERO,
      offer,
      consideration,
      orderType: '0',
      startTime: '1664436437',
      endTime: '1667028437',
      zoneHash: `0x${'00'.repeat(32)}`,
      salt: '1',
      conduitKey: `0x${'00'.repeat(32)}`,
      counter: '53',
      totalOriginalConsiderationItems: '2',
    },
  })
  if (!result.ok) throw new Error(result.error.message)
  return result.typedData
}

const nftOffer = { itemType: '2', token: NFT, identifierOrCriteria: '5547', startAmount: '1', endAmount: '1' }
const eth = (amount: string, recipient: string) => ({
  itemType: '0',
  token: ZERO,
  identifierOrCriteria: '0',
  startAmount: amount,
  endAmount: amount,
  recipient,
})
const decimals = () => 18
const withCode = () => true

/** The single order's trade, as the tests of one order read it. */
function findSeaportOrder(typedData: ReturnType<typeof order>, user: Address): SeaportTrade | null {
  return findSeaportOrders(typedData, user)?.total ?? null
}

describe('findSeaportOrders', () => {
  it('shows the offer as given and only the consideration paid to the user as received', () => {
    const trade = findSeaportOrder(
      order([nftOffer], [eth('94050000000000000000', USER), eth('2475000000000000000', FEE)]),
      USER,
    )
    expect(trade).toEqual({
      offerer: USER,
      gives: [{ kind: 'ERC721', token: NFT, identifier: 5547n, amount: 1n }],
      receives: [{ kind: 'NATIVE', token: ZERO, identifier: 0n, amount: 94050000000000000000n }],
    })
    expect(trade && isTradeForNothing(trade, decimals, withCode)).toBe(false)
  })

  it('takes the least the user may receive in a declining auction and adds up payments of one token', () => {
    const declining = { ...eth('10', USER), startAmount: '3000', endAmount: '1000' }
    const trade = findSeaportOrder(order([nftOffer], [declining, eth('5', USER)]), USER)
    expect(trade?.receives).toEqual([{ kind: 'NATIVE', token: ZERO, identifier: 0n, amount: 1005n }])
  })

  it('calls giving an NFT for nothing, or for 1 wei, a trade for nothing', () => {
    const forNothing = findSeaportOrder(order([nftOffer], [eth('1000', FEE)]), USER)
    expect(forNothing?.receives).toEqual([])
    expect(forNothing && isTradeForNothing(forNothing, decimals, withCode)).toBe(true)
    const forOneWei = findSeaportOrder(order([nftOffer], [eth('1', USER)]), USER)
    expect(forOneWei && isTradeForNothing(forOneWei, decimals, withCode)).toBe(true)
    // A token with no code: its transfers succeed and move nothing, whatever the amount.
    const inCodeless = { ...forOneWei, receives: [{ kind: 'ERC20', token: FEE, identifier: 0n, amount: 10n ** 24n }] }
    expect(isTradeForNothing(inCodeless as never, decimals, withCode)).toBe(false)
    expect(isTradeForNothing(inCodeless as never, decimals, () => false)).toBe(true)
  })

  it('reads criteria items as "any item of a collection" and ignores typed data that is not an order', () => {
    const criteria = findSeaportOrder(
      order([{ ...nftOffer, itemType: '4', identifierOrCriteria: '0' }], [eth('5', USER)]),
      USER,
    )
    expect(criteria?.gives.map(isCriteriaItem)).toEqual([true])
    const notAnOrder = parseTypedData({
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Hello: [{ name: 'to', type: 'string' }] },
      primaryType: 'Hello',
      domain: { chainId: 1 },
      message: { to: 'world' },
    })
    expect(notAnOrder.ok && findSeaportOrder(notAnOrder.typedData, USER)).toBeNull()
  })
})

describe('bulk orders (BulkOrder trees)', () => {
  const leaf = (offer: object[], consideration: object[], offerer = USER) => ({
    offerer,
    zone: ZERO,
    offer,
    consideration,
    orderType: '0',
    startTime: '0',
    endTime: '1900000000',
    zoneHash: `0x${'00'.repeat(32)}`,
    salt: '1',
    conduitKey: `0x${'00'.repeat(32)}`,
    counter: '0',
  })
  const padding = leaf([], [], ZERO)
  const bulk = (height: number, leaves: object[]) => {
    const all = [...leaves, ...Array(2 ** height - leaves.length).fill(padding)]
    const nest = (items: object[]): object[] =>
      items.length === 2
        ? items
        : nest(Array.from({ length: items.length / 2 }, (_, i) => items.slice(2 * i, 2 * i + 2)))
    const { EIP712Domain, ...orderTypes } = SEAPORT_ORDER_TYPES
    const result = parseTypedData({
      types: {
        EIP712Domain,
        BulkOrder: [{ name: 'tree', type: `OrderComponents${'[2]'.repeat(height)}` }],
        ...orderTypes,
      },
      primaryType: 'BulkOrder',
      domain: {
        name: 'Seaport',
        version: '1.6',
        chainId: '1',
        verifyingContract: '0x0000000000000068F116a894984e2DB1123eB395',
      },
      message: { tree: nest(all) },
    })
    if (!result.ok) throw new Error(result.error.message)
    return result.typedData
  }

  it('reads every leaf of trees of height 1 and 3, padding included, and adds the user’s orders up', () => {
    const one = findSeaportOrders(
      bulk(1, [leaf([nftOffer], [eth('5', USER)]), leaf([nftOffer], [eth('7', USER)])]),
      USER,
    )
    expect(one?.orders).toHaveLength(2)
    expect(one?.total.receives).toEqual([{ kind: 'NATIVE', token: ZERO, identifier: 0n, amount: 12n }])
    const three = findSeaportOrders(bulk(3, [leaf([nftOffer], [eth('1', FEE)])]), USER)
    expect(three?.orders).toHaveLength(8)
    expect(three?.orders.filter((order) => isTradeForNothing(order, decimals, withCode))).toHaveLength(1)
  })
})
