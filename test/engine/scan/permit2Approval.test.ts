/**
 * An allowance granted through Permit2 itself (its `approve`, called as a transaction): the token's own allowance to
 * the spender stays zero, so only Permit2's Approval event and its `allowance` show the grant. Permit2 is not on the
 * devnet: a stand-in with its allowance half (same event, storage shape and getters) is placed at its address. Then,
 * reality as the oracle: the spender takes through it what the window said it could take now.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  maxUint48,
  maxUint160,
  maxUint256,
  parseAbi,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../../src/engine/index.ts'
import { PERMIT2_ADDRESS } from '../../../src/engine/simulation/assetEvents.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const STAND_IN = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IERC20 { function transferFrom(address from, address to, uint256 value) external returns (bool); }
contract Permit2AllowanceStandIn {
  struct PackedAllowance { uint160 amount; uint48 expiration; uint48 nonce; }
  mapping(address => mapping(address => mapping(address => PackedAllowance))) public allowance;
  event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration);
  function approve(address token, address spender, uint160 amount, uint48 expiration) external {
    PackedAllowance storage granted = allowance[msg.sender][token][spender];
    granted.amount = amount;
    granted.expiration = expiration;
    emit Approval(msg.sender, token, spender, amount, expiration);
  }
  function transferFrom(address from, address to, uint160 amount, address token) external {
    PackedAllowance storage granted = allowance[from][token][msg.sender];
    require(block.timestamp <= granted.expiration, "AllowanceExpired");
    if (granted.amount != type(uint160).max) {
      require(granted.amount >= amount, "InsufficientAllowance");
      granted.amount -= amount;
    }
    require(IERC20(token).transferFrom(from, to, amount), "TransferFailed");
  }
}`

const permit2 = parseAbi([
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function transferFrom(address from, address to, uint160 amount, address token)',
])

/** The stand-in's runtime code, compiled with solc from npm. */
const standInCode = () => runtimeCode('Permit2AllowanceStandIn.sol', STAND_IN, 'Permit2AllowanceStandIn')

const fx = devnetRolledBackPerTest()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const walletOf = (index: number) =>
  createWalletClient({
    chain: foundry,
    transport: http(fx().rpcUrl),
    account: privateKeyToAccount(fx().accounts[index]?.privateKey as Hex),
  })

describe('an allowance granted through Permit2 itself', () => {
  it('Permit2.approve to a person → the approval shown, APPROVAL_TO_EOA, WARN; the person then takes that much', async () => {
    await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
      address: PERMIT2_ADDRESS,
      bytecode: standInCode(),
    })
    const user = fx().accounts[0]?.address as Address
    const taker = fx().accounts[9]?.address as Address
    const usdc = fx().erc20.address
    const txObjects = [
      {
        from: user,
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [PERMIT2_ADDRESS, maxUint256] }),
      },
      {
        from: user,
        to: PERMIT2_ADDRESS,
        data: encodeFunctionData({
          abi: permit2,
          functionName: 'approve',
          args: [usdc, taker, maxUint160, Number(maxUint48)],
        }),
      },
    ]
    const outcome = await scanTransactions(
      { txObjects, userAccount: user, metadata: { origin: 'https://claim.example' } },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    const response: ScanTransactionsResponse = outcome.response
    validateTransactionsResponse(response)
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((warning) => [warning.kind, warning.severity])).toContainEqual([
      'APPROVAL_TO_EOA',
      'WARNING',
    ])
    const changes = response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []
    const throughPermit2 = changes.find((change) => change.humanReadableDiff.endsWith('through Permit2'))
    expect(throughPermit2?.humanReadableDiff).toBe(
      `Approve ${taker.slice(0, 6).toLowerCase()}…${taker.slice(-4).toLowerCase()} to spend unlimited USDC through Permit2`,
    )
    expect(throughPermit2?.rawInfo).toMatchObject({
      kind: 'ERC20_APPROVAL',
      data: { spender: { address: taker.toLowerCase() }, amount: { before: '0', after: maxUint160.toString() } },
    })
    const canTake = (throughPermit2?.rawInfo.data as { canTakeNow?: { amount: string } } | undefined)?.canTakeNow
    const balance = (account: Address) =>
      chain().readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    expect(canTake?.amount).toBe((await balance(user)).toString())

    for (const tx of txObjects) {
      const hash = await walletOf(0).sendTransaction({ to: tx.to, data: tx.data })
      expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    }
    const before = await balance(taker)
    const hash = await walletOf(9).writeContract({
      address: PERMIT2_ADDRESS,
      abi: permit2,
      functionName: 'transferFrom',
      args: [user, taker, BigInt(canTake?.amount ?? 0), usdc],
    })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    expect((await balance(taker)) - before).toBe(BigInt(canTake?.amount ?? -1))
    expect(await balance(user)).toBe(0n)
  })
})
