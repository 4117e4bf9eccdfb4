/**
 * How the test wallet's content scripts answer one JSON-RPC call: its accounts themselves, everything else from the
 * wallet's node (which signs with the devnet account and logs what it received).
 */

export type Call = { method: string; params?: unknown }
export type Answer = { result: unknown } | { error: unknown }

let nextId = 1

/** Answers `call` as the wallet of `account` on the node at `rpcUrl`; a failed call is answered with -32603. */
export async function answerCall(rpcUrl: string, account: string, call: Call): Promise<Answer> {
  if (call.method === 'eth_accounts' || call.method === 'eth_requestAccounts') return { result: [account] }
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: call.method, params: call.params ?? [] })
    const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const reply = (await response.json()) as { result?: unknown; error?: unknown }
    return reply.error ? { error: reply.error } : { result: reply.result }
  } catch (error) {
    return { error: { code: -32603, message: String(error) } }
  }
}
