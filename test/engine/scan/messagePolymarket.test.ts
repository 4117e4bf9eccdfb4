/**
 * Polymarket CTF Exchange orders with the EIP-712 types and domain of `@polymarket/clob-client` (its ORDER_STRUCTURE,
 * domain "Polymarket CTF Exchange" version 1, Polygon's exchange). The devnet plays Polygon: its chain id is set to
 * 137, and the devnet's own USDC and ERC-1155 contracts are placed, code and state, at the addresses of Polygon's
 * USDC.e and Conditional Tokens, where the exchange's config says they are. The exchange itself is not deployed: a
 * message scan reads the order and the tokens, not the exchange.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  numberToHex,
  parseAbi,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { amountOf, diffsOf, orderScanner, scanOk } from '../messageSupport.ts'

const EXCHANGE = '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E'
const USDC_E: Address = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'
const CTF: Address = '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045'
/** An outcome token id the size Polymarket's are (a position id is a hash). */
const YES = 71321045679252212594626385532706912750332728571942532289631379312455583992563n
const USDC = (whole: number) => BigInt(whole) * 10n ** 6n
const SHARES = USDC
const BUY = 0
const SELL = 1

/** `@polymarket/clob-client`'s ORDER_STRUCTURE and EIP712_DOMAIN, field for field. */
const TYPES = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
  Order: [
    ['salt', 'uint256'],
    ['maker', 'address'],
    ['signer', 'address'],
    ['taker', 'address'],
    ['tokenId', 'uint256'],
    ['makerAmount', 'uint256'],
    ['takerAmount', 'uint256'],
    ['expiration', 'uint256'],
    ['nonce', 'uint256'],
    ['feeRateBps', 'uint256'],
    ['side', 'uint8'],
    ['signatureType', 'uint8'],
  ].map(([name, type]) => ({ name: name as string, type: type as string })),
}

/** OpenZeppelin 5's storage: ERC20 `_balances` at slot 0, `_name` and `_symbol` at 3 and 4; ERC1155 `_balances` at 0. */
const balanceSlot = (holder: Address) =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 0n]))
const positionSlot = (holder: Address, id: bigint) =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes32' }],
      [holder, keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, 0n]))],
    ),
  )

