/**
 * Deposits through the OP Stack's canonical bridge that pay out to another address. The real contracts
 * (@eth-optimism/contracts-bedrock 0.17.3's forge artifacts: L1StandardBridge, L1CrossDomainMessenger, OptimismPortal,
 * SystemConfig and SuperchainConfig, each behind the package's own Proxy, initialised as a chain's deployment does)
 * take the deposit on the devnet. There is no L2 here: the oracle is the event the bridge or the portal emits, which
 * is what the chain's nodes pay out from. What the scan says goes to whom must be what that event says.
 */
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBigInt,
  maxUint128,
  pad,
  parseEther,
  parseEventLogs,
  parseUnits,
  slice,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { beforeEach, describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { opStackBridgeAbi } from '../../../src/engine/abi/index.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../../src/engine/index.ts'
import {
  type OpStackDeposit,
  opStackDeposits,
  opStackDepositWarnings,
} from '../../../src/engine/risk/opStackDeposits.ts'
import type { TokenMetadata } from '../../../src/engine/simulation/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { devnetSigners } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const require = createRequire(import.meta.url)
type ForgeArtifact = { abi: Abi; bytecode: { object: Hex } }
const bedrock = (name: string) =>
  require(`@eth-optimism/contracts-bedrock/forge-artifacts/${name}.sol/${name}.json`) as ForgeArtifact
const BRIDGE = bedrock('L1StandardBridge')
const PORTAL = bedrock('OptimismPortal')

const fx = devnetRolledBackPerTest()
const { account, chain, wallet } = devnetSigners(fx)
const user = () => account(0).address
const attacker = () => account(7).address
const deployer = () => account(9).address
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()

/** The L2 token the devnet's USDC is bridged as: any address will do, the L1 bridge escrows a token it did not mint. */
const L2_USDC: Address = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'

let bridge: Address
let portal: Address

/** Sends `data` from dev account `index` and requires it to succeed. */
async function send(index: number, to: Address, data: Hex, value = 0n) {
  const receipt = await waitForReceipt(chain(), await wallet(index).sendTransaction({ to, data, value }))
  expect(receipt.status).toBe('success')
  return receipt
}

/** One contract of the chain's L1 deployment: its implementation behind a Proxy, upgraded and initialised at once. */
async function deployed(): Promise<{ bridge: Address; portal: Address }> {
  const deploy = async (artifact: ForgeArtifact, args: unknown[] = []) => {
    const hash = await wallet(9).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode.object, args })
    return getAddress((await waitForReceipt(chain(), hash)).contractAddress as Address)
  }
  const proxy = bedrock('Proxy')
  const names = ['SuperchainConfig', 'SystemConfig', 'OptimismPortal', 'L1CrossDomainMessenger', 'L1StandardBridge']
  const proxies: Record<string, Address> = {}
  for (const name of names) proxies[name] = await deploy(proxy, [deployer()])
  const at = (name: string) => proxies[name] as Address
  const initialize: Record<string, unknown[]> = {
    SuperchainConfig: [deployer(), false],
    SystemConfig: [
      deployer(),
      0,
      0,
      zeroHash,
      30_000_000n,
      zeroAddress,
      // Constants.DEFAULT_RESOURCE_CONFIG.
      {
        maxResourceLimit: 20_000_000,
        elasticityMultiplier: 10,
        baseFeeMaxChangeDenominator: 8,
        minimumBaseFee: 1_000_000_000,
        systemTxMaxGas: 1_000_000,
        maximumBaseFee: maxUint128,
      },
      deployer(),
      {
        l1CrossDomainMessenger: at('L1CrossDomainMessenger'),
        l1ERC721Bridge: zeroAddress,
        l1StandardBridge: at('L1StandardBridge'),
        disputeGameFactory: zeroAddress,
        optimismPortal: at('OptimismPortal'),
        optimismMintableERC20Factory: zeroAddress,
        gasPayingToken: zeroAddress,
      },
    ],
    // Withdrawals are proven against the output oracle; deposits never read it.
    OptimismPortal: [deployer(), at('SystemConfig'), at('SuperchainConfig')],
    L1CrossDomainMessenger: [at('SuperchainConfig'), at('OptimismPortal'), at('SystemConfig')],
    L1StandardBridge: [at('L1CrossDomainMessenger'), at('SuperchainConfig'), at('SystemConfig')],
  }
  for (const name of names) {
    const artifact = bedrock(name)
    const implementation = await deploy(artifact)
    const data = encodeFunctionData({ abi: artifact.abi, functionName: 'initialize', args: initialize[name] })
    const upgrade = encodeFunctionData({
      abi: proxy.abi,
      functionName: 'upgradeToAndCall',
      args: [implementation, data],
    })
    await send(9, at(name), upgrade)
  }
  return { bridge: at('L1StandardBridge'), portal: at('OptimismPortal') }
}

