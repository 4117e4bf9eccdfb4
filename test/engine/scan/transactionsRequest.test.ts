/** Bounds of a transaction scan request, refused before any work. */
import { describe, expect, it } from 'vitest'
import { MAX_TX_OBJECTS, parseTransactionsRequest } from '../../../src/engine/scan/transactionsRequest.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('transaction request bounds', () => {
  const request = (tx: Record<string, unknown>, count = 1) => ({
    txObjects: Array.from({ length: count }, () => ({ from: ALICE, to: BOB, ...tx })),
    userAccount: ALICE,
    metadata: { origin: 'https://app.example.org' },
  })

  it('gas above 2^64-1 is a request error, not a node error', () => {
    expect(parseTransactionsRequest(request({ gas: (2n ** 64n).toString() }))).toMatchObject({
      ok: false,
      error: { field: 'txObjects[0].gas', message: expect.stringContaining('2^64-1') },
    })
    expect(parseTransactionsRequest(request({ gas: (2n ** 64n - 1n).toString() })).ok).toBe(true)
  })

  it(`more than ${MAX_TX_OBJECTS} transactions is refused before any work`, () => {
    expect(parseTransactionsRequest(request({}, MAX_TX_OBJECTS)).ok).toBe(true)
    expect(parseTransactionsRequest(request({}, MAX_TX_OBJECTS + 1))).toMatchObject({
      ok: false,
      error: { field: 'txObjects' },
    })
  })
})
