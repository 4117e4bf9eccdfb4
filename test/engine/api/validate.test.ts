/** Field checks of a request: amounts and EIP-55 addresses, each error naming the field. */
import { describe, expect, it } from 'vitest'
import { parseAddress, parseAmount } from '../../../src/engine/api/validate.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('parseAmount', () => {
  it('accepts decimal and hex strings and safe integers; rejects the rest naming the field', () => {
    expect(parseAmount('1000', 'value')).toEqual({ ok: true, value: 1000n })
    expect(parseAmount('0x3e8', 'value')).toEqual({ ok: true, value: 1000n })
    expect(parseAmount(7, 'value')).toEqual({ ok: true, value: 7n })
    for (const bad of ['1e18', '-1', '01', '', 1.5, null, `0x1${'0'.repeat(64)}`]) {
      expect(parseAmount(bad, 'txObjects[0].value')).toMatchObject({
        ok: false,
        error: { field: 'txObjects[0].value' },
      })
    }
  })

  it('refuses a number text too long to be in range before parsing it (a megabyte of digits)', () => {
    expect(parseAmount((2n ** 256n - 1n).toString(), 'value').ok).toBe(true)
    expect(parseAmount('9'.repeat(1_000_000), 'value')).toEqual({
      ok: false,
      error: {
        kind: 'INVALID_REQUEST',
        field: 'value',
        message: 'has 1000000 characters; an amount up to 2^256-1 needs at most 78',
      },
    })
  })
})

describe('addresses: EIP-55 checksums', () => {
  const lower = ALICE.toLowerCase()
  const badChecksum = ALICE.replace('C51812', 'c51812')

  it('accepts lowercase, uppercase and correctly checksummed addresses, all normalised to the checksum form', () => {
    for (const address of [lower, `0x${lower.slice(2).toUpperCase()}`, ALICE]) {
      expect(parseAddress(address, 'to')).toEqual({ ok: true, value: ALICE })
    }
  })

  it('refuses a mixed-case address whose checksum is wrong, naming the field and the reason', () => {
    expect(parseAddress(badChecksum, 'txObjects[0].to')).toMatchObject({
      ok: false,
      error: { kind: 'INVALID_REQUEST', field: 'txObjects[0].to', message: expect.stringContaining('EIP-55 checksum') },
    })
  })
})
