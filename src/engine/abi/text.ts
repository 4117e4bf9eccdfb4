/** Bytes as text a person can read, when they are: the check behind every "is this a message or a hash?". */

/**
 * Characters that change the order in which the text around them is displayed (Unicode's Bidi_Control: embeddings,
 * overrides, isolates and the invisible direction marks): "moc.elgoog" after U+202E shows as "google.com", and
 * "1 → 500" after a right-to-left mark (U+200F, or U+061C) shows as "500 → 1", so text holding them does not read as
 * it is signed.
 */
const REORDERING_CHARS = '\\p{Bidi_Control}'
const REORDERING = new RegExp(`[${REORDERING_CHARS}]`, 'u')

/** Control characters other than tab and newlines, the replacement character of undecodable bytes, and reordering. */
const UNPRINTABLE = new RegExp(`(?![\\t\\n\\r])[\\p{Cc}\\uFFFD${REORDERING_CHARS}]`, 'u')

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/** UTF-8 text when every character is printable and displays in the order it is written, otherwise null. */
export function printableText(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return ''
  const text = utf8(bytes)
  return text === null || UNPRINTABLE.test(text) ? null : text
}

/** True for UTF-8 text that holds characters reordering its display: it reads differently from what is signed. */
export function reordersText(bytes: Uint8Array): boolean {
  const text = utf8(bytes)
  return text !== null && reorders(text)
}

/** True for text holding characters that reorder its display. */
export function reorders(text: string): boolean {
  return REORDERING.test(text)
}
