/**
 * A Safe transaction that pays its executor a gas refund out of the Safe: the simulation runs at a gas price of zero,
 * where an ETH refund is zero, so the engine reads the refund from the signed fields. Then, reality as the oracle: the
 * same transaction executed on the devnet pays the receiver at least what the warning said.
 */
import { type Address, createPublicClient, createWalletClient, http, parseEther, parseGwei, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { safeTxTypedData } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { safeAttacker } from '../../../src/devnet/safeProposals.ts'
import { type SafeTx, scanTransactions, type Warning } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { ownerSignatures } from '../safeSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

/** A token with nothing but a balance and a transfer, minted to `holder`: no list or cache knows it. */
const PLAIN_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract PlainToken {
    string public constant name = "Plain";
    string public constant symbol = "PLN";
    uint8 public constant decimals = 6;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor(address holder, uint256 amount) {
        balanceOf[holder] = amount;
        emit Transfer(address(0), holder, amount);
    }
    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
`

const fx = devnetRolledBackPerTest()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const validateMessage = messageResponseValidator()
const owner = (index: number) => fx().accounts[index]?.address as Address
const refunds = (warnings: Warning[]) => warnings.filter((warning) => warning.kind === 'MULTISIG_GAS_REFUND')

/** Dev account 7, who executes Safe transactions here. */
const executor = () =>
  createWalletClient({
    chain: foundry,
    transport: http(fx().rpcUrl),
    account: privateKeyToAccount(fx().accounts[7]?.privateKey as `0x${string}`),
  })

/** A Safe transaction that does nothing itself (a call with no value to owner 1), with the refund fields given. */
function noOp(refund: Pick<SafeTx, 'baseGas' | 'gasPrice' | 'refundReceiver'>): SafeTx {
  return {
    to: owner(1),
    value: 0n,
    data: '0x',
    operation: 0,
    safeTxGas: 0n,
    gasToken: zeroAddress,
    nonce: 0n,
    ...refund,
  }
}

/** Owner 1 is asked to sign `tx` as typed data. */
async function scanProposal(tx: SafeTx) {
  const { response } = await scanOk(
    {
      message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fx().chainId, fx().safe.address, tx) },
      userAccount: owner(1),
      metadata: { origin: 'https://app.safe.global' },
    },
    fx().rpcUrl,
  )
  expect(validateMessage(response)).toEqual([])
  return response
}

describe('a Safe transaction that pays a gas refund out of the Safe', () => {
  it('a refund padded with 50M baseGas at 1,000 gwei → CRITICAL, BLOCK; executed, it pays the receiver that much', async () => {
    const attacker = safeAttacker(fx())
    const tx = noOp({ baseGas: 50_000_000n, gasPrice: parseGwei('1000'), refundReceiver: attacker })
    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('BLOCK')
    const [warning] = refunds(proposal.warnings)
    expect(warning).toMatchObject({
      severity: 'CRITICAL',
      data: { refundReceiver: attacker.toLowerCase(), leastRefund: parseEther('50').toString() },
    })
    expect(warning?.message).toContain('1,000 gwei per unit of gas')
    expect(warning?.message).toContain('plus 50,000,000 more, so at least 50 ETH')
    expect(warning?.message).toContain('this drains the Safe')
    // Nothing else in it moves an asset: without the refund check it read as harmless.
    expect(proposal.simulationResults.expectedStateChanges).toEqual([])

    const signatures = await ownerSignatures(fx(), tx)
    const execution = await scanTransactions(
      {
        txObjects: [{ from: owner(0), to: fx().safe.address, data: execTransactionData(tx, signatures) }],
        userAccount: owner(0),
        metadata: { origin: 'https://app.safe.global' },
      },
      { rpcUrl: fx().rpcUrl },
    )
    if (!execution.ok) throw new Error(JSON.stringify(execution.error))
    validateTransactionsResponse(execution.response)
    expect(execution.response.action).toBe('BLOCK')
    expect(refunds(execution.response.warnings)).toHaveLength(1)

    const before = {
      safe: await chain().getBalance({ address: fx().safe.address }),
      attacker: await chain().getBalance({ address: attacker }),
    }
    const hash = await executor().sendTransaction({
      to: fx().safe.address,
      data: execTransactionData(tx, signatures),
      gasPrice: parseGwei('1000'),
    })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    const paid = (await chain().getBalance({ address: attacker })) - before.attacker
    expect(paid).toBeGreaterThanOrEqual(parseEther('50'))
    expect(before.safe - (await chain().getBalance({ address: fx().safe.address }))).toBe(paid)
  })

  it('an ETH refund under the baseGas limit at a huge gas price, ~81 of the Safe’s 100 ETH → CRITICAL, BLOCK; executed, it takes that', async () => {
    const attacker = safeAttacker(fx())
    const gasPrice = parseGwei('180000')
    const tx = noOp({ baseGas: 450_000n, gasPrice, refundReceiver: attacker })
    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('BLOCK')
    const [warning] = refunds(proposal.warnings)
    expect(warning?.severity).toBe('CRITICAL')
    expect(warning?.message).toContain('so at least 81 ETH, about')
    expect(warning?.message).toMatch(/: 9\d% of the 100 ETH the Safe holds/)
    expect(warning?.message).toContain('this drains the Safe')

    const before = await chain().getBalance({ address: fx().safe.address })
    const hash = await executor().sendTransaction({
      to: fx().safe.address,
      data: execTransactionData(tx, await ownerSignatures(fx(), tx)),
      gasPrice,
      gas: 300_000n,
    })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    expect(before - (await chain().getBalance({ address: fx().safe.address }))).toBeGreaterThan(parseEther('80'))
  })

  it('a refund in a token Preflight has never seen, no baseGas, most of the Safe’s tokens → CRITICAL, BLOCK', async () => {
    const { abi, bytecode } = deployable('PlainToken.sol', PLAIN_TOKEN, 'PlainToken')
    const held = 1_000_000n * 10n ** 6n
    const deployed = await executor().deployContract({ abi, bytecode, args: [fx().safe.address, held] })
    const token = (await waitForReceipt(chain(), deployed)).contractAddress as Address
    const tx = {
      ...noOp({ baseGas: 0n, gasPrice: held / 60_000n, refundReceiver: safeAttacker(fx()) }),
      gasToken: token,
    }
    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('BLOCK')
    const [warning] = refunds(proposal.warnings)
    expect(warning?.severity).toBe('CRITICAL')
    expect(warning?.message).toContain('16.666666 PLN per unit of gas, whatever gas costs')
    expect(warning?.message).toContain('of the 1,000,000 PLN the Safe holds')
  })

  it('an ordinary refund to whoever executes it → WARNING, WARN, naming the least it pays', async () => {
    const tx = noOp({ baseGas: 40_000n, gasPrice: parseGwei('2'), refundReceiver: zeroAddress })
    const proposal = await scanProposal(tx)
    expect(proposal.action).toBe('WARN')
    expect(refunds(proposal.warnings)[0]?.message).toMatch(/: 0% of the 100 ETH the Safe holds/)
    const [warning] = refunds(proposal.warnings)
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toContain('pays whoever executes it a gas refund')
    expect(warning?.message).toContain('at least 0.00008 ETH')
  })

  it('no gas price, no refund: no warning', async () => {
    const proposal = await scanProposal(
      noOp({ baseGas: 50_000_000n, gasPrice: 0n, refundReceiver: safeAttacker(fx()) }),
    )
    expect(refunds(proposal.warnings)).toEqual([])
    expect(proposal.action).toBe('NONE')
  })
})
