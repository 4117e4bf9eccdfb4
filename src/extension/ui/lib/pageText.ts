/** Text a page chose (a wallet's announced name), made fit to show inside the window's own words. */

/** Control and format characters: line breaks, zero-width characters, and bidi overrides that reorder what follows. */
const HIDDEN = /[\p{Cc}\p{Cf}]/gu

/** Longest page text shown in a fact row; the rest is cut and marked. */
const MAX_SHOWN = 40

/**
 * `text` without invisible or reordering characters, spaces collapsed, at most MAX_SHOWN characters ("…" marking a
 * cut): a wallet name the page announces cannot reorder the row or run on like a sentence of the window's.
 */
export function pageText(text: string): string {
  const visible = text.replace(/\s+/gu, ' ').replace(HIDDEN, '').trim()
  const chars = [...visible]
  return chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN).join('')}…` : visible
}
