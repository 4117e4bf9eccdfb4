/**
 * The load generator of `bench:server`, run as a process of its own. In the bench's own process, its collections
 * paused every request in flight (scavenges of 5–11 ms and a 19 ms mark-compact in one second of plain scans at
 * c = 32) and showed as latency: the raw node calls' p99/p50 at c = 32 fell from 3.7–7.1× to about 2× once the load
 * came from here. It sends with `node:http` over kept-alive sockets (less garbage per request than `fetch`) and owns
 * nothing else.
 */

import { Agent, request } from 'node:http'
import { benchRole, forkBenchProcess } from './benchProcess.ts'

/** One run: `total` POSTs of `body` to `url`, `concurrency` in flight; every answer must be 200. */
export type LoadOrder = {
  url: string
  headers: Record<string, string>
  body: string
  total: number
  concurrency: number
}

/** Latencies in ms in the order the answers arrived, and the wall time of the run. */
export type LoadResult = { latencies: number[]; seconds: number }

type Reply = { ok: true; result: LoadResult } | { ok: false; message: string }

/** Sends one order's requests; rejects on the first answer that is not 200, naming it. */
async function runOrder(order: LoadOrder, agent: Agent): Promise<LoadResult> {
  const body = Buffer.from(order.body)
  const headers = { ...order.headers, 'content-length': String(body.length) }
  const target = new URL(order.url)
  const latencies = new Float64Array(order.total)
  let started = 0
  let finished = 0
  let failed = false
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const sent = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent },
        (response) => {
          let text = ''
          if (response.statusCode !== 200) response.on('data', (chunk: Buffer) => (text += chunk))
          else response.resume()
          response.on('error', reject)
          response.on('end', () => {
            if (response.statusCode !== 200) reject(new Error(`${order.url}: ${response.statusCode} ${text}`))
            else resolve()
          })
        },
      )
      sent.on('error', reject)
      sent.end(body)
    }).catch((error: unknown) => {
      // The other senders stop at their next request instead of running the order out against a broken server.
      failed = true
      throw error
    })
  const begin = performance.now()
  await Promise.all(
    Array.from({ length: order.concurrency }, async () => {
      while (started < order.total && !failed) {
        started += 1
        const t0 = performance.now()
        await once()
        latencies[finished] = performance.now() - t0
        finished += 1
      }
    }),
  )
  return { latencies: Array.from(latencies), seconds: (performance.now() - begin) / 1000 }
}

/** Starts the load generator process; `send` runs one order in it (one at a time), `close` ends it. */
export function startLoadClient(): {
  send: (order: LoadOrder) => Promise<LoadResult>
  close: () => void
  pid: number
} {
  const child = forkBenchProcess(new URL(import.meta.url), 'load-client')
  let exited: string | null = null
  let waiting: ((reply: Reply) => void) | null = null
  child.on('message', (reply: Reply) => waiting?.(reply))
  const end = (why: string) => {
    exited = why
    waiting?.({ ok: false, message: why })
  }
  child.once('exit', (code) => end(`the load generator exited (${code})`))
  child.once('error', (error) => end(`the load generator failed: ${error.message}`))
  let queue: Promise<unknown> = Promise.resolve()
  const send = (order: LoadOrder) => {
    const next = queue.then(
      () =>
        new Promise<LoadResult>((resolve, reject) => {
          if (exited) return reject(new Error(exited))
          waiting = (reply) => {
            waiting = null
            if (reply.ok) resolve(reply.result)
            else reject(new Error(reply.message))
          }
          child.send(order)
        }),
    )
    queue = next.catch(() => {})
    return next
  }
  return { send, close: () => child.kill(), pid: child.pid as number }
}

if (benchRole === 'load-client' && process.send) {
  process.once('disconnect', () => process.exit(0))
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  process.on('message', (order: LoadOrder) => {
    runOrder(order, agent).then(
      (result) => process.send?.({ ok: true, result } satisfies Reply),
      (error: Error) => process.send?.({ ok: false, message: error.message } satisfies Reply),
    )
  })
}
