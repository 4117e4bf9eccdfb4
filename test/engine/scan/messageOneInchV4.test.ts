/**
 * 1inch Limit Order Protocol v4 orders (router v6's orders) against the protocol's own LimitOrderProtocol, compiled
 * from its npm package and deployed on the devnet: each order is signed with the maker's key, scanned, then filled on
 * chain by a taker, and the balances that moved are compared with what the scan said.
 */
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  numberToHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import {
  type DevnetLimitOrderProtocol,
  deployLimitOrderProtocol,
  type OneInchOrder,
  readSource,
} from '../../support/oneInch.ts'
import { deployable } from '../../support/solc.ts'
import { approveMax, claimedBalance, diffsOf, orderScanner } from '../messageSupport.ts'

const USDC = (whole: number) => BigInt(whole) * 10n ** 6n
const WETH = (thousandths: number) => BigInt(thousandths) * 10n ** 15n
const NOW = 1_900_000_000
/** MakerTraitsLib's flags. */
const NO_PARTIAL_FILLS = 1n << 255n
const ALLOW_MULTIPLE_FILLS = 1n << 254n
const HAS_EXTENSION = 1n << 249n

/** An amount getter an extension can name: every fill pays the maker 1 wei, whatever the signed amounts say. */
const ONE_WEI_GETTER = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
import "contracts/interfaces/IAmountGetter.sol";
contract OneWei is IAmountGetter {
  function getMakingAmount(IOrderMixin.Order calldata, bytes calldata, bytes32, address, uint256, uint256 remaining,
    bytes calldata) external pure returns (uint256) { return remaining; }
  function getTakingAmount(IOrderMixin.Order calldata, bytes calldata, bytes32, address, uint256, uint256,
    bytes calldata) external pure returns (uint256) { return 1; }
}`

describe('scanMessage: 1inch v4 orders, filled by the protocol’s own contract on the devnet', () => {
  const fixtures = devnetRolledBackPerTest()
  let lop: DevnetLimitOrderProtocol
  let user: { address: Address; privateKey: Hex }
  let attacker: Address

  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures().rpcUrl) })
  const balances = async (f: Fixtures, account: Address) => {
    const read = (token: Address) =>
      client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    return { usdc: await read(f.erc20.address), weth: await read(f.weth.address) }
  }
  /** 1,000 USDC for 0.33 WETH, paid to the maker, filled in part and more than once, as 1inch's apps make them. */
  const order = (f: Fixtures, overrides: Partial<OneInchOrder> = {}): OneInchOrder => ({
    salt: 1n,
    maker: user.address,
    receiver: zeroAddress,
    makerAsset: f.erc20.address,
    takerAsset: f.weth.address,
    makingAmount: USDC(1_000),
    takingAmount: WETH(330),
    makerTraits: ALLOW_MULTIPLE_FILLS,
    ...overrides,
  })
  const scan = orderScanner(
    () => user.address,
    'https://app.1inch.io',
    () => fixtures().rpcUrl,
    NOW,
  )

  beforeEach(async () => {
    const f = fixtures()
    user = f.accounts[0] as { address: Address; privateKey: Hex }
    attacker = f.accounts[8]?.address as Address
    lop = await deployLimitOrderProtocol(f, f.accounts[9] as { address: Address; privateKey: Hex })
    await approveMax(f.rpcUrl, user, f.erc20.address, lop.address)
  }, 120_000)

  it('a fair order: NONE, "up to" both sides, and two part fills pay in proportion, up to what the scan said', async () => {
    const f = fixtures()
    const fair = order(f)
    const { payload, signature } = await lop.sign(fair, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send up to 1,000 USDC', 'Receive up to 0.33 WETH'])

    const before = await balances(f, user.address)
    await lop.fill(fair, signature, { making: USDC(400) })
    const part = await balances(f, user.address)
    expect([before.usdc - part.usdc, part.weth - before.weth]).toEqual([USDC(400), WETH(132)])
    await lop.fill(fair, signature, { making: USDC(600) })
    const after = await balances(f, user.address)
    expect(claimedBalance(changes, 'USDC')).toEqual({ before: before.usdc, after: after.usdc })
    expect(claimedBalance(changes, 'WETH')).toEqual({ before: before.weth, after: after.weth })
  })

  it('an order that forbids partial fills: exact both sides; a part fill reverts, the whole moves what was shown', async () => {
    const f = fixtures()
    const whole = order(f, { makerTraits: NO_PARTIAL_FILLS })
    const { payload, signature } = await lop.sign(whole, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('NONE')
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send 1,000 USDC', 'Receive 0.33 WETH'])

    const before = await balances(f, user.address)
    await expect(lop.fill(whole, signature, { making: USDC(400) })).rejects.toThrow(/PartialFillNotAllowed/)
    await lop.fill(whole, signature)
    const after = await balances(f, user.address)
    expect(claimedBalance(changes, 'USDC')).toEqual({ before: before.usdc, after: after.usdc })
    expect(claimedBalance(changes, 'WETH')).toEqual({ before: before.weth, after: after.weth })
  })

  it('an order paid 1 wei: BLOCK, and a taker takes the 1,000 USDC for 1 wei', async () => {
    const f = fixtures()
    const drain = order(f, { takingAmount: 1n })
    const { payload, signature } = await lop.sign(drain, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toContainEqual(['TRADE_FOR_NOTHING', 'CRITICAL'])

    const before = await balances(f, user.address)
    await lop.fill(drain, signature)
    const after = await balances(f, user.address)
    expect([before.usdc - after.usdc, after.weth - before.weth]).toEqual([USDC(1_000), 1n])
  })

  it('an order paid in a "token" with no code: BLOCK, and the fill takes the USDC for a transfer that moves nothing', async () => {
    const f = fixtures()
    const nothing = order(f, { takerAsset: f.accounts[5]?.address as Address })
    const { payload, signature } = await lop.sign(nothing, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((w) => w.kind)).toContain('TRADE_FOR_NOTHING')

    const before = await balances(f, user.address)
    await lop.fill(nothing, signature)
    const after = await balances(f, user.address)
    expect([before.usdc - after.usdc, after.weth - before.weth]).toEqual([USDC(1_000), 0n])
  })

  it('an order that pays another address: WARN naming it, only the sale shown, and the attacker is paid', async () => {
    const f = fixtures()
    const redirected = order(f, { receiver: attacker })
    const { payload, signature } = await lop.sign(redirected, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(warning?.data).toEqual({ receivers: [attacker.toLowerCase()] })
    const changes = response.simulationResults.expectedStateChanges
    expect(diffsOf(changes)).toEqual(['Send up to 1,000 USDC'])

    const before = { user: await balances(f, user.address), attacker: await balances(f, attacker) }
    await lop.fill(redirected, signature)
    const after = { user: await balances(f, user.address), attacker: await balances(f, attacker) }
    expect(claimedBalance(changes, 'USDC')).toEqual({ before: before.user.usdc, after: after.user.usdc })
    expect(after.user.weth).toBe(before.user.weth)
    expect(after.attacker.weth - before.attacker.weth).toBe(WETH(330))
  })

  it('an order with an extension: WARN that what moves may differ, and a getter it names pays 1 wei', async () => {
    const f = fixtures()
    const deployer = f.accounts.find((a) => a.address === f.deployer) ?? f.accounts[0]
    const getter = deployable('OneWei.sol', ONE_WEI_GETTER, 'OneWei', {}, readSource)
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(f.rpcUrl),
      account: privateKeyToAccount(deployer?.privateKey as Hex),
    })
    const getterAddress = (await waitForReceipt(client(), await wallet.deployContract(getter))).contractAddress
    // ExtensionLib: 32 bytes of field ends, then the fields; only takingAmountData (field 3), the getter's address.
    const ends = [0n, 0n, 0n, 20n, 20n, 20n, 20n, 20n]
    const offsets = ends.reduce((sum, end, index) => sum | (end << BigInt(32 * index)), 0n)
    const extension = concat([numberToHex(offsets, { size: 32 }), getterAddress as Address])
    // The signature binds the extension only by the low 160 bits of the salt.
    const salt = BigInt(keccak256(extension)) & ((1n << 160n) - 1n)
    const extended = order(f, { salt, makerTraits: ALLOW_MULTIPLE_FILLS | HAS_EXTENSION })
    const { payload, signature } = await lop.sign(extended, user.privateKey)
    const response = await scan(payload)
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([
      ['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING'],
    ])
    expect(diffsOf(response.simulationResults.expectedStateChanges)).toEqual([
      'Send up to 1,000 USDC',
      'Receive up to 0.33 WETH',
    ])

    const before = await balances(f, user.address)
    await lop.fill(extended, signature, { extension })
    const after = await balances(f, user.address)
    expect([before.usdc - after.usdc, after.weth - before.weth]).toEqual([USDC(1_000), 1n])
  })
})
