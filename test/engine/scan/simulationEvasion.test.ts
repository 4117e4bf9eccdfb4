/**
 * A contract that can tell a simulation from a mined transaction (a gas price of 0, a base fee of 0, a block's gas
 * left, the head's time or randomness where the next block has its own, a balance no fee was taken from) pays back in the scan's simulation and keeps everything for real. With `probeEnvironment` the scan runs the
 * transactions again as a block runs them and says so (SIMULATION_EVASION); each claim is then sent for real, and
 * what its owner receives is what the probe said the user loses.
 */
import { type Address, encodeFunctionData, numberToHex, parseAbi, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { v2SwapEthForTokens } from '../../../src/devnet/dapp/uniswap.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import {
  NATIVE_ASSET_ADDRESS,
  type ScanTransactionsResponse,
  scanTransactionsWithStats,
} from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { CLAIM, deployEvasiveGiveaway, ENGINE_CODE_TELL, TELLS } from '../../support/evasiveGiveaway.ts'
import { devnetClient } from '../protocolSupport.ts'
import { deployOnDevnet, validateTransactionsResponse } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const user = () => fx().accounts[0]?.address as Address
const owner = () => fx().accounts[7]?.address as Address
const client = () => devnetClient(fx().rpcUrl)
const CLAIMED = parseEther('0.1')

async function scan(
  txs: TxRequest[],
  probeEnvironment: boolean,
  balances: { address: string; value: string }[] = [],
): Promise<{ response: ScanTransactionsResponse; roundTrips: number }> {
  const { outcome, stats } = await scanTransactionsWithStats(
    {
      txObjects: txs.map((tx) => ({
        from: tx.from,
        to: tx.to,
        data: tx.data ?? '0x',
        value: BigInt(tx.value ?? 0).toString(),
      })),
      userAccount: user(),
      metadata: { origin: 'https://claim.example' },
      ...(balances.length > 0 ? { simulatorConfig: { stateOverrides: { nativeBalances: balances } } } : {}),
    },
    { rpcUrl: fx().rpcUrl, chainId: 31337, probeEnvironment },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

const evasion = (response: ScanTransactionsResponse) =>
  response.warnings.filter((warning) => warning.kind === 'SIMULATION_EVASION')

const claim = (giveaway: Address): TxRequest => ({
  from: user(),
  to: giveaway,
  data: CLAIM,
  value: numberToHex(CLAIMED),
})

/**
 * The scan shows `giveaway`'s claim as a gift, NONE; probed, BLOCK with the loss; sent `signingMs` after the scans (the
 * time a user takes to sign), its owner keeps the claim.
 */
async function expectCaughtAndDrained(giveaway: Address, signingMs = 0) {
  const tx = claim(giveaway)

  const plain = await scan([tx], false)
  expect(plain.response.action).toBe('NONE')
  const mine = plain.response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address]
  expect(mine?.map((change) => change.humanReadableDiff)).toEqual(['Receive 0.1 ETH'])

  const probed = await scan([tx], true)
  expect(probed.response.action).toBe('BLOCK')
  const [warning] = evasion(probed.response)
  expect(warning).toMatchObject({ severity: 'CRITICAL' })
  expect(warning?.message).toContain('-0.1 ETH for real, where the simulation shows +0.1 ETH')
  expect(warning?.data).toEqual({
    changes: [{ asset: NATIVE_ASSET_ADDRESS, simulated: String(CLAIMED), real: String(-CLAIMED) }],
  })
  // One more round trip at most: the probe rides with the scan's second call, or follows the first alone.
  expect(probed.roundTrips).toBeLessThanOrEqual(plain.roundTrips + 1)

  await new Promise((resolve) => setTimeout(resolve, signingMs))
  expect(await ownersTakeOfClaim(giveaway)).toBe(CLAIMED)
}

/**
 * Sends a claim of `giveaway` as a wallet sends it, its gas estimated (on the simulated path, which pays back) with
 * MetaMask's margin of half again, its fees set by viem; returns what the owner gained.
 */
async function ownersTakeOfClaim(giveaway: Address): Promise<bigint> {
  const ownerBefore = await client().getBalance({ address: owner() })
  const estimate = await client().estimateGas({ account: user(), to: giveaway, data: CLAIM, value: CLAIMED })
  const hash = await client().sendTransaction({
    account: user(),
    to: giveaway,
    data: CLAIM,
    value: CLAIMED,
    gas: (estimate * 3n) / 2n,
    chain: null,
  })
  expect((await waitForReceipt(client(), hash)).status).toBe('success')
  return (await client().getBalance({ address: owner() })) - ownerBefore
}

describe('a claim that pays back only while it is simulated', () => {
  for (const [tell, code] of Object.entries(TELLS)) {
    it(`reading the ${tell}: the scan shows a gift; probed, BLOCK; sent, its owner keeps the whole claim`, async () => {
      await expectCaughtAndDrained(await deployEvasiveGiveaway(fx().rpcUrl, owner(), code))
    })
  }
})

describe('a claim that tells the simulated block from the next one', () => {
  const funds = parseEther('5')

  it("armed a second after the head: the scan runs on the head's time; probed on the next block's, BLOCK", async () => {
    // anvil simulates on the head's own time; a chain mines the claim at least a second later (anvil, which mines on its
    // clock, once that has passed it: the user takes a second to sign).
    const giveaway = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('TimedGiveaway'), [1n], funds)
    await expectCaughtAndDrained(giveaway, 1_100)
  })

  it("paying back on the head's randomness: every scan runs on a randomness of its own and shows the loss", async () => {
    // anvil simulates on the head's randomness, geth on zero; the next block's is nobody's yet.
    const giveaway = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('RandaoGiveaway'), [], funds)
    const { response } = await scan([claim(giveaway)], false)
    const mine = response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address]
    expect(mine?.map((change) => change.humanReadableDiff)).toEqual(['Send 0.1 ETH'])
    expect(evasion((await scan([claim(giveaway)], true)).response)).toEqual([])
    expect(await ownersTakeOfClaim(giveaway)).toBe(CLAIMED)
  })
})

