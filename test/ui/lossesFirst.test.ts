/**
 * What leaves the account leads its list: a transaction that pays 1 ETH while forty airdropped items arrive showed the
 * payment as row 21 of 41, far below the fold of a 600 px window.
 */
import { describe, expect, it } from 'vitest'
import { confirmView } from '../../src/extension/ui/lib/confirmView.ts'
import { airdroppedItem, ethChange, transactionRequest } from './support/scans.ts'

describe('the order of an account’s changes', () => {
  it('puts the one payment before forty airdropped items, the items in the engine’s order', () => {
    const items = Array.from({ length: 40 }, (_, index) => airdroppedItem(index + 1))
    const changes = [...items.slice(0, 20), ethChange(-(10n ** 18n)), ...items.slice(20)]
    const [user] = confirmView(transactionRequest(changes)).groups
    expect(user?.rows[0]?.text).toBe('−1 ETH')
    expect(user?.rows.slice(1).map((row) => row.text)).toEqual(
      Array.from({ length: 40 }, (_, index) => `+1 Airdrop Pass ${index + 1} #${index + 1}`),
    )
  })

  it('keeps a swap as the engine gave it: what is sent, then what comes back', () => {
    const [user] = confirmView(transactionRequest([ethChange(-(10n ** 18n)), ethChange(5n * 10n ** 17n)])).groups
    expect(user?.rows.map((row) => row.text)).toEqual(['−1 ETH', '+0.5 ETH'])
    const [reversed] = confirmView(transactionRequest([ethChange(5n * 10n ** 17n), ethChange(-(10n ** 18n))])).groups
    expect(reversed?.rows.map((row) => row.text)).toEqual(['−1 ETH', '+0.5 ETH'])
  })
})
