/**
 * A token's name and symbol as shown: invisible and reordering characters removed, a symbol kept to letters, digits and
 * a few marks, and what they held named; and the skeleton by which "USDС" (Cyrillic) or fullwidth "ＵＳＤＣ" is USDC.
 */
import { describe, expect, it } from 'vitest'
import { cleanName, cleanSymbol, MAX_SYMBOL_LENGTH, textSkeleton } from '../../../src/engine/simulation/tokenText.ts'

/** Characters that must never reach humanReadableDiff, the API or the window. */
const HIDDEN = /[\p{Cc}\p{Cf}]/u

describe('cleanSymbol', () => {
  it('removes invisible and reordering characters, and says the symbol hid something', () => {
    for (const raw of [
      'USDC\u200b',
      'US\u200dDC',
      'USDC\u2060',
      '\u202eUSDC',
      'USDC\u2066',
      'US\u0000DC',
      'USDC\u3164',
    ]) {
      const clean = cleanSymbol(raw)
      expect(clean).toEqual({ text: 'USDC', disguise: 'hidden' })
      expect(clean.text).not.toMatch(HIDDEN)
    }
    // A symbol of nothing but NULs (a padded answer) is no symbol.
    expect(cleanSymbol('\u0000'.repeat(200_000))).toEqual({ text: null, disguise: 'hidden' })
  })

  it('shows look-alike letters as read, folds fullwidth and styled forms, and says they pass for Latin', () => {
    expect(cleanSymbol('USD\u0421')).toEqual({ text: 'USD\u0421', disguise: 'lookalike' })
    expect(cleanSymbol('U\u0405DC')).toEqual({ text: 'U\u0405DC', disguise: 'lookalike' })
    expect(cleanSymbol('\u0412\u0422\u0421')).toEqual({ text: '\u0412\u0422\u0421', disguise: 'lookalike' }) // "ВТС"
    expect(cleanSymbol('\uff35\uff33\uff24\uff23')).toEqual({ text: 'USDC', disguise: 'lookalike' })
    expect(cleanSymbol('\u{1d414}\u{1d412}\u{1d403}\u{1d402}')).toEqual({ text: 'USDC', disguise: 'lookalike' })
  })

  it('keeps letters, digits and ._+- (and a leading $ before a letter); the rest is removed and named', () => {
    expect(cleanSymbol('USDC  \u2248 $25,000.00 \u2714 verified')).toEqual({
      text: 'USDC25000.00verified',
      disguise: 'figures',
    })
    expect(cleanSymbol('$25')).toEqual({ text: '25', disguise: 'figures' })
    expect(cleanSymbol('US DC')).toEqual({ text: 'USDC', disguise: 'figures' })
  })

  it('leaves honest symbols as they are, listed ones and other scripts alike, and bounds their length', () => {
    for (const symbol of [
      'USDC',
      'USDC.e',
      '$SUP',
      'REPv2_Yes_1',
      'GST-SOL',
      'USD+',
      'cUSDCv3',
      '\u0420\u0423\u0411',
    ]) {
      expect(cleanSymbol(symbol)).toEqual({ text: symbol, disguise: null })
    }
    expect(cleanSymbol(' WETH ')).toEqual({ text: 'WETH', disguise: null })
    expect(cleanSymbol('W'.repeat(100))).toEqual({ text: 'W'.repeat(MAX_SYMBOL_LENGTH), disguise: null })
  })
})

describe('cleanName', () => {
  it('keeps a name’s spaces and punctuation, removes what hides, reorders or imitates an amount', () => {
    expect(cleanName('Wrapped Ether (PoS) • Bridged & Co.')).toEqual({
      text: 'Wrapped Ether (PoS) • Bridged & Co.',
      disguise: null,
    })
    expect(cleanName('USD\u202e Coin\u0000')).toEqual({ text: 'USD Coin', disguise: 'hidden' })
    expect(cleanName('Bored Apes \u2248 $25,000 \u2714')).toEqual({ text: 'Bored Apes 25,000', disguise: 'figures' })
    expect(cleanName('USD \u0421oin')).toEqual({ text: 'USD \u0421oin', disguise: 'lookalike' })
    expect(cleanName('$PEPE Coin')).toEqual({ text: '$PEPE Coin', disguise: null })
    expect(cleanName('')).toEqual({ text: null, disguise: null })
  })
})

describe('textSkeleton', () => {
  it('reads every disguise of USDC as USDC, and other symbols as themselves', () => {
    const disguises = [
      'usdc',
      'USDC\u200b',
      'USD\u0421',
      'U\u0405DC',
      'US\u200dDC',
      'USDC\u2060',
      '\uff35\uff33\uff24\uff23',
    ]
    for (const symbol of [...disguises, '\u00daSDC', '\u1d1cSDC']) {
      expect(textSkeleton(symbol)).toBe('USDC')
    }
    expect(textSkeleton('USDC.e')).toBe('USDC.E')
    expect(textSkeleton('\u0420\u0423\u0411')).not.toMatch(/^[A-Z]+$/)
  })
})
