/** Warnings in order of severity, and the action they decide. */
import { describe, expect, it } from 'vitest'
import { actionFor } from '../../../src/engine/risk/action.ts'
import { makeWarning, sortWarnings } from '../../../src/engine/risk/warnings.ts'

describe('warnings and action', () => {
  it('BLOCK on any critical, WARN on warnings, NONE otherwise; critical sorted first', () => {
    const warning = makeWarning('APPROVAL_TO_EOA', 'WARNING', 'w')
    const critical = makeWarning('KNOWN_MALICIOUS', 'CRITICAL', 'c')
    expect(actionFor([])).toBe('NONE')
    expect(actionFor([warning])).toBe('WARN')
    expect(actionFor([warning, critical])).toBe('BLOCK')
    expect(sortWarnings([warning, critical])).toEqual([critical, warning])
  })
})
