/**
 * Waits for a transaction's receipt by asking for the receipt itself until it is there.
 *
 * viem's waitForTransactionReceipt re-checks a receipt only when a new block arrives. anvil's automine can report the
 * new block number before the block's receipts are readable, and nothing mines the block after it on a devnet, so a
 * wait that checked in between never ends (seen in about one full test run in three).
 */
import { type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'

/** What the wait needs of a client: its receipt lookup (viem's public clients have it). */
export type ReceiptSource = { getTransactionReceipt: (args: { hash: Hex }) => Promise<TransactionReceipt> }

export class ReceiptTimeoutError extends Error {
  readonly kind = 'RECEIPT_TIMEOUT'
  constructor(hash: Hex, timeoutMs: number) {
    super(`transaction ${hash} has no receipt after ${timeoutMs / 1000} s: is the node mining?`)
    this.name = 'ReceiptTimeoutError'
  }
}

/** Resolves the receipt of `hash` once the node has one; rejects after `timeoutMs` without one. */
export async function waitForReceipt(
  client: ReceiptSource,
  hash: Hex,
  { intervalMs = 5, timeoutMs = 30_000 }: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<TransactionReceipt> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error
    }
    if (performance.now() >= deadline) throw new ReceiptTimeoutError(hash, timeoutMs)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
