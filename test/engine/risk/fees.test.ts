/**
 * Fees are part of what is signed: judged against the base fee the node reports, in the same single round trip, and
 * checked against what executing the transaction on the devnet really costs.
 */
import { type Address, createTestClient, http, parseEther, parseGwei, publicActions, walletActions } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanTransactionsWithStats, type TxObject } from '../../../src/engine/index.ts'
import { pricePerGas } from '../../../src/engine/risk/fees.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const FRIEND: Address = '0x1111111111111111111111111111111111111111'
const ORIGIN = { origin: 'https://app.example.org' }

let devnet: Devnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

const sender = () => devnet.fixtures.accounts[3]?.address as Address

async function scan(fees: Partial<TxObject>, value = '1') {
  const tx: TxObject = { from: sender(), to: FRIEND, value, gas: '21000', ...fees }
  const { outcome, stats } = await scanTransactionsWithStats(
    { txObjects: [tx], userAccount: sender(), metadata: ORIGIN },
    { rpcUrl: devnet.fixtures.rpcUrl },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, stats }
}

const feeWarnings = (response: { warnings: { kind: string; severity: string; message: string }[] }) =>
  response.warnings.filter((warning) => warning.kind === 'UNUSUAL_GAS_CONSUMPTION')

describe('fees', () => {
  it('says nothing about the fees a wallet or dapp would normally offer', async () => {
    for (const fees of [
      { maxFeePerGas: parseGwei('3').toString(), maxPriorityFeePerGas: parseGwei('1').toString() },
      { gasPrice: parseGwei('2').toString() },
      { maxPriorityFeePerGas: parseGwei('2').toString() },
    ]) {
      const { response, stats } = await scan(fees)
      expect(feeWarnings(response)).toEqual([])
      expect(response.action).toBe('NONE')
      expect(stats.roundTrips).toBe(1)
    }
  })

  it('blocks a 1-wei transfer whose gas price costs 2,100 ETH, and the devnet charges exactly that', async () => {
    const gasPrice = parseGwei('100000000')
    const { response, stats } = await scan({ gasPrice: gasPrice.toString() })
    expect(stats.roundTrips).toBe(1)
    expect(response.action).toBe('BLOCK')
    expect(feeWarnings(response)).toEqual([
      expect.objectContaining({ severity: 'CRITICAL', message: expect.stringContaining('up to 2,100 ETH') }),
    ])
    // Reality as the oracle: send it, and the sender loses 2,100 ETH and 1 wei.
    const client = createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
      .extend(publicActions)
      .extend(walletActions)
    const before = await client.getBalance({ address: sender() })
    const hash = await client.sendTransaction({
      account: sender(),
      chain: null,
      to: FRIEND,
      value: 1n,
      gas: 21000n,
      gasPrice,
    })
    await waitForReceipt(client, hash)
    expect(before - (await client.getBalance({ address: sender() }))).toBe(parseEther('2100') + 1n)
  })

  it('warns when a tip or cap is far above the base fee, and when the fee dwarfs a plain transfer', async () => {
    const tip = await scan({
      maxFeePerGas: parseGwei('900').toString(),
      maxPriorityFeePerGas: parseGwei('800').toString(),
    })
    expect(feeWarnings(tip.response)).toEqual([
      expect.objectContaining({
        severity: 'WARNING',
        message: expect.stringMatching(/800\.\d+ gwei per gas, against a base fee/),
      }),
    ])
    expect(tip.response.action).toBe('WARN')
    const dwarfed = await scan({ gasPrice: parseGwei('40').toString(), gas: '500000' }, '1000')
    expect(feeWarnings(dwarfed.response)).toEqual([
      expect.objectContaining({ severity: 'WARNING', message: expect.stringContaining('larger than the') }),
    ])
  })

  it('refuses a gas price together with EIP-1559 caps, naming the field', async () => {
    const { outcome } = await scanTransactionsWithStats(
      {
        txObjects: [{ from: sender(), to: FRIEND, gasPrice: '1', maxFeePerGas: '2' }],
        userAccount: sender(),
        metadata: ORIGIN,
      },
      { rpcUrl: devnet.fixtures.rpcUrl },
    )
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'INVALID_REQUEST', field: 'txObjects[0].gasPrice' } })
  })
})

describe('pricePerGas', () => {
  it('pays a legacy price in full, and an EIP-1559 one up to base fee plus tip, capped', () => {
    expect(pricePerGas({ kind: 'legacy', gasPrice: 7n }, 100n)).toEqual({ expected: 7n, worst: 7n })
    expect(pricePerGas({ kind: 'eip1559', maxFeePerGas: 50n, maxPriorityFeePerGas: 2n }, 10n)).toEqual({
      expected: 12n,
      worst: 50n,
    })
    expect(pricePerGas({ kind: 'eip1559', maxFeePerGas: 11n, maxPriorityFeePerGas: 5n }, 10n)).toEqual({
      expected: 11n,
      worst: 11n,
    })
    expect(pricePerGas({ kind: 'eip1559', maxFeePerGas: null, maxPriorityFeePerGas: 3n }, 10n)).toEqual({
      expected: 13n,
      worst: 13n,
    })
  })
})
