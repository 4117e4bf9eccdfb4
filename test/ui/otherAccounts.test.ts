/**
 * A swap listed the pool's "−2,961.474103 USDC" in red under a small "Other account" tag, right below the user's own
 * changes: other accounts' changes are folded away, the user's and their Safe's shown open.
 */
import { describe, expect, it } from 'vitest'
import { type AccountGroup, splitGroups } from '../../src/extension/ui/lib/stateChangeView.ts'

const group = (account: string, isUser: boolean, label: string): AccountGroup => ({ account, isUser, label, rows: [] })

describe('which account groups show open', () => {
  it('shows the user’s and the Safe’s, folds the pools’', () => {
    const you = group('0x01', true, 'You')
    const safe = group('0x02', false, 'Safe')
    const pool = group('0x03', false, 'Other account')
    const router = group('0x04', false, 'Other account')
    expect(splitGroups([you, safe, pool, router])).toEqual({ own: [you, safe], others: [pool, router] })
  })

  it('shows every group open when none is the user’s', () => {
    const pool = group('0x03', false, 'Other account')
    expect(splitGroups([pool])).toEqual({ own: [pool], others: [] })
  })
})
