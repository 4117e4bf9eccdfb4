import { describe, expect, it } from 'vitest'
import { parseJsonLossless } from '../../../src/extension/inpage/losslessJson.ts'
import { NoAccountError, normalizeParams, toData, toQuantity } from '../../../src/extension/inpage/normalize.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const askAccount = async (method: string) => (method === 'eth_accounts' ? [ACCOUNT] : null)
const askNothing = async () => []

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 exact and leaves strings and safe numbers alone', () => {
    const text =
      '{"big": 115792089237316195423570985008687907853269984665640564039457584007913129639935, "n": 5, "s": "12345678901234567890", "e": "a\\"1", "f": -1.5e3}'
    expect(parseJsonLossless(text)).toEqual({
      big: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      n: 5,
      s: '12345678901234567890',
      e: 'a"1',
      f: -1500,
    })
  })
  it('throws on malformed JSON', () => {
    expect(() => parseJsonLossless('{"a":')).toThrow()
  })
})

describe('quantities and data', () => {
  it('turns numbers, bigints and decimal strings into hex, and prefixes bare hex data', () => {
    expect(toQuantity(10)).toBe('0xa')
    expect(toQuantity(10n ** 30n)).toBe('0xc9f2c9cd04674edea40000000')
    expect(toQuantity('1000000000000000000')).toBe('0xde0b6b3a7640000')
    expect(toQuantity('0XFF')).toBe('0xff')
    expect(toData('a9059cbb')).toBe('0xa9059cbb')
    expect(toData('0x')).toBe('0x')
  })
})

describe('normalizeParams', () => {
  it('fills a missing from from eth_accounts and normalises the transaction fields', async () => {
    const result = await normalizeParams(
      'eth_sendTransaction',
      [{ to: OTHER, value: 2 ** 60, input: 'deadbeef', gasLimit: '21000' }],
      askAccount,
    )
    expect(result).toEqual({
      account: ACCOUNT,
      params: [{ from: ACCOUNT, to: OTHER, value: '0x1000000000000000', data: '0xdeadbeef', gas: '0x5208' }],
    })
  })

  it('accepts typed data as a JSON string or an object, in either parameter order', async () => {
    const data = { primaryType: 'P', types: {}, domain: {}, message: { amount: 2n ** 200n } }
    const asString =
      '{"primaryType":"P","types":{},"domain":{},"message":{"amount":1606938044258990275541962092341162602522202993782792835301376}}'
    const expected = { account: OTHER, params: [OTHER, { ...data, message: { amount: (2n ** 200n).toString() } }] }
    expect(await normalizeParams('eth_signTypedData_v4', [OTHER, asString], askNothing)).toEqual(expected)
    expect(await normalizeParams('eth_signTypedData_v4', [data, OTHER], askNothing)).toEqual(expected)
  })

  it('puts personal_sign parameters in the standard order whichever order the dapp used', async () => {
    const expected = { account: OTHER, params: ['0x6869', OTHER] }
    expect(await normalizeParams('personal_sign', ['0x6869', OTHER], askNothing)).toEqual(expected)
    expect(await normalizeParams('personal_sign', [OTHER, '0x6869'], askNothing)).toEqual(expected)
    expect(await normalizeParams('personal_sign', ['hi'], askAccount)).toEqual({
      account: ACCOUNT,
      params: ['hi', ACCOUNT],
    })
  })

  it('turns wallet_sendCalls into one transaction per call from the batch sender', async () => {
    const result = await normalizeParams(
      'wallet_sendCalls',
      [
        {
          version: '2.0.0',
          chainId: '0x1',
          calls: [
            { to: OTHER, value: 1 },
            { to: OTHER, data: '0x01' },
          ],
        },
      ],
      askAccount,
    )
    expect(result.params[0]).toMatchObject({
      from: ACCOUNT,
      calls: [
        { from: ACCOUNT, to: OTHER, value: '0x1' },
        { from: ACCOUNT, to: OTHER, data: '0x01' },
      ],
    })
  })

  it('says so when the wallet has no account', async () => {
    await expect(normalizeParams('eth_sendTransaction', [{ to: OTHER }], askNothing)).rejects.toBeInstanceOf(
      NoAccountError,
    )
  })
})
