/** A Compound III market's approval is told from a token's by the market's own `isAllowed`, when the answer agrees. */
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { isCometManagerChange } from '../../../src/engine/simulation/lendingEvents.ts'
import { type ReadResults, readKeys } from '../../../src/engine/simulation/reads.ts'

const COMET: Address = '0xc3d688B66703497DAA19211EEdff47f25384cdc3'
const OWNER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const MANAGER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const answered = (allowed: unknown): ReadResults => ({
  before: new Map(),
  after: new Map([[readKeys.cometManager(COMET, OWNER, MANAGER), allowed]]),
})

describe('isCometManagerChange', () => {
  it('a grant the market confirms, and a removal it confirms', () => {
    expect(isCometManagerChange(answered(true), COMET, OWNER, MANAGER, 2n ** 256n - 1n)).toBe(true)
    expect(isCometManagerChange(answered(false), COMET, OWNER, MANAGER, 0n)).toBe(true)
  })

  it('not for a token whose isAllowed disagrees with its approval, or that does not answer', () => {
    expect(isCometManagerChange(answered(false), COMET, OWNER, MANAGER, 2n ** 256n - 1n)).toBe(false)
    expect(isCometManagerChange(answered(true), COMET, OWNER, MANAGER, 0n)).toBe(false)
    expect(isCometManagerChange(answered(undefined), COMET, OWNER, MANAGER, 2n ** 256n - 1n)).toBe(false)
  })
})
