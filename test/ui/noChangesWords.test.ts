/**
 * "No asset changes were found." must not stand for a request whose changes the scan could not work out, nor hide
 * that a failing transaction still costs its fee.
 */
import { describe, expect, it } from 'vitest'
import { confirmView, noChangesText } from '../../src/extension/ui/lib/confirmView.ts'
import { messageRequest, transactionRequest } from './support/scans.ts'

describe('what the changes section says when nothing is listed', () => {
  it('says a reverting transaction moves nothing and still costs the fee', () => {
    const error = { kind: 'TRANSACTION_REVERTED', humanReadableError: 'reverts', revertReason: 'no' } as const
    expect(noChangesText(confirmView(transactionRequest([], { error })))).toBe(
      'Nothing would change: the transaction fails (see Simulation above). Sent anyway, it would still cost the fee.',
    )
  })

  it('says the changes of a message the scan could not read are not known', () => {
    const error = { kind: 'INVALID_MESSAGE', humanReadableError: 'message.details: expected PermitDetails' } as const
    expect(noChangesText(confirmView(messageRequest('eth_signTypedData_v4', { error })))).toBe(
      'Not known: the scan reported a problem (see Simulation above), so it could not work out what this request moves.',
    )
  })

  it('keeps the plain words for a scan without problems', () => {
    expect(noChangesText(confirmView(transactionRequest([])))).toBeUndefined()
  })
})
