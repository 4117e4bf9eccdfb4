import { describe, expect, it } from 'vitest'
import { scanEndpoint } from '../../../src/engine/index.ts'
import { buildScanRequest } from '../../../src/extension/background/scanRequest.ts'
import { validateCall } from '../../../src/extension/background/validateCall.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const ORIGIN = 'https://app.example'

describe('buildScanRequest', () => {
  it('makes a transaction scan of eth_sendTransaction and one of each wallet_sendCalls call', () => {
    expect(
      buildScanRequest('eth_sendTransaction', [{ from: ACCOUNT, to: TO, value: '0x1', extra: 1 }], ACCOUNT, ORIGIN),
    ).toEqual({
      ok: true,
      scan: {
        kind: 'transactions',
        request: {
          txObjects: [{ from: ACCOUNT, to: TO, value: '0x1' }],
          userAccount: ACCOUNT,
          metadata: { origin: ORIGIN },
        },
      },
    })
    const batch = buildScanRequest(
      'wallet_sendCalls',
      [{ calls: [{ to: TO }, { to: TO, data: '0x01' }] }],
      ACCOUNT,
      ORIGIN,
    )
    expect(batch.ok && batch.scan.kind === 'transactions' && batch.scan.request.txObjects).toEqual([
      { from: ACCOUNT, to: TO },
      { from: ACCOUNT, to: TO, data: '0x01' },
    ])
  })

  it('makes message scans of typed data, personal_sign and eth_sign', () => {
    const data = { types: {}, domain: {}, primaryType: 'P', message: {} }
    expect(buildScanRequest('eth_signTypedData_v4', [ACCOUNT, data], ACCOUNT, ORIGIN)).toMatchObject({
      ok: true,
      scan: { kind: 'message', request: { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: ACCOUNT } },
    })
    expect(buildScanRequest('personal_sign', ['0x6869', ACCOUNT], ACCOUNT, ORIGIN)).toMatchObject({
      scan: { request: { message: { kind: 'PERSONAL_SIGN', rawMessage: '0x6869' } } },
    })
    expect(buildScanRequest('eth_sign', [ACCOUNT, '0xab'], ACCOUNT, ORIGIN)).toMatchObject({
      scan: { request: { message: { kind: 'SIGN_MESSAGE', rawMessage: '0xab' } } },
    })
  })

  it('names the field when the params cannot be scanned', () => {
    expect(buildScanRequest('eth_signTypedData_v4', [ACCOUNT, '{not json'], ACCOUNT, ORIGIN)).toMatchObject({
      ok: false,
      error: { kind: 'INVALID_REQUEST', field: 'params[1]' },
    })
    expect(buildScanRequest('wallet_sendCalls', [{ calls: [] }], ACCOUNT, ORIGIN)).toMatchObject({
      ok: false,
      error: { field: 'params[0].calls' },
    })
  })
})

describe('validateCall', () => {
  const call = { method: 'personal_sign', params: ['0x6869', ACCOUNT], account: ACCOUNT, chainId: 1 }
  it('accepts a well-formed call from the page', () => {
    expect(validateCall(call)).toEqual({ ok: true, call })
  })
  it('refuses methods, accounts and chains it does not know, with a -32602 error', () => {
    for (const bad of [
      { ...call, method: 'eth_chainId' },
      { ...call, account: 'me' },
      { ...call, chainId: -1 },
      { ...call, params: 'x' },
      { ...call, params: ['x'.repeat(600_000)] },
      null,
    ]) {
      expect(validateCall(bad)).toMatchObject({ ok: false, error: { code: -32602 } })
    }
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
