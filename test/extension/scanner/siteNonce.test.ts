/**
 * A nonce the site fixed, judged against the account's nonces on a real anvil whose mining the test controls, and
 * what the warning says checked against what the chain then does with the transaction.
 */
import { createTestClient, createWalletClient, type Hex, http, parseEther, parseGwei, publicActions, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { devAccounts } from '../../../src/devnet/accounts.ts'
import { type Anvil, startAnvil } from '../../../src/devnet/anvil.ts'
import type { ScanOrder } from '../../../src/extension/scanner/protocol.ts'
import { scanOrdered } from '../../../src/extension/scanner/scanOrder.ts'
import { buildScanRequest } from '../../../src/extension/scanner/scanRequest.ts'
import { siteNonceWarnings } from '../../../src/extension/scanner/siteNonce.ts'
import { DEFAULT_SETTINGS, type Settings } from '../../../src/extension/shared/settings.ts'
import { freePort } from '../../support/devnet.ts'
import { startUnreachableEndpoint } from '../../support/net.ts'

const [user, payee, other] = devAccounts(3) as [{ address: Hex; privateKey: Hex }, { address: Hex }, { address: Hex }]
const signer = privateKeyToAccount(user.privateKey)
let anvil: Anvil

beforeAll(async () => {
  anvil = await startAnvil({ port: await freePort() })
})
afterAll(() => anvil?.stop())

const chain = () =>
  createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
const wallet = () => createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl), account: signer })
const settings = (): Settings => ({ ...DEFAULT_SETTINGS, rpcUrls: { '31337': anvil.rpcUrl } })
const noLists = async () => undefined

/** The worker's order for the site's transfer of 1 ETH to `other`, numbered `nonce`. */
const transfer = (nonce: number): ScanOrder => ({
  type: 'preflight/scan',
  call: {
    method: 'eth_sendTransaction',
    params: [
      {
        from: user.address.toLowerCase(),
        to: other.address.toLowerCase(),
        value: toHex(parseEther('1')),
        nonce: toHex(nonce),
      },
    ],
    account: user.address.toLowerCase(),
    origin: 'https://app.example',
    chainId: 31337,
  },
  settings: settings(),
})

/** The nonce warnings for a call, from the transaction its scan request carries, as the scanner reads them. */
async function nonceWarningsOf(
  call: Pick<ScanOrder['call'], 'method' | 'params' | 'chainId'>,
  settingsUsed: Settings,
  timeoutMs?: number,
) {
  const built = await buildScanRequest(call.method, call.params, user.address.toLowerCase(), 'https://app.example')
  return siteNonceWarnings(
    built.kind === 'transactions' ? built.transaction : undefined,
    call.chainId,
    settingsUsed,
    timeoutMs,
  )
}

const kindsOf = (state: Awaited<ReturnType<typeof scanOrdered>>) =>
  state.status === 'DONE' ? state.response.warnings.map((warning) => warning.kind) : state

