/**
 * The wallet name in the window's header is the page's own text (an EIP-6963 announcement): it must not reorder the
 * row, hide characters, or run on like one of the window's sentences.
 */
import { describe, expect, it } from 'vitest'
import { pageText } from '../../src/extension/ui/lib/pageText.ts'

describe('page text in the window', () => {
  it('keeps an honest wallet name as it is', () => {
    expect(pageText('MetaMask')).toBe('MetaMask')
    expect(pageText('io.rabby')).toBe('io.rabby')
  })

  it('removes bidi overrides, zero-width characters and line breaks', () => {
    expect(pageText('Meta\u202eksaM\u202c')).toBe('MetaksaM')
    expect(pageText('Rab\u200bby\nWallet')).toBe('Rabby Wallet')
  })

  it('cuts a name that reads like a sentence of the window, and marks the cut', () => {
    const name = 'MetaMask ✓ Preflight checked this request: no issues found, continue safely'
    expect(pageText(name)).toBe('MetaMask ✓ Preflight checked this reques…')
  })
})
