/**
 * The test wallet's node: a JSON-RPC proxy in front of the devnet that records every request the wallet sends, so a
 * test knows what the wallet really received, outside the page and outside the extension. The few signing methods
 * anvil lacks are carried out the way a wallet would (wallet_sendCalls as one transaction per call, older typed-data
 * methods through eth_signTypedData_v4, legacy v1 data with a placeholder signature).
 */
import { serveJsonRpc } from '../../support/net.ts'

export type Received = { method: string; params: unknown }

export type WalletNode = {
  url: string
  /** Every request received so far, in order. */
  received(): Received[]
  /** The requests that make the wallet sign or send something, since `from` (an index into received()). */
  signing(from?: number): Received[]
  close(): Promise<void>
}

const SIGNING = new Set([
  'eth_sendTransaction',
  'wallet_sendTransaction',
  'eth_signTransaction',
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'wallet_sendCalls',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
])

type Rpc = { id?: unknown; method: string; params?: unknown[] }

/** Starts the proxy to `upstream` on a free port. */
export async function startWalletNode(upstream: string): Promise<WalletNode> {
  const log: Received[] = []
  let nextId = 1
  const call = async (method: string, params: unknown[]) => {
    const reply = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    })
    return (await reply.json()) as { result?: unknown; error?: unknown }
  }
  const isAddress = (value: unknown) => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)

  const answer = async (rpc: Rpc): Promise<{ result?: unknown; error?: unknown }> => {
    const params = rpc.params ?? []
    if (rpc.method === 'wallet_sendCalls') {
      const batch = params[0] as { from: string; calls: { to?: string; data?: string; value?: string }[] }
      for (const item of batch.calls) {
        const sent = await call('eth_sendTransaction', [{ from: batch.from, ...item }])
        if (sent.error) return sent
      }
      return { result: { id: `0x${(nextId++).toString(16)}` } }
    }
    if (['eth_signTypedData', 'eth_signTypedData_v1', 'eth_signTypedData_v3'].includes(rpc.method)) {
      const address = params.find(isAddress)
      const data = params.find((param) => !isAddress(param))
      const parsed = typeof data === 'string' ? JSON.parse(data) : data
      if (Array.isArray(parsed)) return { result: `0x${'11'.repeat(65)}` }
      return call('eth_signTypedData_v4', [address, parsed])
    }
    return call(rpc.method, params)
  }

  const endpoint = await serveJsonRpc(async (body, res) => {
    const rpc = JSON.parse(body) as Rpc
    log.push({ method: rpc.method, params: rpc.params })
    try {
      const reply = await answer(rpc)
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, ...reply }))
    } catch (error) {
      res.writeHead(502).end(String(error))
    }
  })
  return {
    url: endpoint.url,
    received: () => [...log],
    signing: (from = 0) => log.slice(from).filter((entry) => SIGNING.has(entry.method)),
    close: endpoint.close,
  }
}
