/** Small socket helpers shared by tests: listening on a port the OS picks, reading a request, a closed endpoint. */
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { type AddressInfo, createServer, type Server } from 'node:net'

/** Listens on 127.0.0.1 on a port the OS picks and returns it: no window in which another process can take it. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

/** The whole body of an HTTP request as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}

export type UnreachableEndpoint = { url: string; close(): Promise<void> }

/**
 * An http:// URL on which every connection is dropped at once, like a node that is down. Unlike a port that was
 * merely free a moment ago, it stays ours while the test runs, so no other test can start answering on it.
 */
export async function startUnreachableEndpoint(): Promise<UnreachableEndpoint> {
  const server = createServer((socket) => socket.destroy())
  const port = await listenOnFreePort(server)
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type RpcStandIn = { url: string; server: HttpServer; close(): Promise<void> }

/**
 * A JSON-RPC endpoint for tests that stands in front of a node: answers CORS preflights the way a node does (the
 * extension's worker and pages fetch cross-origin) and hands every POST body to `handle`.
 */
export async function serveJsonRpc(
  handle: (body: string, res: ServerResponse) => void | Promise<void>,
): Promise<RpcStandIn> {
  const server = createHttpServer(async (req, res) => {
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-allow-headers', 'content-type')
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end()
      return
    }
    await handle(await readBody(req), res)
  })
  const port = await listenOnFreePort(server)
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
