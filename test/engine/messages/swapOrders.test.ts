/**
 * Swap orders read from their signed fields: the reference's own 0x and 1inch examples, and the CoW order kinds, with
 * what each gives, what it is paid and to whom, and when the signed amounts do not fix what moves.
 */
import { type Address, concat, getAddress, type Hex, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { cowOrderTypedData } from '../../../src/devnet/eip712.ts'
import { findSwapOrder, swapOrderTrades, swapOrderWarnings } from '../../../src/engine/messages/index.ts'
import { parseTypedData, type TypedData } from '../../../src/engine/messages/typedData.ts'
import { requestExamples } from '../../support/openapi.ts'

type Example = { message: { data: unknown }; userAccount: Address }

const examples = new Map(requestExamples('2023-06-05', '/ethereum/v0/mainnet/scan/message') as [string, Example][])

function typed(payload: unknown): TypedData {
  const parsed = parseTypedData(payload)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error))
  return parsed.typedData
}

function example(name: string): { typedData: TypedData; user: Address } {
  const found = examples.get(name)
  if (!found) throw new Error(`no reference example ${name}`)
  return { typedData: typed(found.message.data), user: getAddress(found.userAccount) }
}

const USER = '0x1000000000000000000000000000000000000001'
const OTHER = '0x2000000000000000000000000000000000000002'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'

/** A CoW order as CoW Swap sends it to the wallet. */
function cowOrder(fields: Record<string, unknown> = {}): TypedData {
  return typed(
    cowOrderTypedData(1, {
      sellToken: USDC,
      buyToken: WETH,
      receiver: zeroAddress,
      sellAmount: '1000000000',
      buyAmount: '330000000000000000',
      validTo: 1_900_000_000,
      appData: `0x${'00'.repeat(32)}`,
      feeAmount: '2000000',
      kind: 'sell',
      partiallyFillable: false,
      sellTokenBalance: 'erc20',
      buyTokenBalance: 'erc20',
      ...fields,
    }),
  )
}

/** A 1inch v4 order as 1inch's apps send it to the wallet, on router v6's domain: 1,000 USDC for 0.33 WETH. */
function oneInchV4Order(fields: Record<string, unknown> = {}): TypedData {
  const address = (name: string) => ({ name, type: 'address' })
  const uint = (name: string) => ({ name, type: 'uint256' })
  return typed({
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        uint('chainId'),
        address('verifyingContract'),
      ],
      Order: [
        uint('salt'),
        address('maker'),
        address('receiver'),
        address('makerAsset'),
        address('takerAsset'),
        uint('makingAmount'),
        uint('takingAmount'),
        uint('makerTraits'),
      ],
    },
    primaryType: 'Order',
    domain: {
      name: '1inch Aggregation Router',
      version: '6',
      chainId: 1,
      verifyingContract: '0x111111125421ca6dc452d289314280a0f8842a65',
    },
    message: {
      salt: '1',
      maker: USER,
      receiver: zeroAddress,
      makerAsset: USDC,
      takerAsset: WETH,
      makingAmount: '1000000000',
      takingAmount: '330000000000000000',
      makerTraits: '0',
      ...fields,
    },
  })
}

/** A v4 `makerTraits` with the bits of MakerTraitsLib's flags set. */
const traits = (...bits: bigint[]) => bits.reduce((sum, bit) => sum | (1n << bit), 0n)

