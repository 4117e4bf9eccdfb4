/**
 * Raw messages (personal_sign / eth_sign): the text the user is asked to sign, or — when the bytes are a bare 32-byte
 * hash — a blind signature that can authorise a transaction or an approval the user never sees.
 */
import { bytesToHex, hexToBytes, size, stringToBytes } from 'viem'
import { printableText, reordersText } from '../abi/index.ts'
import type { Hex, MessageKind, SerializedValue, Warning } from '../api/index.ts'
import { makeWarning } from '../risk/index.ts'
import { unreadableWarning } from './readability.ts'

/** What a raw message says: its bytes, its text when the bytes are readable, and whether it is a bare hash. */
export type RawMessage = { bytes: Hex; text: string | null; isHash: boolean }

/** Hex digits alone, after a 0x or 0X prefix (none is a message of no bytes) or without one. */
const HEX_DIGITS = /^(?:0[xX]([0-9a-fA-F]*)|([0-9a-fA-F]+))$/

/**
 * The bytes a raw message spells when wallets read it as hex, as canonical 0x-hex (lowercase, even length); null when
 * they sign it as text. MetaMask signs hex digits as bytes with or without a prefix, and eth-sig-util pads an odd
 * count with a leading zero: a hash sent as "ab12…" or "0x" + 63 digits is still a hash, not 64 letters of text.
 */
export function rawMessageHex(raw: string): Hex | null {
  const match = HEX_DIGITS.exec(raw)
  if (!match) return null
  const digits = (match[1] ?? match[2] ?? '').toLowerCase()
  return `0x${digits.length % 2 === 0 ? digits : `0${digits}`}`
}

/**
 * Reads a raw message as wallets sign it: hex (rawMessageHex) as the bytes it spells, anything else as its UTF-8
 * bytes; the bytes are text when they are printable UTF-8, however they were sent.
 */
export function readRawMessage(raw: string): RawMessage {
  const hex = rawMessageHex(raw)
  const bytes = hex !== null ? hexToBytes(hex) : stringToBytes(raw)
  const text = printableText(bytes)
  return { bytes: bytesToHex(bytes), text, isHash: bytes.length === 32 && text === null }
}

/** The message for display, as text when readable and as hex otherwise. */
export function decodeRawMessage(
  kind: Exclude<MessageKind, 'SIGN_TYPED_DATA'>,
  message: RawMessage,
): { primaryType: string; fields: { name: string; type: string; value: SerializedValue }[] } {
  const field =
    message.text === null
      ? { name: 'message', type: 'bytes', value: message.bytes }
      : { name: 'message', type: 'string', value: message.text }
  return { primaryType: kind, fields: [field] }
}

/**
 * 32 bytes of text made only of these (ASCII letters, digits, spaces, line breaks, the punctuation of sentences, URLs
 * and base64) are costly to reach from a hash: 84 of 256 byte values, so about 2^51 hashes to find one that reads so.
 */
const PLAIN_TEXT = /^[A-Za-z0-9 \t\r\n.,:;!?'()\-/+=_@#&%]*$/

/**
 * A bare 32-byte hash is blind signing: it may be a transaction or order hash the user cannot read (CRITICAL). 32 bytes
 * that decode as text of another kind may be such a hash ground until it decodes (about 1 in 2^36 do): WARNING.
 */
export function rawMessageWarnings(message: RawMessage): Warning[] {
  if (message.isHash) {
    return [
      makeWarning(
        'ETH_SIGN_TX_HASH',
        'CRITICAL',
        'You are asked to sign a raw 32-byte hash you cannot read. It can stand for a transaction or approval that ' +
          'moves your assets. Do not sign it unless you know exactly what it is.',
      ),
    ]
  }
  if (reordersText(hexToBytes(message.bytes))) {
    return [
      unreadableWarning(
        'Its text holds characters that change the order in which it is displayed, so it would read differently ' +
          'from what you sign; it is shown as bytes. Honest sites do not write messages this way.',
      ),
    ]
  }
  if (size(message.bytes) !== 32 || message.text === null || PLAIN_TEXT.test(message.text)) return []
  return [
    makeWarning(
      'ETH_SIGN_TX_HASH',
      'WARNING',
      'This message is exactly 32 bytes, the size of a transaction or approval hash, and a hash can be searched for ' +
        'until its bytes read as text like this. Sign it only if you recognise the text as what the site asked you ' +
        'to sign.',
    ),
  ]
}