beforeEach(async () => {
  ;({ bridge, portal } = await deployed())
})

type Tx = { to: Address; data: Hex; value?: bigint }

async function scan(txs: Tx[]): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(
    {
      txObjects: txs.map((tx) => ({ from: user(), to: tx.to, data: tx.data, value: (tx.value ?? 0n).toString() })),
      userAccount: user(),
      metadata: { origin: 'https://bridge.example' },
    },
    { rpcUrl: fx().rpcUrl, chainId: 31337 },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** Executes the requests from the user and returns the events of the last one, decoded with the contract's ABI. */
async function execute(txs: Tx[], abi: Abi) {
  let receipt: Awaited<ReturnType<typeof send>> | undefined
  for (const tx of txs) receipt = await send(0, tx.to, tx.data, tx.value)
  return parseEventLogs({ abi, logs: receipt?.logs ?? [] }) as unknown as { eventName: string; args: never }[]
}

const bridgeCall = (functionName: string, args: unknown[], value = 0n): Tx => ({
  to: bridge,
  data: encodeFunctionData({ abi: BRIDGE.abi, functionName, args }),
  value,
})

function usdcDeposit(to: Address): Tx[] {
  const amount = parseUnits('100', 6)
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bridge, amount] })
  return [
    { to: fx().erc20.address, data: approve },
    bridgeCall('depositERC20To', [fx().erc20.address, L2_USDC, to, amount, 200_000, '0x']),
  ]
}

const portalDeposit = (to: Address): Tx => ({
  to: portal,
  data: encodeFunctionData({
    abi: PORTAL.abi,
    functionName: 'depositTransaction',
    args: [to, parseEther('1'), 100_000n, false, '0x'],
  }),
  value: parseEther('1'),
})

/** The scan's one warning: TRADE_PROCEEDS_TO_OTHER_ADDRESS naming `amount` and the attacker. */
function expectWarnsOfAttacker(response: ScanTransactionsResponse, amount: string): void {
  expect(response.action).toBe('WARN')
  expect(response.warnings.map((warning) => [warning.kind, warning.severity, warning.message])).toEqual([
    [
      'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
      'WARNING',
      expect.stringMatching(new RegExp(`^This bridges ${amount} through .* to ${short(attacker())}, not to you\\.`)),
    ],
  ])
  expect(response.warnings[0]?.data).toMatchObject({ bridge: 'OP Stack', recipient: attacker().toLowerCase() })
}

describe('OP Stack standard bridge', () => {
  it('depositETH, to the user’s own address on L2: NONE, and ETHDepositInitiated names the user', async () => {
    const tx = bridgeCall('depositETH', [200_000, '0x'], parseEther('1'))
    const response = await scan([tx])
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    const events = await execute([tx], BRIDGE.abi)
    expect(events.find((event) => event.eventName === 'ETHDepositInitiated')?.args).toMatchObject({
      from: user(),
      to: user(),
      amount: parseEther('1'),
    })
  })

  it('depositETHTo another address: WARN naming it, as ETHDepositInitiated does', async () => {
    const tx = bridgeCall('depositETHTo', [attacker(), 200_000, '0x'], parseEther('1'))
    expectWarnsOfAttacker(await scan([tx]), '1 ETH')
    const before = await chain().getBalance({ address: portal })
    const events = await execute([tx], BRIDGE.abi)
    expect(events.find((event) => event.eventName === 'ETHDepositInitiated')?.args).toMatchObject({
      from: user(),
      to: attacker(),
      amount: parseEther('1'),
    })
    // The portal holds the ether the L2 mints.
    expect((await chain().getBalance({ address: portal })) - before).toBe(parseEther('1'))
  })

  it('bridgeETHTo another address: WARN naming it, as ETHBridgeInitiated does', async () => {
    const tx = bridgeCall('bridgeETHTo', [attacker(), 200_000, '0x'], parseEther('1'))
    expectWarnsOfAttacker(await scan([tx]), '1 ETH')
    const events = await execute([tx], BRIDGE.abi)
    expect(events.find((event) => event.eventName === 'ETHBridgeInitiated')?.args).toMatchObject({
      from: user(),
      to: attacker(),
    })
  })

  it('depositERC20To: to the user NONE; to another address WARN naming it, as ERC20DepositInitiated does', async () => {
    expect((await scan(usdcDeposit(user()))).warnings).toEqual([])
    const txs = usdcDeposit(attacker())
    expectWarnsOfAttacker(await scan(txs), '100 USDC')
    const events = await execute(txs, BRIDGE.abi)
    expect(events.find((event) => event.eventName === 'ERC20DepositInitiated')?.args).toMatchObject({
      l1Token: fx().erc20.address,
      from: user(),
      to: attacker(),
      amount: parseUnits('100', 6),
    })
    const escrowed = await chain().readContract({
      address: fx().erc20.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [bridge],
    })
    expect(escrowed).toBe(parseUnits('100', 6))
  })
})

