/** Known malicious addresses: the bundled list, what a host adds, and the warning either gives. */
import { describe, expect, it } from 'vitest'
import { addMaliciousAddresses } from '../../../src/engine/index.ts'
import { knownMalicious, maliciousAddressWarnings } from '../../../src/engine/risk/blocklist.ts'

// A chain no bundled entry uses, so what this test adds stays its own.
const CHAIN = 424242
const LISTED = '0x00000000000000000000000000000000000BAd01'
const CLEAN = '0x0000000000000000000000000000000000000c1e'

describe('known malicious addresses', () => {
  it('finds an added address in any case, on its chain only', () => {
    addMaliciousAddresses(CHAIN, { [LISTED]: 'test drainer' })
    expect(knownMalicious(CHAIN, LISTED.toLowerCase() as `0x${string}`)).toBe('test drainer')
    expect(knownMalicious(1, LISTED)).toBeNull()
    expect(knownMalicious(CHAIN, CLEAN)).toBeNull()
  })

  it('gives one CRITICAL warning per listed address, naming it and what involves it', () => {
    addMaliciousAddresses(CHAIN, { [LISTED]: 'test drainer' })
    expect(maliciousAddressWarnings(CHAIN, [CLEAN, LISTED], 'This message')).toEqual([
      {
        kind: 'KNOWN_MALICIOUS',
        severity: 'CRITICAL',
        message: `This message involves ${LISTED.toLowerCase()}, a known malicious address (test drainer). Do not sign it.`,
        data: { address: LISTED.toLowerCase() },
      },
    ])
    expect(maliciousAddressWarnings(CHAIN, [CLEAN], 'This transaction')).toEqual([])
  })
})
