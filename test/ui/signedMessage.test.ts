/**
 * A raw message (personal_sign, eth_sign) is shown as what is signed, outside any fold: the text was reachable only by
 * opening "Message: PERSONAL_SIGN" at the bottom of the window.
 */
import { describe, expect, it } from 'vitest'
import { confirmView } from '../../src/extension/ui/lib/confirmView.ts'
import { messageRequest } from './support/scans.ts'

const decoded = (primaryType: string, type: string, value: string) => ({
  decodedMessage: { primaryType, fields: [{ name: 'message', type, value }] },
})

describe('the message a raw signature signs', () => {
  it('is its text for personal_sign', () => {
    const view = confirmView(messageRequest('personal_sign', decoded('PERSONAL_SIGN', 'string', 'Log in\nNonce: 8f3a')))
    expect(view.signedMessage).toEqual({ text: 'Log in\nNonce: 8f3a', bytes: false })
  })

  it('is its bytes, marked as such, when they are no readable text (eth_sign)', () => {
    const view = confirmView(messageRequest('eth_sign', decoded('SIGN_MESSAGE', 'bytes', '0x50e280ae')))
    expect(view.signedMessage).toEqual({ text: '0x50e280ae', bytes: true })
  })

  it('is absent for typed data, whose fields the window lists', () => {
    const view = confirmView(messageRequest('eth_signTypedData_v4', decoded('PermitSingle', 'address', '0x01')))
    expect(view.signedMessage).toBeNull()
  })
})
