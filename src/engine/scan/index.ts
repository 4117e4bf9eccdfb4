/**
 * # scan — the two entry points
 *
 * scanTransactions and scanMessage: validate the request, simulate, explain. Neither throws: bad input comes back as
 * an error value naming the field, a node failure as RPC_ERROR, a bug in Preflight as INTERNAL.
 *
 * - `scanTransactions.ts`: transaction scans (seed §2.1, §2.2, §2.4): one simulation, its state changes, warnings and
 *   per-transaction results; the aggregated error when the multisig preset cannot apply.
 * - `scanMessage.ts`: message scans (seed §2.3, §2.5): routes each kind of message to its analysis in `messages/` and
 *   simulates what it needs.
 * - `transactionsRequest.ts`, `messageRequest.ts`: the requests validated into the simulation's input.
 * - `perTransaction.ts`: one result per transaction: error, gas, protocol, decoded calldata and logs.
 * - `requestId.ts`, `internalError.ts`: unguessable request ids; a bug turned into an INTERNAL error value.
 */
export { newRequestId } from './requestId.ts'
export { scanMessage, scanMessageWithStats } from './scanMessage.ts'
export { scanTransactions, scanTransactionsWithStats } from './scanTransactions.ts'
export { MAX_STATE_OVERRIDES, MAX_TX_OBJECTS } from './transactionsRequest.ts'
