/**
 * An account's code as the node has it now, in full: what an EIP-7702 delegation leaves (0xef0100 ‖ delegate) tells a
 * delegated account from one without code, which the simulation's reader deliberately does not (it reads both as code
 * size 0, since a delegated account's key still decides).
 */
import { type Address, type Hex, isHex } from 'viem'
import type { EngineError } from '../api/index.ts'
import { type NodeAccess, RpcFailure, type RpcStats, rpcClientFor } from './rpc.ts'

export type AccountCode = { ok: true; code: Hex; stats: RpcStats } | { ok: false; error: EngineError }

/** The code of `account` at the latest block (one round trip), or the node's failure as an RPC_ERROR. */
export async function readAccountCode(account: Address, options: NodeAccess): Promise<AccountCode> {
  const client = rpcClientFor(options)
  try {
    const code = await client.request('eth_getCode', [account, 'latest'])
    if (typeof code !== 'string' || !isHex(code, { strict: true })) {
      const shown = String(JSON.stringify(code)).slice(0, 40)
      throw new RpcFailure('BAD_ANSWER', `The node answered eth_getCode with ${shown}, not code.`, null)
    }
    return { ok: true, code, stats: client.stats }
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error
    return { ok: false, error: { kind: 'RPC_ERROR', reason: error.kind, message: error.message } }
  }
}
