/**
 * The transaction fields a wallet takes as quantities. Shared by the worker, which writes each one way, and the hook,
 * which checks that none a request leaves out was planted where a wallet would read it.
 */
export const TX_QUANTITIES = [
  'value',
  'gas',
  'gasLimit',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'nonce',
  'type',
] as const

/** Transaction fields Preflight refuses (it cannot show their effect yet), with why. */
export const TX_UNSUPPORTED: Readonly<Record<string, string>> = {
  authorizationList:
    'holds EIP-7702 authorizations, which hand control of the account to code; Preflight cannot check them yet',
  maxFeePerBlobGas: 'is a blob transaction, which Preflight cannot check yet',
  blobVersionedHashes: 'is a blob transaction, which Preflight cannot check yet',
  blobs: 'is a blob transaction, which Preflight cannot check yet',
}
