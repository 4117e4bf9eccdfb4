/**
 * A token's name and symbol are the contract's own words, and a contract can write into them characters that hide
 * (zero-width, NUL), reorder what follows (bidi overrides), pass for other letters (Cyrillic "С" for "C", fullwidth
 * "Ｕ") or imitate the window's own figures ("≈ $25,000.00 ✔"). Here they are cleaned for display, what was wrong is
 * named, and a symbol is reduced to a skeleton that compares the way it looks.
 */

/** Longest symbol shown: listed symbols have at most 11 characters, and a longer one only pushes the row's figures away. */
export const MAX_SYMBOL_LENGTH = 32

/** Longest name shown. */
export const MAX_NAME_LENGTH = 100

/** How much of a contract's answer is looked at: more than any name, and a bound on what a padded answer costs. */
const MAX_READ_LENGTH = 1000

/** What a token's text held that an honest token has no use for; the worst one found. */
export type TokenDisguise = 'hidden' | 'lookalike' | 'figures'

/** A name or symbol as shown, and what had to be removed or is shown only as a look-alike. */
export type CleanText = { text: string | null; disguise: TokenDisguise | null }

/**
 * Control and format characters (NUL, zero-width, bidi embeddings, overrides and isolates), lone surrogates, private
 * use and unassigned code points, line separators, and whatever Unicode says to draw as nothing (Hangul fillers,
 * variation selectors).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu

/** A symbol keeps letters, digits and the few marks listed symbols use ("USDC.e", "REPv2_Yes_1", "GST-SOL", "USD+"). */
const NOT_SYMBOL = /[^\p{L}\p{Nd}._+-]/gu

/** A leading "$" before a letter is a symbol's own ("$SUP", "$MICHI"); one before a digit reads as an amount. */
const LEADING_DOLLAR = /^\$(?=\p{L})/u

/**
 * What in a name imitates the window's amounts and badges: currency signs ("$" before a letter aside, as in "$PEPE"),
 * "≈"-like signs and check marks.
 */
const FIGURES = /\$(?!\p{L})|(?!\$)\p{Sc}|[\u2243\u2245\u2248\u2713\u2714\u2611\u2705\u{1F5F8}]/gu

/**
 * Letters drawn like a Latin letter, by the letter they pass for: Cyrillic, Greek, Armenian and Cherokee ones, Latin
 * small capitals and dotless letters (case does not matter: skeletons compare in upper case). NFKC already folds
 * fullwidth, mathematical and circled forms.
 */
const LOOKALIKES_OF: Record<string, string> = {
  A: 'АаΑαᎪᴀ',
  B: 'ВвЬьΒβᏴʙ',
  C: 'СсϹϲᏟᴄ',
  D: 'ԁᎠᴅ',
  E: 'ЕеЁёΕᎬᴇ',
  G: 'ɢ',
  H: 'НнҺһΗᎻʜ',
  I: 'ІіЇїӀΙιɪı',
  J: 'ЈјϳᴊȷᎫ',
  K: 'КкΚκᏦᴋ',
  L: 'ӏʟᏞ',
  M: 'МмΜᎷᴍ',
  N: 'Νɴ',
  O: 'ОоΟοՕօᴏ',
  P: 'РрΡρᏢᴘ',
  Q: 'Ԛԛ',
  R: 'ʀᏒ',
  S: 'ЅѕᏚꜱ',
  T: 'ТтΤτᎢᴛ',
  U: 'Սսυᴜ',
  V: 'νᴠᏙ',
  W: 'ԜԝᎳᏔᴡ',
  X: 'ХхΧχ',
  Y: 'УуҮүΥϒʏ',
  Z: 'ΖᏃᴢ',
}

const LOOKALIKES = new Map(
  Object.entries(LOOKALIKES_OF).flatMap(([latin, letters]) => [...letters].map((letter) => [letter, latin])),
)

const LOOKALIKE = new RegExp(`[${Object.values(LOOKALIKES_OF).join('')}]`, 'gu')

/**
 * Whether text passes for Latin text it is not: it holds another script's look-alikes or compatibility forms NFKC
 * folds, and reads as plain Latin once they are replaced. Text in another script ("РУБЛЬ") does not pass for Latin.
 */
function passesForLatin(text: string): boolean {
  LOOKALIKE.lastIndex = 0
  const foreign = text.normalize('NFKC') !== text.normalize('NFC') || LOOKALIKE.test(text)
  return foreign && /^[\x20-\x7e]*$/.test(textSkeleton(text))
}

/** The first of the contract's answer (a bound on the work), its compatibility forms folded and invisibles removed. */
function visible(raw: string): { text: string; hidden: boolean; lookalike: boolean } {
  const head = raw.slice(0, MAX_READ_LENGTH)
  const text = head.replace(INVISIBLE, '')
  return { text: text.normalize('NFKC'), hidden: text !== head, lookalike: passesForLatin(text) }
}

const cut = (text: string, length: number) => [...text].slice(0, length).join('')

const disguiseOf = (hidden: boolean, lookalike: boolean, figures: boolean): TokenDisguise | null =>
  hidden ? 'hidden' : lookalike ? 'lookalike' : figures ? 'figures' : null

/**
 * A token symbol as shown: visible characters only, then letters, digits and `._+-` (a leading "$" before a letter
 * stays), at most MAX_SYMBOL_LENGTH characters; null when nothing is left.
 */
export function cleanSymbol(raw: string): CleanText {
  const { text, hidden, lookalike } = visible(raw)
  const trimmed = text.trim()
  const dollar = LEADING_DOLLAR.test(trimmed) ? '$' : ''
  const kept = dollar + trimmed.slice(dollar.length).replace(NOT_SYMBOL, '')
  const shown = cut(kept, MAX_SYMBOL_LENGTH)
  return { text: shown || null, disguise: disguiseOf(hidden, lookalike, kept !== trimmed) }
}

/**
 * A token name as shown: visible characters only, runs of white space as one space, without amount-like currency
 * signs, "≈" or check marks (FIGURES), at most MAX_NAME_LENGTH characters; null when nothing is left.
 */
export function cleanName(raw: string): CleanText {
  const { text, hidden, lookalike } = visible(raw)
  const spaced = text.replace(/\s+/gu, ' ').trim()
  const kept = spaced.replace(FIGURES, '').replace(/\s+/gu, ' ').trim()
  const shown = cut(kept, MAX_NAME_LENGTH)
  return { text: shown || null, disguise: disguiseOf(hidden, lookalike, kept !== spaced) }
}

/**
 * What a symbol looks like, for telling whether it passes for another: NFKC, without invisibles or accents, each
 * look-alike letter as the Latin one, in upper case. "USDС" (Cyrillic Es), "ＵＳＤＣ" and "USDC\u200b" all give "USDC".
 */
export function textSkeleton(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(LOOKALIKE, (letter) => LOOKALIKES.get(letter) ?? letter)
    .trim()
    .toUpperCase()
}
