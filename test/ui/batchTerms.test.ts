import { describe, expect, it } from 'vitest'
import { batchTerms } from '../../src/extension/ui/lib/batchTerms.ts'

const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const batch = (fields: Record<string, unknown>) => ({
  method: 'wallet_sendCalls' as const,
  params: [{ version: '2.0.0', from: FROM, chainId: '0x7a69', calls: [{ to: TO, value: '0x1' }], ...fields }],
})

describe('batchTerms', () => {
  it('says what atomicRequired asks, and that running the calls one at a time is not what was simulated', () => {
    expect(batchTerms(batch({ atomicRequired: true }))).toEqual([
      {
        name: 'atomicRequired',
        call: null,
        text: 'All or nothing: the wallet must run every call together, or none of them.',
        unsimulated: false,
        optional: false,
      },
    ])
    const loose = batchTerms(batch({ atomicRequired: false }))
    expect(loose).toMatchObject([{ name: 'atomicRequired', unsimulated: true }])
    expect(loose?.[0]?.text).toMatch(/one at a time: one that fails leaves those before it done/)
  })

  it("names a paymaster's host only (a URL's path and query often hold a key), and whether the wallet may skip it", () => {
    const terms = batchTerms(
      batch({
        capabilities: { paymasterService: { url: 'https://pm.example:8443/rpc/v1/SECRET?key=x', optional: true } },
      }),
    )
    expect(terms).toMatchObject([{ name: 'paymasterService', call: null, unsimulated: true, optional: true }])
    expect(terms?.[0]?.text).toContain('(pm.example:8443)')
    expect(terms?.[0]?.text).not.toContain('SECRET')
    const unreadable = batchTerms(batch({ capabilities: { paymasterService: { url: 'not a url' } } }))
    expect(unreadable?.[0]?.text).toContain('(an unreadable URL)')
    expect(batchTerms(batch({ capabilities: { paymasterService: 'x' } }))?.[0]?.text).toContain('(no URL)')
  })

  it("lists the batch's capabilities, then each call's, and says which ones Preflight does not know", () => {
    const terms = batchTerms({
      method: 'wallet_sendCalls',
      params: [
        {
          from: FROM,
          calls: [
            { to: TO, capabilities: { auxiliaryFunds: { supported: true } } },
            { to: TO },
            { to: TO, capabilities: { sessionKey: { id: '1' }, paymasterService: { url: 'https://other.example' } } },
          ],
          capabilities: { newThing: { optional: true } },
        },
      ],
    })
    expect(terms?.map((term) => [term.name, term.call, term.optional])).toEqual([
      ['newThing', null, true],
      ['auxiliaryFunds', 1, false],
      ['sessionKey', 3, false],
      ['paymasterService', 3, false],
    ])
    expect(terms?.[0]?.text).toMatch(/^Preflight does not know this capability/)
    expect(terms?.every((term) => term.unsimulated)).toBe(true)
  })

  it('is empty for a batch that asks nothing more, and null for any other request', () => {
    expect(batchTerms(batch({}))).toEqual([])
    expect(batchTerms(batch({ capabilities: 'none', atomicRequired: 'yes' }))).toEqual([])
    expect(batchTerms({ method: 'eth_sendTransaction', params: [{ from: FROM, to: TO }] })).toBeNull()
  })
})
