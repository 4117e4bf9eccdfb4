/** The HTTP scan API (seed §4, §5, §9) over the engine: Node's http module, no framework. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type EngineError,
  newRequestId,
  type ScanMessageResponse,
  type ScanOptions,
  type ScanOutcome,
  type ScanTransactionsRequest,
  type ScanTransactionsResponse,
  scanMessage,
  scanTransactions,
} from '../engine/index.ts'
import { apiKeyChecker } from './auth.ts'
import { MAX_BODY_BYTES, readJsonBody } from './body.ts'
import { parseDomainsRequest, scanDomains } from './domains.ts'
import { renderMessage, renderTransactions } from './render.ts'
import { ENDPOINTS, matchRoute, type Route } from './routes.ts'
import { type ApiVersion, chooseVersion } from './versions.ts'

/** The two engine entry points the server calls; they validate the request themselves. */
type ScanEngine = {
  scanTransactions: (request: unknown, options: ScanOptions) => Promise<ScanOutcome<ScanTransactionsResponse>>
  scanMessage: (request: unknown, options: ScanOptions) => Promise<ScanOutcome<ScanMessageResponse>>
}

export type ServerConfig = {
  /** "chain/network" (lowercase) → JSON-RPC URL of a node that supports eth_simulateV1. */
  networks: ReadonlyMap<string, string>
  /** Accepted `X-Api-Key` values; at least one. */
  apiKeys: readonly string[]
  /** The engine; the real one unless a test replaces it. */
  engine?: ScanEngine
  /** Longest a scan may take before the client gets 504. */
  scanTimeoutMs?: number
  maxBodyBytes?: number
  /** Where unexpected errors are reported (never request bodies or keys). */
  log?: (line: string) => void
}

/**
 * The `language` query parameter is accepted with any value; the engine ships English only, so every answer is in
 * English and says so in `Content-Language` (the reference also falls back to English for languages it lacks).
 */
const CONTENT_LANGUAGE = 'en'

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, X-Api-Key, X-Api-Version',
  'Access-Control-Expose-Headers': 'X-Request-Id, Content-Language',
  'Access-Control-Max-Age': '600',
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> }

class Refusal {
  constructor(readonly reply: Reply) {}
}

/** Creates the server (not yet listening). Every request is answered; none can bring the process down. */
function createScanServer(config: ServerConfig): Server {
  if (config.apiKeys.length === 0) throw new Error('the scan API needs at least one API key')
  const isValidKey = apiKeyChecker(config.apiKeys)
  const engine = config.engine ?? { scanTransactions, scanMessage }
  const log = config.log ?? ((line: string) => process.stderr.write(`${line}\n`))

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // Random, never sequential: ids appear in logs and errors and must not be guessable.
    const requestId = newRequestId()
    let reply: Reply
    try {
      reply = await answer(request, requestId)
    } catch (error) {
      if (error instanceof Refusal) reply = error.reply
      else {
        log(
          `scan API: request ${requestId} failed unexpectedly: ${error instanceof Error ? error.stack : String(error)}`,
        )
        reply = { status: 500, body: { error: 'Internal Server Error', requestId } }
      }
    }
    send(response, requestId, reply)
  }

  const answer = async (request: IncomingMessage, requestId: string): Promise<Reply> => {
    const refuse = (status: number, error: string, headers?: Record<string, string>): never => {
      throw new Refusal({ status, body: { error, requestId }, headers })
    }
    if (request.method === 'OPTIONS') return { status: 204, body: null }
    const [pathname = '/'] = (request.url ?? '/').split('?', 1)
    const route = matchRoute(pathname)
    if (!route)
      return refuse(404, `no endpoint at ${pathname.slice(0, 200)}; the endpoints are: ${ENDPOINTS.join(', ')}`)
    if (request.method !== 'POST')
      return refuse(405, `${request.method} is not allowed here; use POST`, { Allow: 'POST, OPTIONS' })

    const key = request.headers['x-api-key']
    if (key === undefined) return refuse(401, 'Unauthorized: the X-Api-Key header is missing')
    if (!isValidKey(Array.isArray(key) ? key.join(',') : key))
      return refuse(401, 'Unauthorized: invalid X-Api-Key header value')

    const choice = chooseVersion(headerText(request.headers['x-api-version']))
    if (!choice.ok) return refuse(400, choice.error)
    const { version } = choice

    const rpcUrl = route.kind === 'domains' ? '' : (rpcUrlFor(route) ?? refuse(404, unknownNetwork(route)))
    const body = await readJsonBody(request, { maxBytes: config.maxBodyBytes ?? MAX_BODY_BYTES })
    if (!body.ok) return refuse(body.status, body.error)

    if (route.kind === 'domains') {
      const parsed = parseDomainsRequest(body.value, version)
      if (!parsed.ok) return refuse(400, parsed.error)
      return { status: 200, body: scanDomains(parsed.domains, version) }
    }
    if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
      return refuse(400, 'body: expected a JSON object')
    }
    const options: ScanOptions = { rpcUrl, language: CONTENT_LANGUAGE }
    const refuseEngineError = (error: EngineError): never => {
      // A bug's detail goes to the log only: it helps the operator and would only confuse (or inform) the client.
      if (error.kind === 'INTERNAL') log(`scan API: request ${requestId} failed: ${error.message}`)
      return refuse(...failure(error))
    }
    if (route.kind === 'message') {
      const outcome = await withDeadline(engine.scanMessage(body.value, options), requestId)
      if (!outcome.ok) return refuseEngineError(outcome.error)
      return { status: 200, body: renderMessage(outcome.response, version, requestId) }
    }
    const txRequest = transactionRequestFor(body.value as Record<string, unknown>, version)
    if (!txRequest.ok) return refuse(400, txRequest.error)
    const outcome = await withDeadline(engine.scanTransactions(txRequest.request, options), requestId)
    if (!outcome.ok) {
      const error =
        outcome.error.kind === 'INVALID_REQUEST'
          ? { ...outcome.error, field: txRequest.fieldName(outcome.error.field) }
          : outcome.error
      return refuseEngineError(error)
    }
    return { status: 200, body: renderTransactions(outcome.response, version, requestId) }
  }

  const rpcUrlFor = (route: Extract<Route, { chain: string }>) => config.networks.get(`${route.chain}/${route.network}`)

  const unknownNetwork = (route: Extract<Route, { chain: string }>) =>
    `unknown chain/network "${route.chain}/${route.network}"; this server is configured for: ${[...config.networks.keys()].join(', ') || 'none'}`

  const scanTimeoutMs = config.scanTimeoutMs ?? 20_000
  const withDeadline = <T>(scan: Promise<T>, requestId: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Refusal({
              status: 504,
              body: {
                error: `the scan did not finish within ${scanTimeoutMs / 1000} seconds; the node may be slow or unreachable`,
                requestId,
              },
            }),
          ),
        scanTimeoutMs,
      )
      scan.then(resolve, reject).finally(() => clearTimeout(timer))
    })

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      // Only a failure while writing the response gets here; the socket is beyond saving, the server is not.
      log(`scan API: could not answer a request: ${error instanceof Error ? error.message : String(error)}`)
      response.destroy()
    })
  })
  server.headersTimeout = 10_000
  server.requestTimeout = 60_000
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    else socket.destroy()
  })
  return server
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value
}

