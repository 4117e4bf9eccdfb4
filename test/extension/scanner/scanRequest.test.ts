import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { scanEndpoint } from '../../../src/engine/index.ts'
import { buildScanRequest } from '../../../src/extension/scanner/scanRequest.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const ORIGIN = 'https://app.example'
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

describe('buildScanRequest', () => {
  it('simulates the calldata and gas limit the wallet will use, whichever field names carry them', async () => {
    const tx = {
      from: ACCOUNT,
      to: TO,
      input: '0x01',
      gasLimit: '0x5208',
      value: '0x1',
      chainId: '0x7a69',
      gasPrice: '0x9',
    }
    expect(await buildScanRequest('eth_sendTransaction', [tx], ACCOUNT, ORIGIN)).toEqual({
      kind: 'transactions',
      request: {
        txObjects: [{ from: ACCOUNT, to: TO, data: '0x01', value: '0x1', gas: '0x5208', gasPrice: '0x9' }],
        userAccount: ACCOUNT,
        metadata: { origin: ORIGIN },
      },
      // The transaction as the wallet gets it rides along, for what the seed's request leaves out (its nonce).
      transaction: tx,
    })
  })

  it('makes one transaction of each wallet_sendCalls call, and of a signed raw transaction', async () => {
    const batch = await buildScanRequest(
      'wallet_sendCalls',
      [{ from: ACCOUNT, calls: [{ to: TO }, { to: TO, data: '0x01' }] }],
      ACCOUNT,
      ORIGIN,
    )
    expect(batch.kind === 'transactions' && batch.request.txObjects).toEqual([
      { from: ACCOUNT, to: TO },
      { from: ACCOUNT, to: TO, data: '0x01' },
    ])
    const raw = await privateKeyToAccount(DEV_KEY).signTransaction({
      chainId: 1,
      to: TO,
      value: 9n,
      gas: 21000n,
      gasPrice: 1n,
    })
    const signed = await buildScanRequest('eth_sendRawTransaction', [raw], ACCOUNT, ORIGIN)
    expect(signed.kind === 'transactions' && signed.request.txObjects).toEqual([
      { from: ACCOUNT, to: TO, value: '0x9', gas: '0x5208', gasPrice: '0x1' },
    ])
  })

  it('makes message scans of typed data (object or string), legacy typed data, personal_sign and eth_sign', async () => {
    const data = { types: {}, domain: {}, primaryType: 'P', message: {} }
    for (const form of [data, JSON.stringify(data)]) {
      expect(await buildScanRequest('eth_signTypedData_v4', [ACCOUNT, form], ACCOUNT, ORIGIN)).toMatchObject({
        kind: 'message',
        request: { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: ACCOUNT },
      })
    }
    const legacy = [
      { type: 'string', name: 'Message', value: 'Hi' },
      { type: 'uint32', name: 'Code', value: 1337 },
    ]
    expect(await buildScanRequest('eth_signTypedData_v1', [legacy, ACCOUNT], ACCOUNT, ORIGIN)).toMatchObject({
      request: {
        message: {
          kind: 'PERSONAL_SIGN',
          rawMessage: 'Legacy typed data (eth_signTypedData v1):\nMessage (string): Hi\nCode (uint32): 1337',
        },
      },
    })
    expect(await buildScanRequest('personal_sign', ['0x6869', ACCOUNT], ACCOUNT, ORIGIN)).toMatchObject({
      request: { message: { kind: 'PERSONAL_SIGN', rawMessage: '0x6869' } },
    })
    expect(await buildScanRequest('eth_sign', [ACCOUNT, '0xab'], ACCOUNT, ORIGIN)).toMatchObject({
      request: { message: { kind: 'SIGN_MESSAGE', rawMessage: '0xab' } },
    })
  })
})

describe('scanEndpoint', () => {
  it('maps chain ids to the scan API path and knows none for unknown chains', () => {
    expect(scanEndpoint('https://api.example/', 1, 'transactions')).toBe(
      'https://api.example/ethereum/v0/mainnet/scan/transactions',
    )
    expect(scanEndpoint('https://api.example', 42161, 'message')).toBe(
      'https://api.example/arbitrum/v0/one/scan/message',
    )
    expect(scanEndpoint('https://api.example', 31337, 'message')).toBe(
      'https://api.example/ethereum/v0/devnet/scan/message',
    )
    expect(scanEndpoint('https://api.example', 5, 'message')).toBeUndefined()
  })
})
