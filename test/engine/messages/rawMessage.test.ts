import { keccak256, size, stringToHex, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  decodeRawMessage,
  rawMessageHex,
  rawMessageWarnings,
  readRawMessage,
} from '../../../src/engine/messages/rawMessage.ts'

describe('readRawMessage', () => {
  it('decodes hex that is printable UTF-8 into text', () => {
    const text = 'Sign in to example.org\nNonce: 42 — ok ✓'
    const message = readRawMessage(stringToHex(text))
    expect(message).toEqual({ bytes: stringToHex(text), text, isHash: false })
    expect(rawMessageWarnings(message)).toEqual([])
    expect(decodeRawMessage('PERSONAL_SIGN', message)).toEqual({
      primaryType: 'PERSONAL_SIGN',
      fields: [{ name: 'message', type: 'string', value: text }],
    })
  })

  it('takes a message that is not hex as the text itself', () => {
    expect(readRawMessage('hello')).toEqual({ bytes: '0x68656c6c6f', text: 'hello', isHash: false })
  })

  it('flags a bare 32-byte hash as blind signing, CRITICAL', () => {
    const hash = keccak256(toHex('a transaction'))
    const message = readRawMessage(hash)
    expect(message.isHash).toBe(true)
    expect(message.text).toBeNull()
    expect(rawMessageWarnings(message)).toMatchObject([{ kind: 'ETH_SIGN_TX_HASH', severity: 'CRITICAL' }])
    expect(decodeRawMessage('SIGN_MESSAGE', message).fields[0]).toEqual({ name: 'message', type: 'bytes', value: hash })
  })

  it('reads hex digits as the bytes wallets sign for them: no prefix, 0X, or an odd count padded with a zero', () => {
    const hash = keccak256(toHex('a Safe transaction'))
    const digits = hash.slice(2)
    for (const spelling of [digits, `0X${digits.toUpperCase()}`, digits.toUpperCase()]) {
      expect(readRawMessage(spelling), spelling).toEqual(readRawMessage(hash))
      expect(rawMessageWarnings(readRawMessage(spelling))).toMatchObject([
        { kind: 'ETH_SIGN_TX_HASH', severity: 'CRITICAL' },
      ])
    }
    const zeroLed = `0x0${digits.slice(1)}` as const
    expect(readRawMessage(`0x${digits.slice(1)}`)).toEqual(readRawMessage(zeroLed))
    expect(rawMessageHex(`0x${digits.slice(1)}`)).toBe(zeroLed)
    expect(rawMessageHex('ABC')).toBe('0x0abc')
    expect(rawMessageHex('0x')).toBe('0x')
  })

  it('keeps anything that is not hex digits alone as text', () => {
    for (const text of ['', 'hello', '0xHello', 'ab cd', '0x12 34', 'Nonce: 0xab']) {
      expect(rawMessageHex(text), text).toBeNull()
      expect(readRawMessage(text).bytes, text).toBe(stringToHex(text))
    }
  })

  it('does not call 32 bytes of readable text a hash, nor binary of another length', () => {
    const plain = readRawMessage(stringToHex('exactly thirty-two bytes long!!!'))
    expect(plain.isHash).toBe(false)
    expect(rawMessageWarnings(plain)).toEqual([])
    const binary = readRawMessage('0x00ff00ff')
    expect(binary).toMatchObject({ text: null, isHash: false })
  })

  it('warns, without blocking, on 32 bytes that decode as text no one writes: a hash may have been ground to decode', () => {
    const ground = readRawMessage(stringToHex('Zk{7]~Ƣ$x^|Qm<>ʬ`@Hw*Wa&9#%+=~'))
    expect(size(ground.bytes)).toBe(32)
    expect(ground.text).not.toBeNull()
    expect(rawMessageWarnings(ground)).toMatchObject([{ kind: 'ETH_SIGN_TX_HASH', severity: 'WARNING' }])
  })

  it('reads the same bytes the same way whether they come as hex or as a string', () => {
    const controls = '\u0001'.repeat(32)
    const asString = readRawMessage(controls)
    expect(asString).toEqual(readRawMessage(stringToHex(controls)))
    expect(asString).toMatchObject({ text: null, isHash: true })
  })

  it('does not warn on 32 bytes of URL or base64, as logins often sign', () => {
    for (const text of ['https://app.uniswap.org/#/swap?x', 'q8Jz+/Vn0Wc3mTfR2xYb7HkLp9sDa1E=']) {
      const message = readRawMessage(stringToHex(text))
      expect(size(message.bytes), text).toBe(32)
      expect(rawMessageWarnings(message), text).toEqual([])
    }
  })

  it('shows text whose display is reordered (U+202E) as bytes, and warns that it reads differently', () => {
    const disguised = readRawMessage(stringToHex('Sign in to \u202Emoc.elgoog'))
    expect(disguised.text).toBeNull()
    expect(rawMessageWarnings(disguised)).toMatchObject([
      { kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE', severity: 'WARNING' },
    ])
    // The invisible right-to-left marks reorder too: Chromium draws "Swap: \u200F1 → 500" as "Swap: 500 → 1".
    for (const mark of ['\u200F', '\u061C', '\u200E']) {
      const marked = readRawMessage(stringToHex(`Swap: ${mark}1 → 500`))
      expect(marked.text, mark).toBeNull()
      expect(rawMessageWarnings(marked), mark).toMatchObject([{ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE' }])
    }
    // Joiners inside emoji are not reordering.
    const family = readRawMessage(stringToHex('Welcome 👨‍👩‍👧'))
    expect(family.text).toBe('Welcome 👨‍👩‍👧')
    expect(rawMessageWarnings(family)).toEqual([])
  })
})
