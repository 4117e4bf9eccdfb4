/**
 * A JSON-RPC endpoint in front of a real node that holds every answer for a while, or forever (a slow or stuck node),
 * or answers some requests itself.
 */
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { listenOnFreePort, readBody } from './net.ts'

/** `received` counts the requests that reached it, so a test can wait for a call to be in flight instead of a guess. */
export type SlowNode = { url: string; received: () => number; close: () => Promise<void> }

/**
 * Forwards each request to `upstream` after `delayMs` (never, when `delayMs` is Infinity). `answerInstead` sees each
 * body first and may return the JSON text to answer with, in place of the node (a node that refuses something). Open
 * sockets are destroyed on close, so a stuck request never keeps the test alive.
 */
export async function startSlowNode(
  upstream: string,
  delayMs: number,
  answerInstead: (body: string) => string | undefined = () => undefined,
): Promise<SlowNode> {
  const sockets = new Set<Socket>()
  let received = 0
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request)
    received += 1
    const instead = answerInstead(body)
    if (instead !== undefined) return response.writeHead(200, { 'content-type': 'application/json' }).end(instead)
    if (delayMs === Number.POSITIVE_INFINITY) return
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    try {
      const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    } catch {
      response.destroy()
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const port = await listenOnFreePort(server)
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
