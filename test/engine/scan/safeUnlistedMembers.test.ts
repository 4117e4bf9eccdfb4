/**
 * A module or owner written straight into the devnet Safe's mapping, outside its linked list: isModuleEnabled and
 * isOwner say yes, getModulesPaginated and getOwners never reach it. The scan asks the Safe about every address the
 * proposal mentions, so the change is shown and judged as enabling a module or adding an owner is. Reality is the
 * oracle: executed, the unlisted module empties the Safe.
 */
import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory'
import { type Address, concat, encodeFunctionData, getContractAddress, parseAbi, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { safeArtifact } from '../../../src/devnet/safeDeployment.ts'
import type { SafeTx } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { devnetClients, ownerSignatures, scanSafeProposal } from '../safeSupport.ts'

const GHOST = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
/// Delegate-called by a Safe: writes a mapping entry without linking it into the Safe's list.
contract Ghost {
    /// modules[module] = 1 (Safe's slot 1 mapping).
    function install(address module) external {
        bytes32 key = keccak256(abi.encode(module, uint256(1)));
        assembly { sstore(key, 1) }
    }
    /// owners[owner] = 1 (Safe's slot 2 mapping).
    function befriend(address owner) external {
        bytes32 key = keccak256(abi.encode(owner, uint256(2)));
        assembly { sstore(key, 1) }
    }
}`

const fx = devnetRolledBackPerTest()
const { chain, wallet } = devnetClients(fx)
const abi = parseAbi([
  'function nonce() view returns (uint256)',
  'function install(address module)',
  'function befriend(address owner)',
  'function simulate(address to, uint256 value, bytes data, uint8 operation) returns (uint256, bool, bytes)',
  'function isModuleEnabled(address module) view returns (bool)',
  'function getModulesPaginated(address start, uint256 pageSize) view returns (address[] array, address next)',
  'function sweep(address safe)',
  'function isOwner(address owner) view returns (bool)',
  'function getOwners() view returns (address[])',
])
const nonce = () => chain().readContract({ address: fx().safe.address, abi, functionName: 'nonce' })
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()

async function ghost(): Promise<Address> {
  const { abi: ghostAbi, bytecode } = deployable('Ghost.sol', GHOST, 'Ghost')
  const receipt = await waitForReceipt(chain(), await wallet(8).deployContract({ abi: ghostAbi, bytecode }))
  return receipt.contractAddress as Address
}

/** Safe 1.4.1's SimulateTxAccessor at its canonical address, deployed the way every chain has it. */
async function simulateTxAccessor(): Promise<Address> {
  const factory = getSingletonFactoryInfo(fx().chainId)?.address as Address
  const { bytecode } = safeArtifact('accessors/SimulateTxAccessor.sol/SimulateTxAccessor.json')
  const address = getContractAddress({ opcode: 'CREATE2', from: factory, salt: zeroHash, bytecode })
  const hash = await wallet(0).sendTransaction({ to: factory, data: concat([zeroHash, bytecode]), gas: 8_000_000n })
  await waitForReceipt(chain(), hash)
  return address
}

/** Owner 1 is asked to sign the proposal as typed data. */
async function scan(tx: SafeTx) {
  const response = await scanSafeProposal(fx(), tx)
  return {
    action: response.action,
    warnings: response.warnings.map((warning) => `${warning.severity} ${warning.kind}`),
    changes: response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff),
  }
}

describe('a module or owner outside the Safe’s lists is shown', () => {
  it('an unlisted module delegate-called in through SimulateTxAccessor → enables it, CRITICAL, BLOCK; executed, it empties the Safe', async () => {
    const install = encodeFunctionData({ abi, functionName: 'install', args: [fx().safeAttacks.module] })
    const data = encodeFunctionData({ abi, functionName: 'simulate', args: [await ghost(), 0n, install, 1] })
    const tx = { ...plainSafeTx(await simulateTxAccessor(), 0n, await nonce(), data), operation: 1 }

    const result = await scan(tx)
    expect(result.action).toBe('BLOCK')
    expect(result.warnings).toContain('CRITICAL SET_OWNER_AUTHORITY')
    expect(result.changes).toEqual([`Modules: enables ${short(fx().safeAttacks.module)}`])

    const execution = execTransactionData(tx, await ownerSignatures(fx(), tx))
    await waitForReceipt(chain(), await wallet(7).sendTransaction({ to: fx().safe.address, data: execution }))
    const safe = fx().safe.address
    const [listed] = await chain().readContract({
      address: safe,
      abi,
      functionName: 'getModulesPaginated',
      args: ['0x0000000000000000000000000000000000000001', 10n],
    })
    expect(listed).toEqual([])
    expect(
      await chain().readContract({
        address: safe,
        abi,
        functionName: 'isModuleEnabled',
        args: [fx().safeAttacks.module],
      }),
    ).toBe(true)
    const sweep = await wallet(6).writeContract({
      address: fx().safeAttacks.module,
      abi,
      functionName: 'sweep',
      args: [safe],
    })
    await waitForReceipt(chain(), sweep)
    expect(await chain().getBalance({ address: safe })).toBe(0n)
  })

  it('an unlisted owner delegate-called in → Owners: adds it; executed, the Safe counts it an owner it does not list', async () => {
    const stranger = fx().accounts[6]?.address as Address
    const befriend = encodeFunctionData({ abi, functionName: 'befriend', args: [stranger] })
    const tx = { ...plainSafeTx(await ghost(), 0n, await nonce(), befriend), operation: 1 }
    const result = await scan(tx)
    expect(result.action).toBe('BLOCK')
    expect(result.changes).toEqual([`Owners: adds ${short(stranger)} (3 → 4 owners)`])

    const execution = execTransactionData(tx, await ownerSignatures(fx(), tx))
    await waitForReceipt(chain(), await wallet(7).sendTransaction({ to: fx().safe.address, data: execution }))
    const safe = fx().safe.address
    expect(await chain().readContract({ address: safe, abi, functionName: 'isOwner', args: [stranger] })).toBe(true)
    expect(await chain().readContract({ address: safe, abi, functionName: 'getOwners' })).not.toContain(stranger)
  })
})