describe('scanMessage: Polymarket CTF Exchange orders', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let user: Address
  let proxy: Address
  const chain = () => createPublicClient({ transport: http(fixtures.rpcUrl) })
  const order = (fields: Record<string, unknown>) => ({
    types: TYPES,
    primaryType: 'Order',
    domain: { name: 'Polymarket CTF Exchange', version: '1', chainId: 137, verifyingContract: EXCHANGE },
    message: {
      salt: '479249096354',
      maker: user,
      signer: user,
      taker: zeroAddress,
      tokenId: YES.toString(),
      makerAmount: USDC(60).toString(),
      takerAmount: SHARES(100).toString(),
      expiration: '0',
      nonce: '0',
      feeRateBps: '0',
      side: BUY,
      signatureType: 0,
      ...fields,
    },
  })
  const scan = orderScanner(
    () => user,
    'https://polymarket.com',
    () => fixtures.rpcUrl,
  )
  const usdcOf = (holder: Address) =>
    chain().readContract({ address: USDC_E, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })
  const sharesOf = (holder: Address) =>
    chain().readContract({
      address: CTF,
      abi: parseAbi(['function balanceOf(address, uint256) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [holder, YES],
    })

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
    proxy = fixtures.accounts[5]?.address as Address
    const test = createTestClient({ mode: 'anvil', transport: http(fixtures.rpcUrl) })
    /** Places `from`'s code at `to`, with `from`'s values of `copied` slots and `set` slot values of its own. */
    const place = async (from: Address, to: Address, copied: Hex[], set: [Hex, bigint][]) => {
      await test.setCode({ address: to, bytecode: (await chain().getCode({ address: from })) as Hex })
      for (const slot of copied) {
        const value = (await chain().getStorageAt({ address: from, slot })) as Hex
        await test.setStorageAt({ address: to, index: slot, value })
      }
      for (const [slot, value] of set)
        await test.setStorageAt({ address: to, index: slot, value: numberToHex(value, { size: 32 }) })
    }
    await place(
      fixtures.erc20.address,
      USDC_E,
      [numberToHex(3, { size: 32 }), numberToHex(4, { size: 32 })],
      [
        [balanceSlot(user), USDC(500)],
        [balanceSlot(proxy), USDC(70)],
      ],
    )
    await place(
      fixtures.erc1155.address,
      CTF,
      [],
      [
        [positionSlot(user, YES), SHARES(250)],
        [positionSlot(proxy, YES), SHARES(40)],
      ],
    )
    await test.request({ method: 'anvil_setChainId', params: [137] } as never)
  })
  afterAll(() => devnet?.stop())

  it('the devnet plays Polygon: chain 137, and its tokens answer at USDC.e’s and the Conditional Tokens’ addresses', async () => {
    expect(await chain().getChainId()).toBe(137)
    expect(await usdcOf(user)).toBe(USDC(500))
    expect(await sharesOf(user)).toBe(SHARES(250))
  })

  it('a BUY of 100 shares at 0.60: up to 60 USDC for up to 100 shares, from the devnet balances, NONE', async () => {
    const response = await scan(order({}))
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual([
      'Send up to 60 USDC',
      'Receive up to 100 Polymarket shares of outcome 713210…2563',
    ])
    expect(changes.map((c) => c.rawInfo.kind)).toEqual(['ERC20_TRANSFER', 'ERC1155_TRANSFER'])
    expect(amountOf(response, 0)).toEqual({ before: USDC(500).toString(), after: USDC(440).toString() })
    expect(amountOf(response, 1)).toEqual({ before: SHARES(250).toString(), after: SHARES(350).toString() })
    expect((changes[1]?.rawInfo.data as { tokenId?: string } | undefined)?.tokenId).toBe(YES.toString())
  })

  it('a SELL of 200 shares at 0.45: up to 200 shares for up to 90 USDC', async () => {
    const response = await scan(
      order({ side: SELL, makerAmount: SHARES(200).toString(), takerAmount: USDC(90).toString() }),
    )
    expect(response.action).toBe('NONE')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send up to 200 Polymarket shares of outcome 713210…2563',
      'Receive up to 90 USDC',
    ])
    expect(amountOf(response, 0)).toEqual({ before: SHARES(250).toString(), after: SHARES(50).toString() })
  })

  it('a SELL of 250 shares for 1 unit of USDC (a millionth): TRADE_FOR_NOTHING, BLOCK (NONE before)', async () => {
    const response = await scan(order({ side: SELL, makerAmount: SHARES(250).toString(), takerAmount: '1' }))
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
    expect(response.action).toBe('BLOCK')
  })

  it('a BUY of 100 shares at 1.50 USDC each, more than a share ever pays out: IMBALANCED_DOLLAR_VALUE, WARN (NONE before)', async () => {
    const response = await scan(order({ makerAmount: USDC(150).toString() }))
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['IMBALANCED_DOLLAR_VALUE', 'WARNING']])
    expect(response.warnings[0]?.message).toContain('buys shares at 1.5 USDC each, but a share pays out at most 1 USDC')
    expect(response.warnings[0]?.message).toContain('pays 150 USDC for 100 shares, worth at most 100 USDC')
    expect(response.warnings[0]?.message).toContain('loses at least 50 USDC')
    expect(response.warnings[0]?.data).toEqual({ pricePerShare: '1.5', overpaid: USDC(50).toString() })
    expect(response.action).toBe('WARN')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send up to 150 USDC',
      'Receive up to 100 Polymarket shares of outcome 713210…2563',
    ])
  })

  it('a BUY of 100 shares at 2.50 USDC each, so at most 40% can ever come back: CRITICAL, BLOCK (NONE before)', async () => {
    const response = await scan(order({ makerAmount: USDC(250).toString() }))
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['IMBALANCED_DOLLAR_VALUE', 'CRITICAL']])
    expect(response.warnings[0]?.message).toContain('at 2.5 USDC each')
    expect(response.action).toBe('BLOCK')
  })

  it('a BUY at exactly 1 USDC a share, and a SELL at 3 USDC a share: no overpayment is claimed, NONE', async () => {
    expect((await scan(order({ makerAmount: USDC(100).toString() }))).action).toBe('NONE')
    const sell = order({ side: SELL, makerAmount: SHARES(100).toString(), takerAmount: USDC(300).toString() })
    expect((await scan(sell)).warnings).toEqual([])
  })

  it('an order the signer makes for its Polymarket proxy wallet (signature type 1): the wallet’s balances change', async () => {
    const response = await scan(order({ maker: proxy, signatureType: 1 }))
    expect(response.action).toBe('NONE')
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send up to 60 USDC',
      'Receive up to 100 Polymarket shares of outcome 713210…2563',
    ])
    expect(amountOf(response, 0)).toEqual({ before: (await usdcOf(proxy)).toString(), after: USDC(10).toString() })
    expect(amountOf(response, 1)).toEqual({ before: (await sharesOf(proxy)).toString(), after: SHARES(140).toString() })
  })

  it('an order signed as another account: nothing shown, and a warning that says so', async () => {
    const other = fixtures.accounts[8]?.address as Address
    const response = await scan(order({ maker: other, signer: other }))
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([
      ['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING'],
    ])
    expect(response.simulationResults.expectedStateChanges).toEqual([])
  })

  it('an order for an exchange that is not Polymarket’s: it cannot be read, WARN', async () => {
    const data = order({})
    const { response } = await scanOk(
      {
        message: {
          kind: 'SIGN_TYPED_DATA',
          data: { ...data, domain: { ...data.domain, verifyingContract: fixtures.drainer.address } },
        },
        userAccount: user,
        metadata: { origin: 'https://polymarket.com' },
      },
      fixtures.rpcUrl,
    )
    expect(response.simulationResults.error?.kind).toBe('UNSUPPORTED_ORDER_TYPE')
    expect(response.simulationResults.error?.humanReadableError).toContain('not a Polymarket exchange Preflight knows')
    expect(response.action).toBe('WARN')
  })
})