describe('a claim that knows what its claimer holds', () => {
  it('pays back while they hold exactly that less the claim, as in a scan that charges no fee: probed, BLOCK', async () => {
    const giveaway = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('BalanceGiveaway'), [], parseEther('5'))
    const balance = await client().getBalance({ address: user() })
    const watch = encodeFunctionData({
      abi: parseAbi(['function watch(address claimer, uint256 balance)']),
      functionName: 'watch',
      args: [user(), balance - CLAIMED],
    })
    await waitForReceipt(
      client(),
      await client().sendTransaction({ account: owner(), to: giveaway, data: watch, chain: null }),
    )
    await expectCaughtAndDrained(giveaway)
  })
})

describe("a claim that looks for the engine's own code", () => {
  it('finds none while the transactions run: the scan shows the loss, and the probe agrees', async () => {
    const giveaway = await deployEvasiveGiveaway(fx().rpcUrl, owner(), ENGINE_CODE_TELL)
    const { response } = await scan([claim(giveaway)], true)
    const mine = response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address]
    expect(mine?.map((change) => change.humanReadableDiff)).toEqual(['Send 0.1 ETH'])
    expect(evasion(response)).toEqual([])
  })
})

describe('honest transactions, probed', () => {
  it('a swap: the same outcome, no warning', async () => {
    const { response } = await scan([v2SwapEthForTokens(fx(), user(), fx().erc20.address, parseEther('1'))], true)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
  })

  it('a plain transfer runs no code that could read the block: not probed, no extra round trip', async () => {
    const transfer: TxRequest = { from: user(), to: owner(), value: numberToHex(parseEther('1')) }
    const probed = await scan([transfer], true)
    expect(probed.response.warnings).toEqual([])
    expect(probed.roundTrips).toBe((await scan([transfer], false)).roundTrips)
  })

  it('a user who cannot pay for the gas: no probe, so no verdict either way', async () => {
    const giveaway = await deployEvasiveGiveaway(fx().rpcUrl, owner(), TELLS.gasPrice)
    // Exactly the claim and not a wei more: a block would not take the transaction, so the probe is refused.
    const { response } = await scan([claim(giveaway)], true, [{ address: user(), value: String(CLAIMED) }])
    expect(evasion(response)).toEqual([])
    expect(response.action).toBe('NONE')
  })
})