describe('findSwapOrder', () => {
  it('the reference’s 0x limit order: the maker gives up to 5 USDC and is paid the taker amount in full', () => {
    const { typedData, user } = example('zero_ex_limit_order')
    const order = findSwapOrder(typedData)
    expect(order).toMatchObject({
      protocol: '0x',
      maker: user.toLowerCase(),
      receiver: user.toLowerCase(),
      sell: { token: USDC, amount: 5_000_000n, bound: 'upTo' },
      // The fee is paid by the taker to the fee recipient on top; the maker gets the whole taker amount.
      buy: {
        token: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
        amount: 3794314970000000000000000n,
        bound: 'upTo',
      },
      unpinned: null,
    })
    expect(swapOrderWarnings(order as never, user)).toEqual([])
  })

  it('the reference’s 1inch order pays a contract it calls afterwards: read, and the receiver named', () => {
    const { typedData, user } = example('one_inch_limit_order')
    const order = findSwapOrder(typedData)
    expect(order).toMatchObject({
      protocol: '1inch',
      maker: user.toLowerCase(),
      receiver: '0x08b067ad41e45babe5bbb52fc2fe7f692f628b06',
      sell: { token: USDC, amount: 5_000_000n, bound: 'upTo' },
      buy: { token: WETH, amount: 2668059500000000n, bound: 'upTo' },
      // Its predicate, permit and post-interaction do not change the amounts.
      unpinned: null,
    })
    const warnings = swapOrderWarnings(order as never, user)
    expect(warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING']])
    expect(warnings[0]?.message).toContain('0x08b0…8b06')
    const { orders, total } = swapOrderTrades(order as never, user)
    expect(total.receives).toEqual([])
    expect(orders[0]?.receives.map((item) => item.amount)).toEqual([2668059500000000n])
  })

  it('a 1inch order whose amounts come from getters it names: a warning that what moves may differ', () => {
    const { typedData, user } = example('one_inch_limit_order')
    // Offsets put 20 bytes of getTakingAmount (field 3) before the predicate: the amounts are computed on fill.
    const offsets = [0n, 0n, 0n, 20n, 184n, 428n, 428n, 448n].reduce(
      (sum, end, index) => sum | (end << BigInt(32 * index)),
      0n,
    )
    const message = { ...typedData.message, offsets, receiver: zeroAddress }
    const order = findSwapOrder({ ...typedData, message })
    expect(order?.unpinned).toBe('a contract it names computes the amounts (getTakingAmount)')
    expect(order?.receiver).toBe(user.toLowerCase())
    const warnings = swapOrderWarnings(order as never, user)
    expect(warnings.map((w) => [w.kind, w.severity])).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
  })

  it('a 1inch v4 order: the maker gives up to its making amount and, with no receiver, is paid in proportion', () => {
    const order = findSwapOrder(oneInchV4Order())
    expect(order).toEqual({
      protocol: '1inch',
      maker: USER,
      receiver: USER,
      sell: { token: USDC, amount: 1_000_000_000n, bound: 'upTo' },
      buy: { token: WETH, amount: 330000000000000000n, bound: 'upTo' },
      unpinned: null,
      bridged: null,
    })
    const { orders, total } = swapOrderTrades(order as never, USER)
    expect(total).toEqual(orders[0])
    expect(swapOrderWarnings(order as never, USER)).toEqual([])
  })

  it('a 1inch v4 order that forbids partial fills (bit 255) is exact; Permit2, unwrapping, sender and expiry are not amounts', () => {
    const whole = findSwapOrder(oneInchV4Order({ makerTraits: traits(255n).toString() }))
    expect([whole?.sell.bound, whole?.buy.bound, whole?.unpinned]).toEqual(['exact', 'exact', null])
    // Multiple fills, Permit2, unwrapping WETH, an allowed sender's low bits and an expiry: the same order as shown.
    const allowedSender = 0x8842a65n
    const expiry = 1_900_000_000n << 80n
    const makerTraits = (traits(254n, 248n, 247n) | allowedSender | expiry).toString()
    const other = findSwapOrder(oneInchV4Order({ makerTraits }))
    expect(other).toEqual(findSwapOrder(oneInchV4Order()))
  })

  it('a 1inch v4 order with an extension (bit 249): shown, but what moves may differ, for the extension is unsigned', () => {
    const order = findSwapOrder(oneInchV4Order({ makerTraits: traits(255n, 249n).toString() }))
    expect([order?.sell.bound, order?.buy.amount]).toEqual(['exact', 330000000000000000n])
    expect(order?.unpinned).toContain('extension, signed only as a hash')
    const warnings = swapOrderWarnings(order as never, USER)
    expect(warnings.map((w) => [w.kind, w.severity])).toEqual([['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING']])
    expect(warnings[0]?.message).toContain('compute the amounts')
  })

  it('a 1inch v4 order paying another receiver: the payment left out of what the signer gets, the receiver named', () => {
    const order = findSwapOrder(oneInchV4Order({ receiver: OTHER }))
    const { orders, total } = swapOrderTrades(order as never, USER)
    expect(total.receives).toEqual([])
    expect(orders[0]?.receives.map((item) => item.amount)).toEqual([330000000000000000n])
    const [warning] = swapOrderWarnings(order as never, USER)
    expect(warning).toMatchObject({ kind: 'TRADE_PROCEEDS_TO_OTHER_ADDRESS', data: { receivers: [OTHER] } })
  })

  it('a CoW sell order: the signer sells the amount and fee exactly, and is paid at least the buy amount', () => {
    const order = findSwapOrder(cowOrder())
    expect(order).toMatchObject({
      protocol: 'CoW Protocol',
      maker: 'signer',
      receiver: 'signer',
      sell: { token: USDC, amount: 1_002_000_000n, bound: 'exact' },
      buy: { token: WETH, amount: 330000000000000000n, bound: 'atLeast' },
    })
    const { orders, total } = swapOrderTrades(order as never, USER)
    expect(total).toEqual(orders[0])
    expect(total.gives.map((item) => [item.kind, item.amount])).toEqual([['ERC20', 1_002_000_000n]])
    expect(swapOrderWarnings(order as never, USER)).toEqual([])
  })

  it('a 1inch order whose "x" getters freeze both sides is filled whole: exact; one frozen side is not enough', () => {
    const { typedData } = example('one_inch_limit_order')
    const packed = (ends: bigint[]) => ends.reduce((sum, end, index) => sum | (end << BigInt(32 * index)), 0n)
    const withGetters = (prefix: Hex, ends: bigint[]) =>
      findSwapOrder({
        ...typedData,
        message: {
          ...typedData.message,
          offsets: packed(ends),
          interactions: concat([prefix, typedData.message.interactions as Hex]),
        },
      })
    const both = withGetters('0x7878', [0n, 0n, 1n, 2n, 166n, 410n, 410n, 430n])
    expect([both?.sell.bound, both?.buy.bound, both?.unpinned]).toEqual(['exact', 'exact', null])
    // A taker naming the making amount goes through getTakingAmount, still proportional here.
    const one = withGetters('0x78', [0n, 0n, 1n, 1n, 165n, 409n, 409n, 429n])
    expect([one?.sell.bound, one?.buy.bound, one?.unpinned]).toEqual(['upTo', 'upTo', null])
    // Empty fields at the very end of `interactions` are read as empty, not as out of range.
    const last = findSwapOrder({
      ...typedData,
      message: { ...typedData.message, offsets: packed([0n, 0n, 1n, 1n, 1n, 1n, 1n, 1n]), interactions: '0x78' },
    })
    expect([last?.sell.bound, last?.unpinned]).toEqual(['upTo', null])
    // Asset data rides with the transfers: said apart from amounts.
    const withData = [4n, 4n, 4n, 4n, 168n, 412n, 412n, 432n].reduce((sum, end, i) => sum | (end << BigInt(32 * i)), 0n)
    const carried = findSwapOrder({
      ...typedData,
      message: {
        ...typedData.message,
        offsets: withData,
        interactions: concat(['0x12345678', typedData.message.interactions as Hex]),
      },
    })
    expect(carried?.unpinned).toBe('its transfers carry extra data for the token to act on (makerAssetData)')
  })

  it('CoW buy orders, partial fills and native ETH bind as the settlement does', () => {
    const buy = findSwapOrder(cowOrder({ kind: 'buy', buyToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' }))
    expect(buy?.sell.bound).toBe('atMost')
    expect(buy?.buy).toEqual({ token: 'native', amount: 330000000000000000n, bound: 'exact' })
    expect(swapOrderTrades(buy as never, USER).total.receives.map((item) => item.kind)).toEqual(['NATIVE'])
    const partial = findSwapOrder(cowOrder({ partiallyFillable: true, kind: 'buy' }))
    // A partial fill pays in proportion: no "at least" for the whole buy amount.
    expect([partial?.sell.bound, partial?.buy.bound]).toEqual(['upTo', 'upTo'])
    // A zero buy token is no native currency: it is a token with no code, which pays nothing.
    const zeroBuy = findSwapOrder(cowOrder({ buyToken: zeroAddress }))
    expect(swapOrderTrades(zeroBuy as never, USER).total.receives).toEqual([
      { kind: 'ERC20', token: zeroAddress, identifier: 0n, amount: 330000000000000000n },
    ])
  })

  it('a CoW order paying another address: judged on its price, shown without the payment, the receiver named', () => {
    const order = findSwapOrder(cowOrder({ receiver: OTHER }))
    const { orders, total } = swapOrderTrades(order as never, USER)
    expect(total.receives).toEqual([])
    expect(orders[0]?.receives).toHaveLength(1)
    const [warning] = swapOrderWarnings(order as never, USER)
    expect(warning).toMatchObject({ kind: 'TRADE_PROCEEDS_TO_OTHER_ADDRESS', data: { receivers: [OTHER] } })
    // A receiver equal to the signer is the signer, however it is written.
    expect(swapOrderWarnings(findSwapOrder(cowOrder({ receiver: USER })) as never, getAddress(USER))).toEqual([])
  })

  it('an order another account makes moves nothing of the user’s, and says the signature is for that account', () => {
    const { typedData } = example('zero_ex_limit_order')
    const order = findSwapOrder(typedData)
    const { orders, total } = swapOrderTrades(order as never, OTHER)
    expect(total.gives).toEqual([])
    // Judged as its maker's trade all the same: a smart account may accept its owner's signature.
    expect(orders[0]?.gives.map((item) => item.amount)).toEqual([5_000_000n])
    const [warning] = swapOrderWarnings(order as never, OTHER)
    expect(warning).toMatchObject({ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE', severity: 'WARNING' })
    expect(warning?.message).toContain('sells the tokens of 0xd854…4337, not yours')
  })

  it('recognised by its fields, not its name: a renamed CoW type still is one; a field less is not', () => {
    const renamed = cowOrder()
    const types = { Swap: renamed.types.Order ?? [] }
    expect(findSwapOrder({ ...renamed, types, primaryType: 'Swap' })?.protocol).toBe('CoW Protocol')
    const fewer = { Order: (renamed.types.Order ?? []).slice(0, -1) }
    expect(findSwapOrder({ ...renamed, types: fewer })).toBeNull()
  })
})
