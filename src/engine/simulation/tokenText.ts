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

/** What a symbol keeps: letters, digits and the few marks listed symbols use ("USDC.e", "REPv2_Yes_1", "GST-SOL", "USD+"). */
const SYMBOL_CHARACTER = /^[\p{L}\p{Nd}._+-]$/u

/**
 * An emoji with what draws it as one: presentation selectors (U+FE0F), skin tones, and the zero-width joiners of a
 * sequence ("🧑‍🚀"). Memecoins write them in names and symbols; they neither hide text nor read as amounts.
 */
const PICTOGRAPH = '(?:(?!\\p{Cn})\\p{Extended_Pictographic})'
/** An emoji and what draws it. Code points reserved for emoji not yet assigned draw nothing: they stay invisible. */
const EMOJI_SOURCE = `${PICTOGRAPH}[\\ufe0f\\p{Emoji_Modifier}]*(?:\\u200d${PICTOGRAPH}[\\ufe0f\\p{Emoji_Modifier}]*)*`

/** Each emoji of a text (group 1), or else one code point: symbols are cleaned emoji by emoji, the rest one by one. */
const EMOJI_OR_CHARACTER = new RegExp(`(${EMOJI_SOURCE})|[\\s\\S]`, 'gu')

/** Each emoji (group 1), or else an invisible character: the joiners and selectors inside an emoji draw it. */
const EMOJI_OR_INVISIBLE = new RegExp(`(${EMOJI_SOURCE})|${INVISIBLE.source}`, 'gu')

/** Emoji and the signs that draw them, which a skeleton leaves out: "USDC🔵" passes for USDC. */
const EMOJI = new RegExp(EMOJI_SOURCE, 'gu')

/**
 * Emoji drawn as Latin letters or words (🅰 🅱 🅾 🅿, 🆗, 🆙), by what they spell: NFKC leaves them as they are, so "🅰PE" would
 * otherwise keep its emoji and pass for nothing while it reads as APE.
 */
const LETTER_EMOJI: Record<string, string> = {
  '\u{1F170}': 'A',
  '\u{1F171}': 'B',
  '\u{1F17E}': 'O',
  '\u{1F17F}': 'P',
  '\u{1F18E}': 'AB',
  '\u{1F191}': 'CL',
  '\u{1F192}': 'COOL',
  '\u{1F193}': 'FREE',
  '\u{1F194}': 'ID',
  '\u{1F195}': 'NEW',
  '\u{1F196}': 'NG',
  '\u{1F197}': 'OK',
  '\u{1F198}': 'SOS',
  '\u{1F199}': 'UP',
  '\u{1F19A}': 'VS',
}

/** What an emoji spells in a skeleton: a letter emoji's letters, a styled letter's own ("Ⓜ" M, "ℹ" i), or nothing. */
function emojiLetters(emoji: string): string {
  const [base = ''] = [...emoji]
  return LETTER_EMOJI[base] ?? (styledLatinLetter(base) ? base.normalize('NFKC') : '')
}

/**
 * Currency signs brands write as letters: Tether's "₮" ("USD₮", "USD₮0", "XAU₮") and Bitcoin's "₿", by the Latin letter
 * each passes for. Touching a letter they are part of a word, never an amount, and a skeleton reads them as that letter.
 */
const BRAND_LETTERS: Record<string, string> = { '\u20ae': 'T', '\u20bf': 'B' }

/** Whether the character at `index` of `text` is a brand sign (BRAND_LETTERS) touching a letter. */
function isBrandLetter(text: string, index: number): boolean {
  if (!(text.charAt(index) in BRAND_LETTERS)) return false
  return /\p{L}/u.test(text.charAt(index - 1)) || /\p{L}/u.test(text.charAt(index + 1))
}

/** A leading "$" before a letter is a symbol's own ("$SUP", "$MICHI"); one before a digit reads as an amount. */
const LEADING_DOLLAR = /^\$(?=\p{L})/u

/**
 * What in a name imitates the window's amounts and badges: currency signs ("$" before a letter aside, as in "$PEPE"),
 * "≈"-like signs and check marks.
 */
const FIGURES = /\$(?!\p{L})|(?!\$)\p{Sc}|[\u2243\u2245\u2248\u2713\u2714\u2611\u2705\u{1F5F8}]\ufe0f?/gu

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
 * Whether a character is a styled form of a Latin letter that NFKC folds to it: fullwidth "Ｕ", mathematical "𝐔",
 * circled "Ⓤ". Signs it folds to several letters or to a digit ("™" to "TM", "²" to "2") are written as themselves.
 */
const styledLatinLetter = (character: string) =>
  character.normalize('NFKC') !== character && /^[A-Za-z]$/.test(character.normalize('NFKC'))

/**
 * Whether text passes for Latin text it is not: it holds another script's look-alikes or styled Latin letters, and
 * reads as plain Latin once they are replaced. Text in another script ("РУБЛЬ") does not pass for Latin.
 */
function passesForLatin(text: string): boolean {
  LOOKALIKE.lastIndex = 0
  const foreign = LOOKALIKE.test(text) || [...text].some((c) => styledLatinLetter(c) || c in LETTER_EMOJI)
  return foreign && /^[\x20-\x7e]*$/.test(textSkeleton(text))
}

/**
 * The first of the contract's answer (a bound on the work), its compatibility forms folded and invisibles removed,
 * except the joiners and selectors that draw an emoji.
 */
function visible(raw: string): { text: string; hidden: boolean; lookalike: boolean } {
  const head = raw.slice(0, MAX_READ_LENGTH)
  const text = head.replace(EMOJI_OR_INVISIBLE, (_match, emoji: string | undefined) => emoji ?? '')
  return { text: text.normalize('NFKC'), hidden: text !== head, lookalike: passesForLatin(text) }
}

/** A symbol's characters that SYMBOL_CHARACTER, brand signs and emoji other than check marks (FIGURES) keep. */
function symbolCharacters(text: string): string {
  return text.replace(EMOJI_OR_CHARACTER, (match, emoji: string | undefined, offset: number) => {
    if (emoji) return isFigure(emoji) ? '' : emoji
    return SYMBOL_CHARACTER.test(match) || isBrandLetter(text, offset) ? match : ''
  })
}

/** Whether `text` is one of FIGURES' check marks, "≈"-like signs or currency signs. */
function isFigure(text: string): boolean {
  FIGURES.lastIndex = 0
  return FIGURES.test(text)
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
  const kept = dollar + symbolCharacters(trimmed.slice(dollar.length))
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
  const kept = spaced
    .replace(FIGURES, (sign, offset: number) => (isBrandLetter(spaced, offset) ? sign : ''))
    .replace(/\s+/gu, ' ')
    .trim()
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
    .replace(EMOJI, emojiLetters)
    .replace(/[\u20ae\u20bf]/gu, (sign) => BRAND_LETTERS[sign] ?? sign)
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(LOOKALIKE, (letter) => LOOKALIKES.get(letter) ?? letter)
    .trim()
    .toUpperCase()
}
