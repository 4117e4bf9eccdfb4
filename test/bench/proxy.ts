/**
 * A JSON-RPC proxy for benchmarks: delays every HTTP request by a fixed latency before forwarding it to the node, and
 * records each request's time span and how many JSON-RPC calls it carried (a batch counts each member).
 */
import { createServer } from 'node:http'
import { listenOnFreePort, readBody } from '../support/net.ts'

export type Span = { start: number; end: number; calls: number }

export type LatencyProxy = {
  url: string
  /** Spans recorded since the last `take()`, which also clears them. */
  take: () => Span[]
  close: () => Promise<void>
}

/**
 * Starts the proxy on a free port of 127.0.0.1, forwarding to `target` after `delayMs` per HTTP request; `rewrite`
 * may adapt a request body for the node (counted as sent).
 */
export async function startLatencyProxy(
  target: string,
  delayMs: number,
  rewrite: (body: string) => string = (body) => body,
): Promise<LatencyProxy> {
  let spans: Span[] = []
  const server = createServer((request, response) => {
    const start = performance.now()
    readBody(request)
      .then(async (body) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: rewrite(body),
        })
        const text = await upstream.text()
        response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text)
        spans.push({ start, end: performance.now(), calls: callCount(body) })
      })
      .catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error))
      })
  })
  const port = await listenOnFreePort(server)
  return {
    url: `http://127.0.0.1:${port}`,
    take: () => {
      const taken = spans
      spans = []
      return taken
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function callCount(body: string): number {
  try {
    const parsed: unknown = JSON.parse(body)
    return Array.isArray(parsed) ? parsed.length : 1
  } catch {
    return 1
  }
}

/**
 * Sequential round trips seen on the wire: the longest chain of requests in which each starts only after the one
 * before it has ended (the critical path). Overlapping requests share a step.
 */
export function sequentialDepth(spans: readonly Span[]): number {
  const byEnd = [...spans].sort((a, b) => a.end - b.end)
  const depth: number[] = []
  let longest = 0
  for (const [i, span] of byEnd.entries()) {
    let before = 0
    for (let j = 0; j < i; j += 1) {
      const earlier = byEnd[j] as Span
      if (earlier.end <= span.start) before = Math.max(before, depth[j] ?? 0)
    }
    depth[i] = before + 1
    longest = Math.max(longest, before + 1)
  }
  return longest
}
