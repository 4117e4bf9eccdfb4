/**
 * A contract can compare block.number with a number it keeps (KeptWrapper: a keeper writes it every block, as a busy
 * pool or keeper does) and pay the user honestly only in a block later than the next, where a simulation that runs
 * other blocks first puts the transaction. The chain mines a transaction sent now in the block after the head, and the
 * first block eth_simulateV1 simulates is that one (head + 1, as geth, reth and the execution-apis spec number it), so
 * the scan's reads before the transactions run in that block, ahead of them, and the transactions run there too.
 * anvil numbers its first simulated block as the base itself, so the geth-like node (test/support/simulateRules.ts)
 * numbers the blocks as geth does; on a base block the request names, the engine says the number outright, and so does
 * the environment probe after the head it reads. On `latest`, anvil still runs the scan's transactions at the head's
 * number (the engine cannot know it without a round trip first): there the probe is what sees the drain.
 */
import { type Address, createPublicClient, encodeFunctionData, http, numberToHex, parseAbi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import type { RpcStandIn } from '../../support/net.ts'
import { GETH_DEFAULTS, startRuleKeepingNode } from '../../support/simulateRules.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { accountDiffs, deployOnDevnet, scanOnDevnet, validateTransactionsResponse } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const user = () => fx().accounts[0]?.address as Address
const owner = () => fx().accounts[7]?.address as Address
const keeper = () => fx().accounts[8]?.address as Address
const abi = parseAbi(['function deposit() payable', 'function keep()'])
const DEPOSIT = encodeFunctionData({ abi, functionName: 'deposit' })

let gethLike: RpcStandIn

beforeAll(async () => {
  const block = await createPublicClient({ transport: http(fx().rpcUrl) }).getBlock()
  gethLike = await startRuleKeepingNode(fx().rpcUrl, { ...GETH_DEFAULTS, gasLimit: block.gasLimit })
})
afterAll(async () => {
  await gethLike?.close()
})

/** KeptWrapper deployed, its keeper's call mined in the head block, and a deposit of 1 ETH into it from the user. */
async function keptDeposit(): Promise<{ wrapper: Address; tx: TxRequest }> {
  const wrapper = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('KeptWrapper'))
  const client = devnetClient(fx().rpcUrl)
  const hash = await client.sendTransaction({
    account: keeper(),
    chain: null,
    to: wrapper,
    data: encodeFunctionData({ abi, functionName: 'keep' }),
  })
  await waitForReceipt(client, hash)
  return { wrapper, tx: { from: user(), to: wrapper, data: DEPOSIT, value: numberToHex(parseEther('1')) } }
}

/** Sends `tx` for real and checks it moved what `response` showed; the owner gains the 1 ETH, nothing is minted. */
async function expectDrainedAsShown(response: Parameters<typeof expectRealityMatches>[1], tx: TxRequest) {
  const client = devnetClient(fx().rpcUrl)
  const ownerBefore = await client.getBalance({ address: owner() })
  const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
  expect(executed.get(`${(tx.to as Address).toLowerCase()}|native`)).toBeUndefined()
  expect((await client.getBalance({ address: owner() })) - ownerBefore).toBe(parseEther('1'))
}

describe('a deposit that pays the owner only in the block right after its keeper’s', () => {
  it('on a node numbering as geth does: the scan shows the 1 ETH going and nothing minted, as mined; WARN', async () => {
    const { tx } = await keptDeposit()

    const response = await scanOnDevnet(gethLike.url, tx)
    expect(accountDiffs(response, user())).toEqual(['Send 1 ETH'])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((warning) => warning.kind)).toEqual(['SUSPECTED_MALICIOUS'])

    await expectDrainedAsShown(response, tx)
  })

  it('sent declaring near all the block’s gas, which left the reads no room beside it: the same, as mined', async () => {
    // 29,900,000 gas declared left no room for the 250,000 each view read declares: the reads took a block of their own,
    // the deposit ran at head + 2 and showed "Receive 1 KGIFT", NONE. Now the reads share the block with it.
    const { wrapper, tx } = await keptDeposit()
    const gas = 29_900_000n
    const request = scanRequest(tx)
    const declared = { ...request, txObjects: request.txObjects.map((call) => ({ ...call, gas: gas.toString() })) }
    const outcome = await scanTransactions(declared, { rpcUrl: gethLike.url, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    expect(accountDiffs(outcome.response, user())).toEqual(['Send 1 ETH'])
    expect(outcome.response.warnings.map((warning) => warning.kind)).toEqual(['SUSPECTED_MALICIOUS'])
    expect(outcome.response.action).toBe('WARN')

    // Mined with that gas: the owner has the 1 ETH and the user no KGIFT.
    const client = devnetClient(fx().rpcUrl)
    const ownerBefore = await client.getBalance({ address: owner() })
    const hash = await client.sendTransaction({
      account: user(),
      chain: null,
      to: wrapper,
      data: DEPOSIT,
      gas,
      value: parseEther('1'),
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    expect((await client.getBalance({ address: owner() })) - ownerBefore).toBe(parseEther('1'))
    const kgift = parseAbi(['function balanceOf(address) view returns (uint256)'])
    expect(await client.readContract({ address: wrapper, abi: kgift, functionName: 'balanceOf', args: [user()] })).toBe(
      0n,
    )
  })

  it('on anvil, scanned on the head block named: the same, as mined', async () => {
    const { tx } = await keptDeposit()
    const head = await devnetClient(fx().rpcUrl).getBlockNumber()

    const request = { ...scanRequest(tx), simulatorConfig: { blockNumber: head.toString() } }
    const outcome = await scanTransactions(request, { rpcUrl: fx().rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    expect(accountDiffs(outcome.response, user())).toEqual(['Send 1 ETH'])
    expect(outcome.response.action).toBe('WARN')

    await expectDrainedAsShown(outcome.response, tx)
  })

  it('on anvil at latest with the environment probe: the probe, in the block after the head, sees the drain', async () => {
    const { wrapper, tx } = await keptDeposit()

    const outcome = await scanTransactions(scanRequest(tx), {
      rpcUrl: fx().rpcUrl,
      chainId: 31337,
      probeEnvironment: true,
    })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    // anvil's own numbering: the scan's block has the head's number, where the deposit mints.
    expect(accountDiffs(outcome.response, user())).toEqual(['Send 1 ETH', 'Receive 1 KGIFT'])
    const evasion = outcome.response.warnings.find((warning) => warning.kind === 'SIMULATION_EVASION')
    expect(evasion).toMatchObject({ severity: 'WARNING' })
    expect(outcome.response.action).toBe('WARN')

    const client = devnetClient(fx().rpcUrl)
    const hash = await client.sendTransaction({
      account: user(),
      chain: null,
      to: wrapper,
      data: DEPOSIT,
      value: parseEther('1'),
    })
    const receipt = await waitForReceipt(client, hash)
    expect(receipt.logs).toEqual([])
  })
})
