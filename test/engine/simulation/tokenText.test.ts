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
    // A brand sign on its own is a currency sign again, and a check mark drawn as an emoji is still a check mark.
    expect(cleanSymbol('\u20ae25')).toEqual({ text: '25', disguise: 'figures' })
    expect(cleanSymbol('USDC\u2705')).toEqual({ text: 'USDC', disguise: 'figures' })
    expect(cleanSymbol('USDC\u2714\ufe0f')).toEqual({ text: 'USDC', disguise: 'figures' })
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
    // Tether's own "₮" (USDT0 on Arbitrum answers "USD₮0"; removing it showed another token's "USD0") and emoji.
    for (const symbol of [
      'USD\u20ae0',
      'USD\u20ae',
      'XAU\u20ae',
      '\u20bfTC',
      'PEPE\u{1f438}',
      'LOVE\u2764\ufe0f',
      '\u{1f9d1}\u200d\u{1f680}',
    ]) {
      expect(cleanSymbol(symbol)).toEqual({ text: symbol, disguise: null })
    }
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
    // Honest names: an emoji drawn with its selector or joiners, a trademark sign, a superscript, Tether's "₮", CJK.
    for (const name of [
      'Love \u2764\ufe0f',
      'Astronaut \u{1f9d1}\u200d\u{1f680}',
      'Thumbs \u{1f44d}\u{1f3fd}',
      'USD\u20ae0',
      '\u30c9\u30fc\u30b8\u30b3\u30a4\u30f3',
      '\u72d7\u72d7\u5e01',
    ]) {
      expect(cleanName(name)).toEqual({ text: name, disguise: null })
    }
    expect(cleanName('Uniswap\u2122')).toEqual({ text: 'UniswapTM', disguise: null })
    expect(cleanName('sETH\u00b2')).toEqual({ text: 'sETH2', disguise: null })
    // A selector or joiner outside an emoji still hides, and a fullwidth name still passes for Latin.
    expect(cleanName('USD\u200d Coin\ufe0f')).toEqual({ text: 'USD Coin', disguise: 'hidden' })
    expect(cleanName('\uff35\uff33\uff24 Coin')).toEqual({ text: 'USD Coin', disguise: 'lookalike' })
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
    // Emoji kept in a symbol do not hide a copy, and Tether's "₮" reads as the T it passes for.
    expect(textSkeleton('USDC\u{1f535}')).toBe('USDC')
    expect(textSkeleton('USD\u20ae')).toBe('USDT')
    expect(textSkeleton('USD\u20ae0')).toBe('USDT0')
    expect(textSkeleton('\u0420\u0423\u0411')).not.toMatch(/^[A-Z]+$/)
  })

  it('reads emoji drawn as letters as those letters, and an unassigned emoji code point as hidden', () => {
    // 🅰 🅾 🅿 and Ⓜ are emoji NFKC leaves or folds as letters: kept as emoji, "🅰PE" passed for nothing.
    expect(textSkeleton('\u{1f170}PE')).toBe('APE')
    expect(textSkeleton('\u{1f17e}\ufe0fP')).toBe('OP')
    expect(textSkeleton('\u24c2ATIC')).toBe('MATIC')
    expect(cleanSymbol('\u{1f170}PE').disguise).toBe('lookalike')
    expect(cleanSymbol('\u{1f17f}EPE').disguise).toBe('lookalike')
    // Reserved for emoji, not yet assigned: drawn as nothing (or a box), so it hides, as any unassigned code point.
    expect(cleanSymbol('U\u{1fc00}SDC')).toEqual({ text: 'USDC', disguise: 'hidden' })
    // Emoji that spell nothing stay out of the skeleton.
    expect(textSkeleton('USDC\u2122')).toBe('USDC')
  })
})