/** Engine errors as HTTP: bad input is the client's (400); a node that fails is a bad gateway (502); a bug is ours. */
function failure(error: EngineError): [number, string] {
  switch (error.kind) {
    case 'INVALID_REQUEST':
      return [400, `${error.field}: ${error.message}`]
    case 'RPC_ERROR':
      return [502, `the node behind this chain/network failed: ${error.message}`]
    case 'UNSUPPORTED_CHAIN':
      return [502, error.message]
    case 'INTERNAL':
      return [500, 'Internal Server Error']
  }
}

type TxRequestChoice =
  | {
      ok: true
      request: ScanTransactionsRequest
      /** The engine's name for a field, as the client named it. */
      fieldName: (field: string) => string
    }
  | { ok: false; error: string }

const sameName = (field: string) => field

/** Version 2022-06-01 scanned one `txObject`; later versions take the `txObjects` list (seed §9). */
function transactionRequestFor(body: Record<string, unknown>, version: ApiVersion): TxRequestChoice {
  if (version !== '2022-06-01') return { ok: true, request: body as ScanTransactionsRequest, fieldName: sameName }
  const { txObject, ...rest } = body
  if (txObject !== undefined) {
    if (rest.txObjects !== undefined)
      return { ok: false, error: 'txObject: send either txObject or txObjects, not both' }
    return {
      ok: true,
      request: { ...rest, txObjects: [txObject] } as ScanTransactionsRequest,
      fieldName: (field) => field.replace(/^txObjects(\[0\])?/, 'txObject'),
    }
  }
  if (Array.isArray(rest.txObjects) && rest.txObjects.length > 1) {
    return {
      ok: false,
      error: 'txObjects: version 2022-06-01 scans one transaction; send X-Api-Version 2023-03-08 or later for several',
    }
  }
  return { ok: true, request: body as ScanTransactionsRequest, fieldName: sameName }
}

function send(response: ServerResponse, requestId: string, reply: Reply): void {
  if (response.headersSent) return
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...reply.headers,
  }
  if (reply.status === 204) {
    response.writeHead(204, headers).end()
    return
  }
  const text = JSON.stringify(reply.body)
  response
    .writeHead(reply.status, {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Language': CONTENT_LANGUAGE,
      'Content-Length': String(Buffer.byteLength(text)),
    })
    .end(text)
}

export type RunningServer = { url: string; port: number; close: () => Promise<void> }

/** Creates the server and listens on host:port (port 0 picks a free one). */
export async function startScanServer(config: ServerConfig & { port: number; host?: string }): Promise<RunningServer> {
  const server = createScanServer(config)
  const host = config.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
