/** A pending personal_sign request as the worker stores it, for tests of the store and the queue. */
import type { PendingRequest } from '../../../../src/extension/shared/pending.ts'

export const pendingRecord = (id: string): PendingRequest => ({
  id,
  origin: 'https://a.example',
  tabId: 1,
  frameId: 0,
  chainId: 1,
  account: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  method: 'personal_sign',
  params: ['0x6869', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
  createdAt: 0,
  scan: { status: 'PENDING' },
})
