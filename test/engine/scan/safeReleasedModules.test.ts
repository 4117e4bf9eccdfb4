/**
 * Enabling a module Safe itself releases, as Safe{Wallet}'s spending limits enable its allowance module
 * (AllowanceModule 0.1.1, at the address @safe-global/safe-modules-deployments lists for every chain): a proposal the
 * owners sign as typed data, then execute with their signatures. The module moves the Safe's assets only by the
 * limits the owners set in it, so it is a WARNING to confirm, not the CRITICAL takeover any other module is.
 */
import { type Address, concat, encodeFunctionData, encodePacked, getAddress, type Hex, parseAbi, size } from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { shortAddress } from '../../../src/engine/assets/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { devnetClient } from '../protocolSupport.ts'
import { ownerSignatures, scanSafeProposal } from '../safeSupport.ts'

const fx = devnetRolledBackPerTest()
const ALLOWANCE_MODULE: Address = '0xAA46724893dedD72658219405185Fb0Fc91e091C'
/** Safe's social recovery module (0.1.0, as safe-modules-deployments lists it): its guardians replace the owners. */
const SOCIAL_RECOVERY_MODULE: Address = '0x4Aa5Bf7D840aC607cb5BD3249e6Af6FC86C04897'
/** A module no one released: anyone's code. */
const UNRELEASED_MODULE: Address = '0x000000000000000000000000000000000000a11e'
const allowanceAbi = parseAbi([
  'function addDelegate(address delegate)',
  'function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32 resetBaseMin)',
])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])
const safeAbi = parseAbi([
  'function enableModule(address module)',
  'function isModuleEnabled(address module) view returns (bool)',
])

const enable = (module: Address) =>
  plainSafeTx(
    fx().safe.address,
    0n,
    0n,
    encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [module] }),
  )

describe("enabling a module Safe releases on the devnet's 2-of-3 Safe", () => {
  it('the allowance module behind spending limits: WARN naming it; executed, the Safe has it enabled', async () => {
    const tx = enable(ALLOWANCE_MODULE)
    const response = await scanSafeProposal(fx(), tx)
    expect(response.action).toBe('WARN')
    const authority = response.warnings.filter((warning) => warning.kind === 'SET_OWNER_AUTHORITY')
    expect(authority.map((warning) => warning.severity)).toEqual(['WARNING'])
    expect(authority[0]?.message).toContain('AllowanceModule 0.1.1')
    expect(response.warnings.some((warning) => warning.severity === 'CRITICAL')).toBe(false)

    const client = devnetClient(fx().rpcUrl)
    const signatures = await ownerSignatures(fx(), tx)
    const owner = getAddress(fx().accounts[0]?.address as Address)
    const hash = await client.sendTransaction({
      account: owner,
      to: fx().safe.address,
      data: execTransactionData(tx, signatures),
      chain: null,
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    const enabled = await client.readContract({
      address: fx().safe.address,
      abi: safeAbi,
      functionName: 'isModuleEnabled',
      args: [ALLOWANCE_MODULE],
    })
    expect(enabled).toBe(true)
  })

  it.each([
    ['a module Safe did not release', UNRELEASED_MODULE],
    ['the social recovery module Safe released, whose guardians can replace the owners', SOCIAL_RECOVERY_MODULE],
  ])('%s: still CRITICAL, BLOCK', async (_, module) => {
    const response = await scanSafeProposal(fx(), enable(module))
    expect(response.action).toBe('BLOCK')
    expect(response.warnings).toContainEqual(
      expect.objectContaining({ kind: 'SET_OWNER_AUTHORITY', severity: 'CRITICAL' }),
    )
  })
})

/** One call of a MultiSendCallOnly batch: operation 0, to, value 0, data. */
const entry = (to: Address, data: Hex) =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0n, BigInt(size(data)), data])

/** The batch Safe{Wallet} proposes for a new spending limit: enable the module, add the delegate, set its allowance. */
function spendingLimit(delegate: Address, amount: bigint, resetMinutes: number, token: Address = fx().erc20.address) {
  const batch = concat([
    entry(
      fx().safe.address,
      encodeFunctionData({ abi: safeAbi, functionName: 'enableModule', args: [ALLOWANCE_MODULE] }),
    ),
    entry(ALLOWANCE_MODULE, encodeFunctionData({ abi: allowanceAbi, functionName: 'addDelegate', args: [delegate] })),
    entry(
      ALLOWANCE_MODULE,
      encodeFunctionData({
        abi: allowanceAbi,
        functionName: 'setAllowance',
        args: [delegate, token, amount, resetMinutes, 0],
      }),
    ),
  ])
  const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [batch] })
  return { ...plainSafeTx(fx().safeContracts.multiSendCallOnly, 0n, 0n, data), operation: 1 }
}

describe('a spending limit set in the allowance module, as Safe{Wallet} batches it', () => {
  it('names the delegate, how much of which token and how often, as a WARNING', async () => {
    const delegate = fx().accounts[4]?.address as Address
    const response = await scanSafeProposal(fx(), spendingLimit(delegate, 1_000_000_000n, 1440))
    expect(response.action).toBe('WARN')
    expect(response.warnings.some((warning) => warning.severity === 'CRITICAL')).toBe(false)
    const limit = response.warnings.find((warning) => warning.message.includes('allowance module, without'))
    expect(limit?.message).toContain(`lets ${shortAddress(delegate)} take up to 1,000 USDC`)
    expect(limit?.message).toContain('again every day')
  })

  it('an allowance without a limit that never renews says so', async () => {
    const delegate = fx().drainer.attacker
    const response = await scanSafeProposal(fx(), spendingLimit(delegate, 2n ** 96n - 1n, 0))
    const limit = response.warnings.find((warning) => warning.message.includes('allowance module, without'))
    expect(limit?.message).toContain(`lets ${shortAddress(delegate)} take any amount of USDC`)
    expect(limit?.message).toContain('once (it does not renew)')
  })

  it('a token nothing else in the request reads (the V2 pair, unpriced) is named with its symbol and decimals', async () => {
    const delegate = fx().accounts[4]?.address as Address
    const response = await scanSafeProposal(fx(), spendingLimit(delegate, 5n * 10n ** 18n, 60, fx().uniswapV2.pair))
    const limit = response.warnings.find((warning) => warning.message.includes('allowance module, without'))
    expect(limit?.message).toContain(`lets ${shortAddress(delegate)} take up to 5 UNI-V2`)
    expect(limit?.message).toContain('again every hour')
  })
})
