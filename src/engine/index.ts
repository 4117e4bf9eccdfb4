/** The scan engine's public API: platform-neutral (service worker, Node, tests). */
export { addMaliciousAddresses } from './blocklist.ts'
export type { RpcStats } from './rpc.ts'
export { scanMessage, scanMessageWithStats } from './scanMessage.ts'
export { scanTransactions, scanTransactionsWithStats } from './scanTransactions.ts'
export * from './types.ts'
