/** waitForReceipt against a bare anvil whose mining the test controls, so a receipt shows up only when it says so. */
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { type Anvil, startAnvil } from '../../src/devnet/anvil.ts'
import { ReceiptTimeoutError, waitForReceipt } from '../../src/devnet/receipt.ts'
import { freePort } from '../support/devnet.ts'

let anvil: Anvil
const [from, to] = devAccounts(2).map((a) => a.address)

beforeAll(async () => {
  anvil = await startAnvil({ port: await freePort() })
})
afterAll(() => anvil?.stop())

const client = () => createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) })

/** Sends a transfer with automine off: it waits in the pool until the test mines a block. */
async function pendingTransfer(): Promise<Hex> {
  await client().request({ method: 'evm_setAutomine', params: [false] } as never)
  const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl), account: from as Hex })
  return wallet.sendTransaction({ to, value: parseEther('1') })
}

it('resolves with the receipt once the block that holds the transaction is mined, however late', async () => {
  const hash = await pendingTransfer()
  let settled = false
  const waiting = waitForReceipt(client(), hash).finally(() => {
    settled = true
  })
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(settled).toBe(false)
  await client().request({ method: 'evm_mine', params: [] } as never)
  const receipt = await waiting
  expect(receipt.transactionHash).toBe(hash)
  expect(receipt.status).toBe('success')
})

it('rejects with a timeout error that names the transaction when nothing mines it', async () => {
  const hash = await pendingTransfer()
  const error = await waitForReceipt(client(), hash, { timeoutMs: 300 }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ReceiptTimeoutError)
  expect((error as ReceiptTimeoutError).kind).toBe('RECEIPT_TIMEOUT')
  expect((error as Error).message).toContain(hash)
})
