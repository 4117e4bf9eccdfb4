import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { PendingRequest } from '../../src/extension/shared/pending.ts'
import { feeView, nativePriceOf } from '../../src/extension/ui/lib/feeView.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

const request = (method: PendingRequest['method'], params: unknown[], chainId = 1): PendingRequest => ({
  id: 'r',
  origin: 'https://app.example',
  tabId: 1,
  frameId: 0,
  chainId,
  account: ACCOUNT,
  method,
  params,
  createdAt: 0,
  scan: { status: 'PENDING' },
})

describe('feeView', () => {
  it('shows the gas limit, the price and the most the fee can come to, in the chain native currency', () => {
    const legacy = request('eth_sendTransaction', [{ from: ACCOUNT, gas: '0x5208', gasPrice: '0x16345785d8a0000' }])
    expect(feeView(legacy)).toEqual({
      gasLimit: { text: '21,000', source: 'request' },
      price: 'Gas price 100,000,000 gwei',
      worstCase: '2,100 ETH',
      nonce: null,
    })
    const eip1559 = request(
      'eth_signTransaction',
      [{ from: ACCOUNT, gasLimit: '0x186a0', maxFeePerGas: '0x6fc23ac00', maxPriorityFeePerGas: '0x3b9aca00' }],
      137,
    )
    expect(feeView(eip1559, 0.5)).toEqual({
      gasLimit: { text: '100,000', source: 'request' },
      price: 'Max fee 30 gwei, tip 1 gwei',
      worstCase: '0.003 POL ≈ < $0.01',
      nonce: null,
    })
    // wallet_sendTransaction is the same transaction in the wallet namespace.
    expect(feeView({ ...legacy, method: 'wallet_sendTransaction' })).toEqual(feeView(legacy))
  })

  it('says the wallet chooses what the dapp left out, and reads a signed transaction', async () => {
    expect(feeView(request('eth_sendTransaction', [{ from: ACCOUNT }]))).toEqual({
      gasLimit: null,
      price: null,
      worstCase: null,
      nonce: null,
    })
    const raw = await privateKeyToAccount(DEV_KEY).signTransaction({
      chainId: 1,
      to: ACCOUNT,
      gas: 21000n,
      gasPrice: 10n ** 9n,
      nonce: 1000,
    })
    // A signed transaction always carries its nonce: the site fixed it when it had it signed.
    expect(feeView(request('eth_sendRawTransaction', [raw]))).toMatchObject({
      price: 'Gas price 1 gwei',
      worstCase: '0.000021 ETH',
      nonce: '1000',
    })
    expect(feeView(request('eth_sendTransaction', [{ from: ACCOUNT, nonce: '0x2a' }]))?.nonce).toBe('42')
    expect(feeView(request('eth_signTransaction', [{ from: ACCOUNT, nonce: '0x0' }]))?.nonce).toBe('0')
  })

  it('has nothing to say about messages and batches, whose fees are none or the wallet’s', () => {
    expect(feeView(request('personal_sign', ['0x6869', ACCOUNT]))).toBeNull()
    expect(feeView(request('wallet_sendCalls', [{ calls: [] }]))).toBeNull()
  })

  it('prices the fee with the native price the scan read, and says nothing in dollars without one', () => {
    const tx = request('eth_sendTransaction', [{ from: ACCOUNT, gas: '0x5208', gasPrice: '0x3b9aca00' }])
    const native = { address: `0x${'e'.repeat(40)}`, symbol: 'ETH', name: 'Ether', decimals: 18, verified: true }
    const send = (price: { source: string; updatedAt: number; dollarValuePerToken: number } | null) =>
      ({
        humanReadableDiff: 'Send 1 ETH',
        rawInfo: {
          kind: 'NATIVE_ASSET_TRANSFER',
          data: { amount: { before: '1', after: '0' }, asset: { ...native, imageUrl: null, price } },
        },
      }) as never
    const scanned = (price: Parameters<typeof send>[0]): PendingRequest => ({
      ...tx,
      scan: {
        status: 'DONE',
        kind: 'transactions',
        response: {
          requestId: 'x',
          action: 'NONE',
          warnings: [],
          simulationResults: {
            aggregated: { error: null, expectedStateChanges: { [ACCOUNT]: [send(price)] }, userAccount: ACCOUNT },
            perTransaction: [],
          },
        } as never,
      },
    })
    const priced = scanned({ source: 'Chainlink', updatedAt: 1, dollarValuePerToken: 3000 })
    expect(nativePriceOf(priced)).toBe(3000)
    expect(feeView(priced)?.worstCase).toBe('0.000021 ETH ≈ $0.06')
    expect(nativePriceOf(scanned(null))).toBeNull()
    expect(feeView(scanned(null))?.worstCase).toBe('0.000021 ETH')
    expect(nativePriceOf(tx)).toBeNull()
  })
})
