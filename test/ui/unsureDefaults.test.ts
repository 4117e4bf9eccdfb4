/**
 * A NONE whose scan reported a problem (a transaction that reverts, a message a scan API could not read) is not
 * "nothing found": the decision buttons take WARN's defaults, so Enter does not continue it (focus on Reject).
 */
import { describe, expect, it } from 'vitest'
import { confirmView, decisionAction } from '../../src/extension/ui/lib/confirmView.ts'
import { ethChange, messageRequest, transactionRequest } from './support/scans.ts'

const REVERT = {
  kind: 'TRANSACTION_REVERTED',
  humanReadableError: 'The transaction would fail: the sender holds 10 USDC but 1,000 are needed.',
  revertReason: 'ERC20: transfer amount exceeds balance',
} as const

describe('the decision defaults of a NONE with problems', () => {
  it('treats a reverting transaction as WARN', () => {
    expect(decisionAction(confirmView(transactionRequest([], { error: REVERT })))).toBe('WARN')
  })

  it('treats an answer that could not read the message as WARN', () => {
    const error = { kind: 'INVALID_MESSAGE', humanReadableError: 'message.domain: empty' } as const
    expect(decisionAction(confirmView(messageRequest('eth_signTypedData_v4', { error })))).toBe('WARN')
  })

  it('keeps NONE for a scan without problems, and every other action as it is', () => {
    expect(decisionAction(confirmView(transactionRequest([ethChange(-1n)])))).toBe('NONE')
    const blocked = transactionRequest([], { action: 'BLOCK', error: REVERT })
    expect(decisionAction(confirmView(blocked))).toBe('BLOCK')
  })
})
