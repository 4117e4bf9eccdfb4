/**
 * A JSON-RPC node for `bench:server` that asks the real node each distinct call (method and params) once and answers
 * it from memory afterwards: the answers are anvil's, for almost none of anvil's CPU. On a machine too small to keep
 * the server, anvil and the load generator apart, it shows how the server itself scales with cores. The bench's calls
 * repeat exactly and its chain does not move, so a remembered answer is the answer.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { benchRole, forkBenchProcess } from './benchProcess.ts'

type Call = { id: unknown; method: string; params?: unknown }

const FRESH_RANDAO = /"prevRandao":"0x[0-9a-fA-F]*"/g
type Answer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown }

/** Starts the replaying node in a process of its own in front of `target`; `close` ends it. */
export async function startReplayNode(target: string): Promise<{ url: string; close: () => void; pid: number }> {
  const child = forkBenchProcess(new URL(import.meta.url), 'replay-node')
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port))
    child.once('exit', (code) => reject(new Error(`the replaying node exited (${code})`)))
    child.send({ target })
  })
  return { url: `http://127.0.0.1:${port}`, close: () => child.kill(), pid: child.pid as number }
}

/** Serves calls on a free port of 127.0.0.1, each distinct one asked of `target` once; a node's error is not kept. */
function serveReplays(target: string): Promise<number> {
  const remembered = new Map<string, Promise<Answer>>()
  const ask = (call: Call): Promise<Answer> => {
    // Each simulated block carries a prevRandao drawn afresh (nextBlock.ts): it is not part of what makes two calls the
    // same call here, or no call would ever be replayed.
    const key = `${call.method} ${JSON.stringify(call.params ?? []).replace(FRESH_RANDAO, '')}`
    let answer = remembered.get(key)
    if (!answer) {
      answer = fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params ?? [] }),
      }).then((response) => response.json() as Promise<Answer>)
      remembered.set(key, answer)
      answer.then(
        (settled) => settled.error !== undefined && remembered.delete(key),
        () => remembered.delete(key),
      )
    }
    return answer
  }
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', async () => {
      try {
        const parsed: Call | Call[] = JSON.parse(body)
        const calls = Array.isArray(parsed) ? parsed : [parsed]
        const answers = await Promise.all(calls.map(async (call) => ({ ...(await ask(call)), id: call.id })))
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]))
      } catch {
        // The server under test sees a node that failed, as it would a real one, and the bench stops on it.
        response.writeHead(502).end()
      }
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

if (benchRole === 'replay-node' && process.send) {
  process.once('disconnect', () => process.exit(0))
  process.once('message', async ({ target }: { target: string }) => {
    process.send?.({ port: await serveReplays(target) })
  })
}
