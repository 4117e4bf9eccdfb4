import { keccak256, stringToHex, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRawMessage, rawMessageWarnings, readRawMessage } from '../../../src/engine/messages/rawMessage.ts'

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

  it('does not call 32 bytes of readable text a hash, nor binary of another length', () => {
    expect(readRawMessage(stringToHex('exactly thirty-two bytes long!!!')).isHash).toBe(false)
    const binary = readRawMessage('0x00ff00ff')
    expect(binary).toMatchObject({ text: null, isHash: false })
  })
})
