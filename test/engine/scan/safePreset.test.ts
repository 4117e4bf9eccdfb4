/**
 * The MULTISIG_WALLET preset leaves the Safe as it is: code a proposal runs as the devnet's 2-of-3 Safe reads the real
 * threshold, so a payload that acts only outside a simulation (threshold above 1) acts in it too, and a threshold the
 * payload writes without an event is reported as written. Reality is the oracle: executed with the owners'
 * signatures, each proposal does what the scan showed.
 */
import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type SafeTx, type StateChange, scanTransactionsWithStats } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { devnetClients, ownerSignatures, scanSafeProposal, THRESHOLD_BOMB } from '../safeSupport.ts'

const PAYLOADS = `${THRESHOLD_BOMB}
/// Delegate-called by a Safe: writes its threshold slot without the ChangedThreshold event.
contract SilentThreshold {
    function lower() external {
        assembly { sstore(4, 1) }
    }
}
`

const fx = devnetRolledBackPerTest()
const { chain, wallet } = devnetClients(fx)
const abi = parseAbi([
  'function nonce() view returns (uint256)',
  'function getThreshold() view returns (uint256)',
  'function migrate(address singleton)',
  'function lower()',
])
const owner = (index: number) => fx().accounts[index]?.address as Address
const diffs = (changes: StateChange[] | undefined) => (changes ?? []).map((change) => change.humanReadableDiff)
const nonce = () => chain().readContract({ address: fx().safe.address, abi, functionName: 'nonce' })

async function deploy(name: 'ThresholdBomb' | 'SilentThreshold'): Promise<Address> {
  const { abi: payloadAbi, bytecode } = deployable('Payloads.sol', PAYLOADS, name)
  const receipt = await waitForReceipt(chain(), await wallet(8).deployContract({ abi: payloadAbi, bytecode }))
  return receipt.contractAddress as Address
}

const scanProposal = (tx: SafeTx) => scanSafeProposal(fx(), tx)

/** Owner 0 sends the proposal's execTransaction without signatures, under the MULTISIG_WALLET preset. */
async function scanUnderPreset(tx: SafeTx) {
  const { outcome } = await scanTransactionsWithStats(
    {
      txObjects: [{ from: owner(0), to: fx().safe.address, data: execTransactionData(tx, '0x') }],
      userAccount: fx().safe.address,
      metadata: { origin: 'https://app.safe.global' },
      simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: fx().safe.address }] },
    },
    { rpcUrl: fx().rpcUrl },
  )
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  return outcome.response
}

/** Dev account 7 executes the proposal with owners 0 and 1's signatures. */
async function execute(tx: SafeTx): Promise<void> {
  const data = execTransactionData(tx, await ownerSignatures(fx(), tx))
  const hash = await wallet(7).sendTransaction({ to: fx().safe.address, data })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
}

const slot0 = async () =>
  `0x${((await chain().getStorageAt({ address: fx().safe.address, slot: '0x0' })) ?? '').slice(-40)}`

describe('the MULTISIG_WALLET preset leaves the threshold as the Safe holds it', () => {
  it('a payload that swaps the singleton only when the threshold is above 1 is shown swapping it', async () => {
    const bomb = await deploy('ThresholdBomb')
    const migrate = encodeFunctionData({ abi, functionName: 'migrate', args: [fx().safeAttacks.singleton] })
    const tx = { ...plainSafeTx(bomb, 0n, await nonce(), migrate), operation: 1 }
    const swap = expect.stringMatching(/^Singleton: Safe 1\.4\.1 \(0x4167…461a\) → 0x[0-9a-f]{4}…[0-9a-f]{4}$/)

    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('BLOCK')
    expect(diffs(proposal.simulationResults.expectedStateChanges)).toEqual([swap])
    const preset = await scanUnderPreset(tx)
    const safeKey = fx().safe.address.toLowerCase() as Address
    expect(diffs(preset.simulationResults.aggregated.expectedStateChanges[safeKey])).toEqual([swap])

    await execute(tx)
    expect(await slot0()).toBe(fx().safeAttacks.singleton.toLowerCase())
  })

  it('a threshold written to 1 without the ChangedThreshold event is reported: Threshold: 2 → 1', async () => {
    const silent = await deploy('SilentThreshold')
    const tx = {
      ...plainSafeTx(silent, 0n, await nonce(), encodeFunctionData({ abi, functionName: 'lower' })),
      operation: 1,
    }

    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('BLOCK')
    expect(diffs(proposal.simulationResults.expectedStateChanges)).toEqual([
      'Threshold: 2 → 1 (any single owner then controls the Safe)',
    ])

    await execute(tx)
    expect(await chain().readContract({ address: fx().safe.address, abi, functionName: 'getThreshold' })).toBe(1n)
  })
})