describe('OptimismPortal', () => {
  it('depositTransaction sending its value to the user: NONE', async () => {
    const response = await scan([portalDeposit(user())])
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
  })

  it('depositTransaction sending its value to another address: WARN, as TransactionDeposited says', async () => {
    const tx = portalDeposit(attacker())
    expectWarnsOfAttacker(await scan([tx]), '1 ETH')
    const [deposited] = (await execute([tx], PORTAL.abi)) as unknown as {
      args: { from: Address; to: Address; opaqueData: Hex }
    }[]
    expect(deposited?.args.from).toBe(user())
    expect(deposited?.args.to).toBe(attacker())
    // opaqueData: the ether minted to the sender on L2, then the value sent from it to `to`.
    expect(hexToBigInt(slice(deposited?.args.opaqueData ?? '0x', 0, 32))).toBe(parseEther('1'))
    expect(hexToBigInt(slice(deposited?.args.opaqueData ?? '0x', 32, 64))).toBe(parseEther('1'))
  })
})

describe('opStackDeposits', () => {
  const MAINNET_BRIDGE: Address = '0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1'
  const MAINNET_PORTAL: Address = '0xbEb5Fc579115071764c7423A4f12eDde41f106Ed'
  const from: Address = '0x00000000000000000000000000000000000000D1'
  const to: Address = '0x00000000000000000000000000000000000000E2'
  const isFrom = (address: Address) => address === from
  const unknownToken = (): TokenMetadata => ({ name: null, symbol: null, decimals: null, is1155: false })

  /** A log of `eventName` from `address`, its indexed arguments as topics and the others as data. */
  const log = (address: Address, eventName: string, args: Record<string, unknown>) => {
    const event = opStackBridgeAbi.find((item) => item.type === 'event' && item.name === eventName)
    const inputs = event?.type === 'event' ? event.inputs.filter((input) => !('indexed' in input)) : []
    const topics = encodeEventTopics({ abi: opStackBridgeAbi, eventName, args } as never) as Hex[]
    const data = encodeAbiParameters(inputs, inputs.map((input) => args[input.name as string]) as never)
    return { address, topics, data }
  }

  it('reads a legacy bridge’s Deposit event only when the bridge emits no Bridge event, and names OP Mainnet', () => {
    const legacy = log(MAINNET_BRIDGE, 'ETHDepositInitiated', { from, to, amount: 5n, extraData: '0x' })
    const both = [legacy, log(MAINNET_BRIDGE, 'ETHBridgeInitiated', { from, to, amount: 5n, extraData: '0x' })]
    const deposit: OpStackDeposit = { contract: MAINNET_BRIDGE, via: 'bridge', from, to, token: null, amount: 5n }
    expect(opStackDeposits([legacy])).toEqual([deposit])
    expect(opStackDeposits(both)).toEqual([deposit])
    const [warning] = opStackDepositWarnings([deposit], [], isFrom, 1, unknownToken)
    expect(warning?.message).toContain('to OP Mainnet, where it is paid out to 0x0000…00e2, not to you')
  })

  it('judges a portal deposit by its sender, a contract’s alias undone; one that sends no value pays no one', () => {
    const opaque = (value: bigint) =>
      encodePacked(['uint256', 'uint256', 'uint64', 'bool', 'bytes'], [value, value, 100_000n, false, '0x'])
    const aliased = getAddress(
      pad(toHex((BigInt(from) + 0x1111000000000000000000000000000000001111n) % 2n ** 160n), { size: 20 }),
    )
    const deposited = (value: bigint) =>
      log(MAINNET_PORTAL, 'TransactionDeposited', { from: aliased, to, version: 0n, opaqueData: opaque(value) })
    expect(opStackDeposits([deposited(0n)])).toEqual([])
    const deposits = opStackDeposits([deposited(7n)])
    expect(deposits).toEqual([{ contract: MAINNET_PORTAL, via: 'portal', from: aliased, to, token: null, amount: 7n }])
    expect(opStackDepositWarnings(deposits, [], isFrom, 1, unknownToken)).toHaveLength(1)
    expect(opStackDepositWarnings(deposits, [], () => false, 1, unknownToken)).toEqual([])
  })
})
