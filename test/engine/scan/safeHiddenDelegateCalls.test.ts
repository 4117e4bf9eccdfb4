/**
 * Delegate calls the calldata hides from a first reading, carrying code that acts only when it really runs: the Safe's
 * threshold is 1 under the simulation's preset and 2 for real, so a payload that reads it does nothing in the
 * simulation. The only defence is the calldata: each of these must end at a CRITICAL warning and BLOCK, and executed
 * on the devnet (reality as the oracle), each does replace the Safe's singleton.
 */
import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory'
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  parseAbi,
  size,
  zeroHash,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { safeArtifact } from '../../../src/devnet/safeDeployment.ts'
import type { SafeTx, Warning } from '../../../src/engine/index.ts'
import { safeDeployment } from '../../../src/engine/safe/deployments.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { devnetClients, ownerSignatures, scanSafeProposal, THRESHOLD_BOMB } from '../safeSupport.ts'

const fx = devnetRolledBackPerTest()
const { chain, wallet } = devnetClients(fx)
const abi = parseAbi([
  'function nonce() view returns (uint256)',
  'function migrate(address singleton)',
  'function multiSend(bytes transactions) payable',
  'function simulate(address to, uint256 value, bytes data, uint8 operation) returns (uint256, bool, bytes)',
])

async function deployBomb(): Promise<Address> {
  const { abi: bombAbi, bytecode } = deployable('ThresholdBomb.sol', THRESHOLD_BOMB, 'ThresholdBomb')
  const receipt = await waitForReceipt(chain(), await wallet(8).deployContract({ abi: bombAbi, bytecode }))
  return receipt.contractAddress as Address
}

/** Safe 1.4.1's SimulateTxAccessor where every chain has it: the singleton factory's CREATE2 with a zero salt. */
async function deploySimulateTxAccessor(): Promise<Address> {
  const factory = getSingletonFactoryInfo(fx().chainId)?.address as Address
  const { bytecode } = safeArtifact('accessors/SimulateTxAccessor.sol/SimulateTxAccessor.json')
  const address = getContractAddress({ opcode: 'CREATE2', from: factory, salt: zeroHash, bytecode })
  if (!(await chain().getCode({ address }))) {
    const hash = await wallet(0).sendTransaction({ to: factory, data: concat([zeroHash, bytecode]), gas: 8_000_000n })
    await waitForReceipt(chain(), hash)
  }
  return address
}

const packed = (operation: number, to: Address, value: bigint, data: Hex = '0x'): Hex =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [operation, to, value, BigInt(size(data)), data])
const multiSend = (transactions: Hex): Hex =>
  encodeFunctionData({ abi, functionName: 'multiSend', args: [transactions] })
const migrate = () => encodeFunctionData({ abi, functionName: 'migrate', args: [fx().safeAttacks.singleton] })
const nonce = () => chain().readContract({ address: fx().safe.address, abi, functionName: 'nonce' })

/** `depth` MultiSends, each delegate-calling the next; the innermost delegate-calls `to` with `data`. */
function nestedMultiSend(depth: number, to: Address, data: Hex): Hex {
  let inner = multiSend(packed(1, to, 0n, data))
  for (let level = 1; level < depth; level++) inner = multiSend(packed(1, fx().safeContracts.multiSend, 0n, inner))
  return inner
}

/** A delegate call from the Safe to `to`, proposed to owner 1 as typed data. */
async function delegateProposal(to: Address, data: Hex): Promise<SafeTx> {
  return { ...plainSafeTx(to, 0n, await nonce(), data), operation: 1 }
}

const scanProposal = (tx: SafeTx) => scanSafeProposal(fx(), tx)

/** The CRITICAL warnings that come from the calldata (not from a simulated change), by their data. */
const calldataWarnings = (warnings: Warning[]) =>
  warnings.flatMap((warning) =>
    warning.severity === 'CRITICAL' && typeof warning.data === 'object' && warning.data && !('field' in warning.data)
      ? [warning.data]
      : [],
  )

/** Owners 0 and 1 sign, dev account 7 executes; the Safe's singleton (slot 0) afterwards. */
async function executeAndReadSingleton(tx: SafeTx): Promise<Address> {
  const hash = await wallet(7).sendTransaction({
    to: fx().safe.address,
    data: execTransactionData(tx, await ownerSignatures(fx(), tx)),
  })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
  const slot0 = await chain().getStorageAt({ address: fx().safe.address, slot: '0x0' })
  return `0x${(slot0 ?? '').slice(-40)}`
}

describe('a delegate call hidden from a first reading of the calldata still ends at BLOCK', () => {
  it('through Safe’s own SimulateTxAccessor, which runs any delegate call it is handed → CRITICAL, BLOCK', async () => {
    const bomb = await deployBomb()
    const accessor = await deploySimulateTxAccessor()
    expect(safeDeployment(accessor)).toMatchObject({ name: 'SimulateTxAccessor', version: '1.4.1' })
    const data = encodeFunctionData({ abi, functionName: 'simulate', args: [bomb, 0n, migrate(), 1] })
    const tx = await delegateProposal(accessor, data)
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(calldataWarnings(response.warnings)).toEqual([{ delegateCallTo: accessor.toLowerCase() }])
    expect(await executeAndReadSingleton(tx)).toBe(fx().safeAttacks.singleton.toLowerCase())
  })

  it('past the unwrapping depth, 5 MultiSends deep → CRITICAL for the batch it cannot read, BLOCK', async () => {
    const bomb = await deployBomb()
    const tx = await delegateProposal(fx().safeContracts.multiSend, nestedMultiSend(5, bomb, migrate()))
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(calldataWarnings(response.warnings)).toEqual([{ unreadCallsIn: fx().safeContracts.multiSend.toLowerCase() }])
    expect(response.warnings.find((warning) => 'unreadCallsIn' in (warning.data as object))?.message).toContain(
      'cannot read in full',
    )
    expect(await executeAndReadSingleton(tx)).toBe(fx().safeAttacks.singleton.toLowerCase())
  })

  it('4 MultiSends deep is still unwrapped: the bomb itself is named', async () => {
    const bomb = await deployBomb()
    const tx = await delegateProposal(fx().safeContracts.multiSend, nestedMultiSend(4, bomb, migrate()))
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(calldataWarnings(response.warnings)).toEqual([{ delegateCallTo: bomb.toLowerCase() }])
  })

  it('a MultiSend batch with a trailing byte, which MultiSend skips → the bomb is named, BLOCK', async () => {
    const bomb = await deployBomb()
    const data = multiSend(concat([packed(1, bomb, 0n, migrate()), '0x00']))
    const tx = await delegateProposal(fx().safeContracts.multiSend, data)
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(calldataWarnings(response.warnings)).toEqual([{ delegateCallTo: bomb.toLowerCase() }])
    expect(await executeAndReadSingleton(tx)).toBe(fx().safeAttacks.singleton.toLowerCase())
  })

  it('a MultiSend entry that runs past the batch’s end → CRITICAL for the batch, BLOCK', async () => {
    const bomb = await deployBomb()
    // The entry claims 4 more bytes than the batch holds: MultiSend reads them from the memory that follows.
    const entry = encodePacked(
      ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
      [1, bomb, 0n, BigInt(size(migrate()) + 4), migrate()],
    )
    const tx = await delegateProposal(fx().safeContracts.multiSend, multiSend(entry))
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(calldataWarnings(response.warnings)).toEqual([{ unreadCallsIn: fx().safeContracts.multiSend.toLowerCase() }])
    expect(await executeAndReadSingleton(tx)).toBe(fx().safeAttacks.singleton.toLowerCase())
  })
})
