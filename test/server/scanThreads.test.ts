import { describe, expect, it } from 'vitest'
import { defaultScanThreads } from '../../src/server/scanRunner.ts'

describe('defaultScanThreads', () => {
  it('leaves one core to the thread that speaks HTTP', () => {
    expect(defaultScanThreads(2)).toBe(1)
    expect(defaultScanThreads(8)).toBe(7)
    expect(defaultScanThreads(64)).toBe(63)
  })

  it('scans on the main thread of a one-core machine', () => {
    expect(defaultScanThreads(1)).toBe(0)
  })
})
