import { describe, expect, it } from 'vitest'
import { differingRuns } from '../../src/extension/ui/lib/addressDiff.ts'

describe('differingRuns', () => {
  it('cuts an address into runs that match the other one (case aside) and runs that do not', () => {
    expect(differingRuns('0xAbC123', '0xabD1x3')).toEqual([
      { text: '0xAb', differs: false },
      { text: 'C', differs: true },
      { text: '1', differs: false },
      { text: '2', differs: true },
      { text: '3', differs: false },
    ])
    expect(differingRuns('0x12', '0x1')).toEqual([
      { text: '0x1', differs: false },
      { text: '2', differs: true },
    ])
  })
})
