/** Bytes as text a person can read, when they are: the check behind every "is this a message or a hash?". */

/** Control characters other than tab and newlines, and the replacement character of undecodable bytes. */
const UNPRINTABLE = /(?![\t\n\r])[\p{Cc}\uFFFD]/u

/** UTF-8 text when every character is printable (newlines and tabs allowed), otherwise null. */
export function printableText(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return ''
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
  return UNPRINTABLE.test(text) ? null : text
}