describe('a nonce the site fixed', () => {
  beforeEach(async () => {
    // Every test starts with the user's transactions so far mined and none waiting, and mines only when it says so.
    await chain().setAutomine(true)
    await chain().mine({ blocks: 1 })
    await chain().setAutomine(false)
  })

  it('taken by a transaction still waiting: warned, and sent with a higher fee it replaces that one', async () => {
    const next = await chain().getTransactionCount({ address: user.address })
    const waiting = await wallet().sendTransaction({
      to: payee.address,
      value: parseEther('1'),
      nonce: next,
      maxFeePerGas: parseGwei('3'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    const scan = await scanOrdered(transfer(next), noLists)
    expect(scan).toMatchObject({
      status: 'DONE',
      response: {
        action: 'WARN',
        warnings: [
          {
            kind: 'TRANSACTION_REPLACES_PENDING',
            severity: 'WARNING',
            data: { nonce: String(next), mined: String(next), next: String(next + 1) },
          },
        ],
      },
    })
    const payeeBefore = await chain().getBalance(payee)
    const otherBefore = await chain().getBalance(other)
    const replacing = await wallet().sendTransaction({
      to: other.address,
      value: parseEther('1'),
      nonce: next,
      maxFeePerGas: parseGwei('6'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
    await chain().mine({ blocks: 1 })
    expect((await chain().getTransactionReceipt({ hash: replacing })).status).toBe('success')
    await expect(chain().getTransactionReceipt({ hash: waiting })).rejects.toThrow(/could not be found/)
    expect(await chain().getBalance(other)).toBe(otherBefore + parseEther('1'))
    expect(await chain().getBalance(payee)).toBe(payeeBefore)
  })

  it('past the next: warned with how many must run first, and the chain holds it until they have', async () => {
    const next = await chain().getTransactionCount({ address: user.address })
    const scan = await scanOrdered(transfer(next + 2), noLists)
    expect(kindsOf(scan)).toEqual(['TRANSACTION_RUNS_LATER'])
    expect(scan.status === 'DONE' && scan.response.warnings[0]?.message).toMatch(
      new RegExp(`your next is ${next}: it cannot run until 2 transactions of yours have`),
    )
    const later = await wallet().sendTransaction({ to: other.address, value: parseEther('1'), nonce: next + 2 })
    await chain().mine({ blocks: 1 })
    await expect(chain().getTransactionReceipt({ hash: later })).rejects.toThrow(/could not be found/)
    expect(await chain().getTransactionCount({ address: user.address })).toBe(next)
    for (const nonce of [next, next + 1]) await wallet().sendTransaction({ to: payee.address, value: 1n, nonce })
    await chain().mine({ blocks: 1 })
    expect((await chain().getTransactionReceipt({ hash: later })).status).toBe('success')
  })

  it('already taken by a mined transaction: warned, and the node refuses it', async () => {
    await wallet().sendTransaction({ to: payee.address, value: 1n })
    await chain().mine({ blocks: 1 })
    const next = await chain().getTransactionCount({ address: user.address })
    expect(kindsOf(await scanOrdered(transfer(next - 1), noLists))).toEqual(['TRANSACTION_NONCE_USED'])
    await expect(
      wallet().sendTransaction({ to: other.address, value: parseEther('1'), nonce: next - 1 }),
    ).rejects.toThrow(/nonce/i)
  })

  it('the next in line, or none at all: no warning', async () => {
    const next = await chain().getTransactionCount({ address: user.address })
    const scan = await scanOrdered(transfer(next), noLists)
    expect(scan).toMatchObject({ status: 'DONE', response: { action: 'NONE', warnings: [] } })
    const unnumbered = transfer(next)
    const { nonce: _left, ...params } = unnumbered.call.params[0] as Record<string, unknown>
    unnumbered.call.params = [params]
    expect(await nonceWarningsOf(unnumbered.call, settings())).toEqual([])
  })

  it('in a transaction the site brings signed, read from the signature', async () => {
    const next = await chain().getTransactionCount({ address: user.address })
    const raw = await signer.signTransaction({
      chainId: 31337,
      to: other.address,
      value: parseEther('1'),
      nonce: next + 5,
      gas: 21_000n,
      maxFeePerGas: parseGwei('3'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    const call = { method: 'eth_sendRawTransaction' as const, params: [raw], chainId: 31337 }
    const warnings = await nonceWarningsOf(call, settings())
    expect(warnings.map((warning) => [warning.kind, warning.data])).toEqual([
      ['TRANSACTION_RUNS_LATER', { nonce: String(next + 5), mined: String(next), next: String(next) }],
    ])
  })

  it('asks no node when a scan API scans, and costs the scan nothing when the chain has no node or it does not answer', async () => {
    const next = await chain().getTransactionCount({ address: user.address })
    const call = transfer(next + 2).call
    expect(await nonceWarningsOf(call, settings())).toHaveLength(1)
    const remote: Settings = { ...settings(), backend: { kind: 'remote', apiUrl: 'http://127.0.0.1:9', apiKey: 'k' } }
    expect(await nonceWarningsOf(call, remote)).toEqual([])
    expect(await nonceWarningsOf({ ...call, chainId: 1 }, { ...DEFAULT_SETTINGS, rpcUrls: {} })).toEqual([])
    const down = await startUnreachableEndpoint()
    try {
      expect(await nonceWarningsOf(call, { ...DEFAULT_SETTINGS, rpcUrls: { '31337': down.url } }, 2_000)).toEqual([])
    } finally {
      await down.close()
    }
  })
})
