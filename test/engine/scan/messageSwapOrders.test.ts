/**
 * CoW Protocol orders built and signed by CoW's own package (@cowprotocol/contracts) against its settlement deployed on
 * the devnet from the package's bytecode: each order is scanned, then settled on chain by a solver at its limit price,
 * and the balances that moved are compared with what the scan said.
 */
import { type Address, createPublicClient, erc20Abi, type Hex, http, zeroAddress } from 'viem'
import { foundry } from 'viem/chains'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { type CowOrder, type DevnetCow, deployCow } from '../../support/cow.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { requestExamples } from '../../support/openapi.ts'
import { approveMax, claimedBalance, diffsOf, orderScanner } from '../messageSupport.ts'

const USDC = (whole: number) => BigInt(whole) * 10n ** 6n
const WETH = (thousandths: number) => BigInt(thousandths) * 10n ** 15n
const NOW = 1_900_000_000

describe('scanMessage: CoW Protocol orders from CoW’s package, settled on the devnet', () => {
  const fixtures = devnetRolledBackPerTest()
  let cow: DevnetCow
  let user: { address: Address; privateKey: Hex }
  let attacker: Address

  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures().rpcUrl) })
  const balances = async (f: Fixtures, account: Address) => {
    const read = (token: Address) =>
      client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    return { usdc: await read(f.erc20.address), weth: await read(f.weth.address) }
  }
  const order = (f: Fixtures, overrides: Partial<CowOrder> = {}): CowOrder => ({
    sellToken: f.erc20.address,
    buyToken: f.weth.address,
    sellAmount: USDC(1_000),
    buyAmount: WETH(330),
    validTo: NOW + 3_600,
    appData: `0x${'00'.repeat(32)}`,
    feeAmount: 0,
    kind: 'sell' as CowOrder['kind'],
    partiallyFillable: false,
    ...overrides,
  })
  const scan = orderScanner(
    () => user.address,
    'https://swap.cow.fi',
    () => fixtures().rpcUrl,
    NOW,
  )

  beforeEach(async () => {
    const f = fixtures()
    user = f.accounts[0] as { address: Address; privateKey: Hex }
    attacker = f.accounts[8]?.address as Address
    cow = await deployCow(f, f.accounts[9] as { address: Address; privateKey: Hex })
    await approveMax(f.rpcUrl, user, f.erc20.address, cow.vaultRelayer)
  }, 60_000)

  it('a sell order: the scan’s "Send 1,000 USDC" and "Receive at least 0.33 WETH" are what the settlement moves', async () => {
    const f = fixtures()
    const sell = order(f)
    const { payload, signature } = await cow.sign(sell, user.privateKey)
    expect(payload.primaryType).toBe('Order')
    const response = await scan(payload)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send 1,000 USDC', 'Receive at least 0.33 WETH'])

    const before = await balances(f, user.address)
    await cow.settle(sell, signature)
    const after = await balances(f, user.address)
    expect(claimedBalance(changes, 'USDC')).toEqual({ before: before.usdc, after: after.usdc })
    expect(claimedBalance(changes, 'WETH')).toEqual({ before: before.weth, after: after.weth })
  })

  it('an order that pays another address: WARN naming it, only the sale shown, and on chain the user gets nothing', async () => {
    const f = fixtures()
    const redirected = order(f, { receiver: attacker })
    const { payload, signature } = await cow.sign(redirected, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toContain(`${attacker.toLowerCase().slice(0, 6)}…${attacker.toLowerCase().slice(-4)}`)
    expect(warning?.data).toEqual({ receivers: [attacker.toLowerCase()] })
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send 1,000 USDC'])

    const before = { user: await balances(f, user.address), attacker: await balances(f, attacker) }
    await cow.settle(redirected, signature)
    const after = { user: await balances(f, user.address), attacker: await balances(f, attacker) }
    expect(claimedBalance(changes, 'USDC')).toEqual({ before: before.user.usdc, after: after.user.usdc })
    expect(after.user.weth).toBe(before.user.weth)
    expect(after.attacker.weth - before.attacker.weth).toBe(WETH(330))
  })

  it('an order paid next to nothing: BLOCK, and a solver takes the 1,000 USDC for 1 wei', async () => {
    const f = fixtures()
    const drain = order(f, { buyAmount: 1 })
    const { payload, signature } = await cow.sign(drain, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toContainEqual(['TRADE_FOR_NOTHING', 'CRITICAL'])

    const before = await balances(f, user.address)
    await cow.settle(drain, signature)
    const after = await balances(f, user.address)
    expect(before.usdc - after.usdc).toBe(USDC(1_000))
    expect(after.weth - before.weth).toBe(1n)
  })

  it('a 0x order paid in a token with no code (the zero address): BLOCK, for its transfers move nothing', async () => {
    const f = fixtures()
    const [, example] = requestExamples('2023-06-05', '/ethereum/v0/mainnet/scan/message').find(
      ([name]) => name === 'zero_ex_limit_order',
    ) as [string, { message: { data: { domain: object; message: Record<string, unknown> } } }]
    const data = example.message.data
    /** The reference's order with `fields` changed, on the devnet's chain. */
    const on = (fields: Record<string, unknown>) => ({
      ...data,
      domain: { ...data.domain, chainId: f.chainId },
      message: { ...data.message, maker: user.address, makerToken: f.erc20.address, ...fields },
    })
    for (const takerToken of [zeroAddress, f.accounts[5]?.address as Address]) {
      const response = await scan(on({ takerToken }))
      expect(response.action, takerToken).toBe('BLOCK')
      expect(response.warnings.map((w) => w.kind)).toContain('TRADE_FOR_NOTHING')
    }
    // The same order paid in the devnet's WETH is an ordinary limit order.
    const honest = await scan(
      on({ takerToken: f.weth.address, takerAmount: WETH(330).toString(), makerAmount: USDC(1_000).toString() }),
    )
    expect(honest.action).toBe('NONE')
    expect(diffsOf(honest.simulationResults.expectedStateChanges)).toEqual([
      'Send up to 1,000 USDC',
      'Receive up to 0.33 WETH',
    ])
  })

  it('a buy order of native ETH: "Send at most" the limit and "Receive" the exact amount, as settled', async () => {
    const f = fixtures()
    const buy = order(f, {
      kind: 'buy' as CowOrder['kind'],
      buyToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      sellAmount: USDC(1_500),
      buyAmount: WETH(450),
    })
    const { payload, signature } = await cow.sign(buy, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('NONE')
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send at most 1,500 USDC', 'Receive 0.45 ETH'])

    const ethBefore = await client().getBalance({ address: user.address })
    const before = await balances(f, user.address)
    await cow.settle(buy, signature)
    expect(await client().getBalance({ address: user.address })).toBe(ethBefore + WETH(450))
    expect(claimedBalance(changes, 'USDC')).toEqual({
      before: before.usdc,
      after: (await balances(f, user.address)).usdc,
    })
  })
})
