/**
 * How many transactions an account has sent, as the node counts them: those mined, and those mined plus the ones it
 * holds waiting. A transaction whose nonce the site fixed is judged against the two (risk/nonces.ts).
 */
import { type Address, hexToBigInt, isHex } from 'viem'
import type { EngineError } from '../api/index.ts'
import { type NodeAccess, RpcFailure, rpcClientFor } from './rpc.ts'

/** `mined`: the account's next nonce at the latest block; `pending` (never below it): its next after those waiting. */
export type AccountNonces = { mined: bigint; pending: bigint }

/** The account's nonces, read in one round trip, or the node's failure as an RPC_ERROR. */
export async function readAccountNonces(
  account: Address,
  options: NodeAccess,
): Promise<({ ok: true } & AccountNonces) | { ok: false; error: EngineError }> {
  const client = rpcClientFor(options)
  const count = async (block: 'latest' | 'pending') => {
    const answer = await client.request('eth_getTransactionCount', [account, block])
    if (typeof answer !== 'string' || !isHex(answer, { strict: true }) || answer.length < 3) {
      const shown = String(JSON.stringify(answer)).slice(0, 40)
      throw new RpcFailure('BAD_ANSWER', `The node answered eth_getTransactionCount with ${shown}, not a count.`, null)
    }
    return hexToBigInt(answer)
  }
  try {
    const [mined, pending] = await Promise.all([count('latest'), count('pending')])
    // A node without a pool of waiting transactions may count fewer pending than mined: none are waiting then.
    if (pending < mined) return { ok: true, mined, pending: mined }
    return { ok: true, mined, pending }
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error
    return { ok: false, error: { kind: 'RPC_ERROR', reason: error.kind, message: error.message } }
  }
}
