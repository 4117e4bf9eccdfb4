import { describe, expect, it } from 'vitest'
import { nonceWarnings } from '../../../src/engine/risk/nonces.ts'

const account = { mined: 7n, pending: 9n }
const said = (nonce: bigint) => nonceWarnings(nonce, account).map((warning) => [warning.kind, warning.message])

describe('nonceWarnings', () => {
  it('judges a nonce by where it falls against the mined and the waiting transactions', () => {
    expect(said(6n)[0]?.[0]).toBe('TRANSACTION_NONCE_USED')
    expect(said(7n)[0]?.[0]).toBe('TRANSACTION_REPLACES_PENDING')
    expect(said(8n)[0]?.[0]).toBe('TRANSACTION_REPLACES_PENDING')
    expect(said(9n)).toEqual([])
    expect(said(10n)).toEqual([
      [
        'TRANSACTION_RUNS_LATER',
        "This transaction is numbered 10 (its nonce, set by the site), but your next is 9: it cannot run until one transaction of yours has, and then runs in the chain's state of that day, whatever it is, not the one simulated here.",
      ],
    ])
    expect(said(12n)[0]?.[1]).toContain('until 3 transactions of yours have')
  })

  it('says a nonce past what an account can reach never runs (EIP-2681)', () => {
    expect(said(2n ** 64n - 2n)[0]?.[1]).toContain('cannot run until 18446744073709551605 transactions')
    for (const nonce of [2n ** 64n - 1n, 2n ** 256n - 1n]) {
      expect(said(nonce)).toEqual([
        [
          'TRANSACTION_RUNS_LATER',
          `This transaction is numbered ${nonce} (its nonce, set by the site), past the last number an account can reach (2^64 − 2): no network will ever run it.`,
        ],
      ])
    }
  })
})
