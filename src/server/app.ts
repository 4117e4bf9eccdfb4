/**
 * The scan API (seed §4, §5, §9) on Fastify: one route per endpoint and API version, its schemas declared once in
 * schemas/ and used to validate requests, serialise answers and publish the OpenAPI document. Around the scans: keys,
 * rate limits, structured logs, Prometheus metrics, health and readiness, and a drain that lets scans finish.
 */
import { STATUS_CODES } from 'node:http'
import { Transform } from 'node:stream'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify'
import { chainIdOf, type EngineError, newRequestId } from '../engine/index.ts'
import { clientGroup } from './clientGroup.ts'
import { docsAsset, docsPage } from './docsPage.ts'
import { parseDomainsRequest, scanDomains } from './domains.ts'
import { idTable } from './idTable.ts'
import { parseJsonBody } from './jsonBody.ts'
import { acceptedKeyHash, type KeySet, keyId } from './keys.ts'
import { blockedStdout } from './logDestination.ts'
import { createMetrics } from './metrics.ts'
import { openApiDocument } from './openapi.ts'
import type { CounterStore } from './rateLimit.ts'
import { readinessChecker } from './readiness.ts'
import { redactUrl } from './redactUrl.ts'
import type { ScanJob, ScanJobResult } from './scanJob.ts'
import type { ScanRunner } from './scanRunner.ts'
import { describeValidationError } from './schemaErrors.ts'
import {
  domainsRequestSchema,
  messageRequestSchema,
  scanParams,
  scanQuery,
  transactionsRequestSchema,
} from './schemas/requests.ts'
import {
  domainsResponseSchema,
  errorBody,
  messageResponseSchema,
  transactionsResponseSchema,
} from './schemas/responses.ts'
import { API_VERSIONS, type ApiVersion, chooseVersion, DEFAULT_API_VERSION } from './versions.ts'

export const MAX_BODY_BYTES = 1024 * 1024
/** The status logged for a request whose client closed the connection before its answer (nginx's). */
const CLIENT_CLOSED = 499
/** How long a client may take to send a request's headers, unless told otherwise. */
export const HEADERS_TIMEOUT_MS = 10_000
/** The longest path segment (a chain or network name) the router reads. */
const MAX_PARAM_LENGTH = 100

export type AppConfig = {
  /** "chain/network" (lowercase) → JSON-RPC URL of a node that supports eth_simulateV1. */
  networks: ReadonlyMap<string, string>
  keys: KeySet
  runner: ScanRunner
  /** Rate-limit counters: this process's memory, or Redis shared by several processes. */
  store: CounterStore
  /** Scan requests per key per minute. */
  rateLimit: number
  /** Failed keys per client address per minute before that address is refused (brute force). */
  authFailureLimit: number
  /** Longest a scan may take before the client gets 504 and its node calls are cancelled. */
  scanTimeoutMs: number
  /** Longest a client may take to send its body before it gets 408. */
  bodyTimeoutMs: number
  maxBodyBytes: number
  /** Longest a client may take to send a request's headers (default HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number
  /**
   * The proxies trusted to say who the client is (`X-Forwarded-For`), as addresses and CIDR ranges separated by commas.
   * Unset, the client is the connection's peer, and behind a load balancer every client is the balancer.
   */
  trustProxy?: string
  /** Where the JSON log lines go (one per request, plus errors); stdout by default. */
  logStream?: NodeJS.WritableStream
  /** Transaction scans also run the transactions as a block runs them (the engine's probeEnvironment). */
  probeEnvironment?: boolean
  /** The most node calls of a thread's scans that travel in one JSON-RPC batch (ScanJob.nodeBatch). */
  nodeBatch?: number
}

/** Rate-limit windows are one minute: limits are "per minute". */
const WINDOW_MS = 60_000

/**
 * The `language` query parameter is accepted with any value; the engine ships English only, so every answer is in
 * English and says so in `Content-Language` (the reference also falls back to English for languages it lacks).
 */
const CONTENT_LANGUAGE = 'en'

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, X-Api-Key, X-Api-Version',
  'access-control-expose-headers': 'X-Request-Id, Content-Language, Retry-After',
  'access-control-max-age': '600',
}

const EVERY_ANSWER_HEADERS = {
  ...CORS_HEADERS,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-language': CONTENT_LANGUAGE,
}

const SCAN_PATHS = {
  transactions: '/:chain/v0/:network/scan/transactions',
  transaction: '/:chain/v0/:network/scan/transaction',
  message: '/:chain/v0/:network/scan/message',
} as const

/** The endpoints, for the error that answers an unknown path. */
export const ENDPOINTS = [
  'POST /{chain}/v0/{network}/scan/transactions',
  'POST /{chain}/v0/{network}/scan/transaction',
  'POST /{chain}/v0/{network}/scan/message',
  'POST /v0/domains',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'GET /openapi.json',
  'GET /docs',
]

const SCAN_PATH_PATTERN = /^\/[^/]+\/v0\/[^/]+\/scan\/(transactions|transaction|message)\/?$|^\/v0\/domains\/?$/

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A scan route: needs a key, counts against its limits, answers 503 while draining. */
    scan?: boolean
  }
  interface FastifyRequest {
    /** Key id of the accepted key (hash prefix), for logs and limits. */
    keyId: string
    apiVersion: ApiVersion | null
    rpcRoundTrips: number
    /** Milliseconds the scan waited on its node (RpcStats.nodeMs), so a log tells a slow node from a slow server. */
    nodeMs: number
    network: string
    /** The scan's entry in the scans in flight (0 when none), so a client that leaves can have it cancelled. */
    scanId: number
    /** performance.now() when the request arrived, for the duration of one its client abandoned. */
    startedAt: number
  }
}

/** A refusal answered as `{error, requestId}` with `status` (and extra headers). */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export type ScanApp = {
  app: FastifyInstance
  /** Stops answering scans (503) and says so on /readyz, before the listener closes. */
  startDraining: () => void
  /** Cancels every scan still running (their clients get 504), for a drain that ran out of time. */
  cancelScans: () => void
  /** Resolves once no request is being answered: what connections are left hold requests still arriving, if any. */
  requestsAnswered: () => Promise<void>
}

/** Builds the Fastify app (not listening). Every request gets an answer with a request id; none can crash it. */
export function buildApp(config: AppConfig): ScanApp {
  const metrics = createMetrics()
  const ready = readinessChecker(config.networks, config.store)
  const inFlight = idTable<AbortController>()
  let draining = false

  const app = Fastify({
    logger: { level: 'info', stream: config.logStream ?? blockedStdout() },
    // Fastify's own request lines are off: the onResponse hook writes one line per request with what operators need.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // Random, never sequential: ids appear in logs and errors and must not be guessable.
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    bodyLimit: config.maxBodyBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    requestTimeout: 60_000,
    // Headers arrive in one go from any real client; a connection that trickles them is timed out in seconds, checked
    // every second, rather than in Node's 60 s checked every 30 s, which let one client hold thousands of sockets.
    http: { headersTimeout: config.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    return503OnClosing: false,
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        verbose: true,
        allowUnionTypes: true,
      },
    },
    schemaErrorFormatter: (errors, context) => new Error(describeValidationError(errors, context)),
    // The router's own refusals answer as every other error does: JSON with a request id, the usual headers, a log line.
    frameworkErrors: (error, request, reply) => {
      const [status, message] = routerRefusal(error)
      request.log.info({ msg: 'request', route: 'unrouted', status })
      metrics.requests.inc({ route: 'unrouted', status })
      const answer = reply as FastifyReply
      answer.headers(EVERY_ANSWER_HEADERS).header('x-request-id', request.id)
      return answer.code(status).send({ error: message, requestId: request.id })
    },
    // So do requests Node's HTTP parser turns away before there is a request at all.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      const [status, message] = parserRefusal(error)
      const requestId = newRequestId()
      app.log.info({ msg: 'request', requestId, route: 'unparsed', status })
      metrics.requests.inc({ route: 'unparsed', status })
      if (socket.writable) socket.write(rawAnswer(status, { error: message, requestId }, requestId))
      socket.destroy(error)
    },
  })

  // Scan bodies are JSON only: a text/plain body is refused by its Content-Type, not parsed as a string.
  app.removeContentTypeParser('text/plain')
  // JSON is read by jsonBody.ts: the parser's own refusals name neither the place nor the reason.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const unreadable = unreadableBody(request.headers)
    if (unreadable) return done(new Refusal(415, unreadable), undefined)
    const body = parseJsonBody(text as string)
    if (body.ok) done(null, body.value)
    else done(new Refusal(400, body.message), undefined)
  })
  app.decorateRequest('keyId', '')
  app.decorateRequest('apiVersion', null)
  app.decorateRequest('rpcRoundTrips', 0)
  app.decorateRequest('nodeMs', 0)
  app.decorateRequest('network', '')
  app.decorateRequest('scanId', 0)
  app.decorateRequest('startedAt', 0)

  // X-Api-Version picks the route: every scan endpoint is registered once per version, with that version's schemas.
  app.addConstraintStrategy({
    name: 'apiVersion',
    storage: () => {
      const routes = new Map<string, unknown>()
      return {
        get: (version: string) => (routes.get(version) ?? null) as never,
        set: (version: string, store: unknown) => {
          routes.set(version, store)
        },
      }
    },
    deriveConstraint: (request: { headers: Record<string, string | string[] | undefined> }) =>
      headerText(request.headers['x-api-version'])?.trim() || DEFAULT_API_VERSION,
    mustMatchWhenDerived: false,
  })

  const refuse = (status: number, message: string, headers?: Record<string, string>): never => {
    throw new Refusal(status, message, headers)
  }

  // Requests being answered, counted so that a drain knows when the connections left hold nobody's request.
  let answering = 0
  let answered: (() => void) | null = null
  const requestEnded = () => {
    answering -= 1
    if (answering === 0) answered?.()
  }

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now()
    answering += 1
    reply.raw.once('close', () => {
      requestEnded()
      if (!reply.raw.writableFinished) clientLeft(request)
    })
    reply.headers(EVERY_ANSWER_HEADERS)
    reply.header('x-request-id', request.id)
    if (!request.routeOptions.config?.scan) return
    if (draining) {
      reply.header('connection', 'close')
      refuse(503, 'the server is shutting down; retry on another instance')
    }
    await authorise(request)
  })

  /** Addresses refused for too many wrong keys, until their failure window ends (bounded: pruned, then cleared). */
  const blocked = new Map<string, number>()
  const block = (address: string, until: number) => {
    if (blocked.size >= 100_000) {
      for (const [stale, end] of blocked) if (end <= Date.now()) blocked.delete(stale)
      if (blocked.size >= 100_000) blocked.clear()
    }
    blocked.set(address, until)
  }

  /** Keys, then limits: an address with too many wrong keys is refused before its key is even looked at. */
  const authorise = async (request: FastifyRequest) => {
    const client = clientGroup(request.ip)
    const until = blocked.get(client)
    if (until !== undefined && until > Date.now()) {
      metrics.rateLimited.inc({ reason: 'auth' })
      refuse(429, 'too many requests with a wrong X-Api-Key from this address; retry later', retryAfter(until))
    }
    const presented = headerText(request.headers['x-api-key'])
    const hash = acceptedKeyHash(config.keys, presented)
    if (hash === null) {
      const failures = await count(`auth:${client}`)
      if (failures && failures.count >= config.authFailureLimit) block(client, failures.resetAt)
      refuse(
        401,
        presented === undefined
          ? 'Unauthorized: the X-Api-Key header is missing'
          : 'Unauthorized: invalid X-Api-Key header value',
      )
      return
    }
    request.keyId = keyId(hash)
    const used = await count(`key:${request.keyId}`)
    if (used && used.count > config.rateLimit) {
      metrics.rateLimited.inc({ reason: 'key' })
      refuse(
        429,
        `rate limit: at most ${config.rateLimit} requests per minute for this API key`,
        retryAfter(used.resetAt),
      )
    }
  }

  /** Counts a hit in the current window; a store that fails lets the request through (and says so). */
  const count = async (key: string) => {
    try {
      return await config.store.hit(key, WINDOW_MS)
    } catch (error) {
      metrics.limitStoreErrors.inc()
      app.log.warn({ msg: 'rate-limit store failed; request let through', error: (error as Error).message })
      return null
    }
  }
  const retryAfter = (resetAt: number) => ({
    'retry-after': String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))),
  })

  // While draining, every answer closes its connection, so keep-alive clients move to another instance and the
  // listener can close as soon as the scans in flight are answered.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close')
  })

  // A body that trickles in slower than the deadline gets 408 rather than holding the connection.
  app.addHook('preParsing', async (request, reply, payload) => {
    const guarded = new Transform({
      transform(chunk, _encoding, callback) {
        callback(null, chunk)
      },
    })
    const timer = setTimeout(
      () => guarded.destroy(new Refusal(408, `body: not received within ${config.bodyTimeoutMs / 1000} seconds`)),
      config.bodyTimeoutMs,
    )
    const stop = () => clearTimeout(timer)
    guarded.once('end', stop)
    // The deadline ends with the answer too. A request answered before its body arrived (a 413 from its Content-Length,
    // a GET with a body, a refused content type, a 408) has nobody to read the rest, so its connection closes rather
    // than stay open for a client that may never stop sending.
    reply.raw.once('close', () => {
      stop()
      if (!request.raw.complete) request.raw.destroy()
    })
    // Only a parser reading the body reports its errors; on a body nobody reads, an error with no listener would be
    // thrown out of the event loop and end the process.
    guarded.on('error', () => {})
    payload.on('error', (error) => guarded.destroy(error))
    return payload.pipe(guarded)
  })

  /** One line per request and its count: never the body, never the key (only its id). */
  const requestDone = (request: FastifyRequest, status: number, elapsedMs: number) => {
    const route = request.routeOptions.url ?? 'unknown'
    metrics.requests.inc({ route, status })
    const durationMs = Math.round(elapsedMs * 100) / 100
    if (request.routeOptions.config?.scan && request.apiVersion && status !== CLIENT_CLOSED) {
      metrics.scanSeconds.observe({ route }, durationMs / 1000)
    }
    request.log.info({
      msg: 'request',
      keyId: request.keyId || null,
      method: request.method,
      route,
      network: request.network || null,
      version: request.apiVersion,
      status,
      durationMs,
      rpcRoundTrips: request.rpcRoundTrips,
      nodeMs: request.nodeMs,
    })
  }

  app.addHook('onResponse', async (request, reply) => requestDone(request, reply.statusCode, reply.elapsedTime))

  /**
   * A client that closed its connection before its answer was written: its scan is cancelled (its node calls with it),
   * and it is logged and counted as 499, as proxies write it. Neither Fastify's onResponse nor its onRequestAbort (which
   * needs the request itself cut short) sees a client that sent its whole request and left while waiting.
   */
  const clientLeft = (request: FastifyRequest) => {
    inFlight.get(request.scanId)?.abort()
    requestDone(request, CLIENT_CLOSED, performance.now() - request.startedAt)
  }

  app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
    const [status, message] = errorAnswer(error, config.maxBodyBytes)
    if (status >= 500) {
      request.log.error({ msg: 'unexpected error', error: (error as Error).stack })
    }
    if (error instanceof Refusal) reply.headers(error.headers)
    return reply.code(status).send({ error: message, requestId: request.id })
  })

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/'
    if (SCAN_PATH_PATTERN.test(pathname)) {
      if (request.method !== 'POST') {
        return reply
          .code(405)
          .header('allow', 'POST, OPTIONS')
          .send({ error: `${request.method} is not allowed here; use POST`, requestId: request.id })
      }
      // The path is a scan endpoint, so no route matched the version the header names.
      const choice = chooseVersion(headerText(request.headers['x-api-version']))
      const error = choice.ok ? `no endpoint at ${pathname.slice(0, 200)}` : choice.error
      return reply.code(choice.ok ? 404 : 400).send({ error, requestId: request.id })
    }
    return reply.code(404).send({
      error: `no endpoint at ${pathname.slice(0, 200)}; the endpoints are: ${ENDPOINTS.join(', ')}`,
      requestId: request.id,
    })
  })

  const errorResponses = {
    400: errorBody,
    401: errorBody,
    404: errorBody,
    408: errorBody,
    413: errorBody,
    415: errorBody,
    429: errorBody,
    500: errorBody,
    502: errorBody,
    503: errorBody,
    504: errorBody,
  }

  const runScan = async (
    request: FastifyRequest<{ Params: { chain: string; network: string } }>,
    reply: FastifyReply,
    kind: ScanJob['kind'],
    version: ApiVersion,
  ) => {
    request.apiVersion = version
    const { chain, network } = request.params
    const pair = `${chain}/${network}`
    const rpcUrl = config.networks.get(pair)
    if (rpcUrl === undefined) {
      refuse(
        404,
        `unknown chain/network "${pair}"; this server is configured for: ${[...config.networks.keys()].join(', ')}`,
      )
      return
    }
    request.network = pair
    // The network's name gives the chain up front, so even a scan thread's first scan plans its price reads.
    const chainId = chainIdOf(pair)
    const job: ScanJob = {
      kind,
      body: request.body as Record<string, unknown>,
      version,
      requestId: request.id,
      rpcUrl,
      ...(chainId === undefined ? {} : { chainId }),
      ...(config.probeEnvironment && kind === 'transactions' ? { probeEnvironment: true } : {}),
      ...(config.nodeBatch === undefined ? {} : { nodeBatch: config.nodeBatch }),
    }
    const result = await withDeadline(request, job, pair)
    request.rpcRoundTrips = result.stats.roundTrips
    request.nodeMs = Math.round(result.stats.nodeMs * 100) / 100
    // A scan its node failed is a node error, not a wait (a Safe scan's second run can fail after a first one counted).
    const nodeFailed = !result.ok && result.error.kind === 'RPC_ERROR'
    if (result.stats.requests > 0 && !nodeFailed) {
      metrics.nodeSeconds.observe({ network: pair }, result.stats.nodeMs / 1000)
    }
    if (result.ok) return reply.type('application/json; charset=utf-8').send(result.json)
    return refuseEngineError(request, result.error, pair, rpcUrl)
  }

  const withDeadline = async (request: FastifyRequest, job: ScanJob, network: string): Promise<ScanJobResult> => {
    const controller = new AbortController()
    const scan = inFlight.add(controller)
    request.scanId = scan
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A scan still running at its deadline is almost always waiting on its node, whose own timeout is longer.
        metrics.nodeErrors.inc({ network, kind: 'TIMEOUT' })
        controller.abort()
        reject(
          new Refusal(
            504,
            `the scan did not finish within ${config.scanTimeoutMs / 1000} seconds; the node may be slow or unreachable`,
          ),
        )
      }, config.scanTimeoutMs)
    })
    try {
      return await Promise.race([config.runner.run(job, controller.signal), deadline])
    } finally {
      clearTimeout(timer)
      inFlight.delete(scan)
      request.scanId = 0
    }
  }

  const refuseEngineError = (request: FastifyRequest, error: EngineError, pair: string, rpcUrl: string): never => {
    switch (error.kind) {
      case 'INVALID_REQUEST':
        return refuse(400, `${error.field}: ${error.message}`)
      case 'RPC_ERROR':
        metrics.nodeErrors.inc({ network: pair, kind: error.reason })
        // The URL (with its path and query, where hosted nodes put keys) goes to the log only, redacted.
        request.log.warn({
          msg: 'node failed',
          network: pair,
          node: redactUrl(rpcUrl),
          reason: error.reason,
          detail: error.message,
        })
        if (error.reason === 'ABORTED') return refuse(504, `the scan for ${pair} was cancelled before it finished`)
        return refuse(502, `the node for ${pair} failed: ${error.reason}`)
      case 'UNSUPPORTED_CHAIN':
        return refuse(502, `the node for ${pair} failed: UNSUPPORTED_CHAIN`)
      case 'INTERNAL':
        // A bug's detail goes to the log only: it helps the operator and would only confuse (or inform) the client.
        request.log.error({ msg: 'scan failed unexpectedly', error: error.message })
        return refuse(500, 'Internal Server Error')
    }
  }

  for (const version of API_VERSIONS) {
    const constraints = { apiVersion: version }
    const config = { scan: true }
    const scanSchema = (body: unknown, response: unknown, summary: string) => ({
      summary,
      params: scanParams,
      querystring: scanQuery,
      body,
      response: { 200: response, ...errorResponses },
    })
    const transactions = scanSchema(
      transactionsRequestSchema(version),
      transactionsResponseSchema(version),
      'Scan transactions',
    )
    type ScanRoute = { Params: { chain: string; network: string } }
    for (const path of [SCAN_PATHS.transactions, SCAN_PATHS.transaction]) {
      app.post<ScanRoute>(path, { constraints, config, schema: transactions }, (request, reply) =>
        runScan(request, reply, 'transactions', version),
      )
    }
    app.post<ScanRoute>(
      SCAN_PATHS.message,
      {
        constraints,
        config,
        schema: scanSchema(messageRequestSchema(version), messageResponseSchema(version), 'Scan a message'),
      },
      (request, reply) => runScan(request, reply, 'message', version),
    )
    app.post(
      '/v0/domains',
      {
        constraints,
        config,
        schema: {
          body: domainsRequestSchema(version),
          response: { 200: domainsResponseSchema(version), ...errorResponses },
        },
      },
      async (request) => {
        request.apiVersion = version
        const parsed = parseDomainsRequest(request.body, version)
        if (!parsed.ok) refuse(400, parsed.error)
        return parsed.ok ? scanDomains(parsed.domains, version) : []
      },
    )
  }

  app.options('*', async (_request, reply) => reply.code(204).send())

  app.get(
    '/healthz',
    {
      schema: {
        response: {
          200: { type: 'object', properties: { status: { type: 'string' }, requestId: { type: 'string' } } },
        },
      },
    },
    async (request) => ({
      status: 'ok',
      requestId: request.id,
    }),
  )

  app.get('/readyz', async (request, reply) => {
    if (draining) {
      return reply.code(503).send({ status: 'draining', problems: [], requestId: request.id })
    }
    const readiness = await ready()
    return reply
      .code(readiness.ready ? 200 : 503)
      .send({ status: readiness.ready ? 'ready' : 'not ready', problems: readiness.problems, requestId: request.id })
  })

  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  )

  app.get<{ Querystring: { version?: string } }>('/openapi.json', async (request) => {
    const choice = chooseVersion(request.query.version)
    if (!choice.ok) refuse(400, choice.error.replace('X-Api-Version', 'version'))
    return openApiDocument(choice.ok ? choice.version : DEFAULT_API_VERSION)
  })

  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage()))
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const asset = docsAsset(request.params.file)
    if (!asset) refuse(404, `no file ${request.params.file.slice(0, 80)} in /docs`)
    return asset ? reply.type(asset.type).send(asset.body) : undefined
  })

  return {
    app,
    startDraining: () => {
      draining = true
    },
    cancelScans: () => {
      for (const controller of inFlight.values()) controller.abort()
    },
    requestsAnswered: () =>
      answering === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            answered = resolve
          }),
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value
}

/**
 * Why a JSON body cannot be read as sent, or undefined: the server reads UTF-8 text as it arrives, so a compressed body
 * or another charset would be read as something else than the client wrote.
 */
function unreadableBody(headers: FastifyRequest['headers']): string | undefined {
  const encoding = headerText(headers['content-encoding'])?.trim().toLowerCase()
  if (encoding && encoding !== 'identity') {
    return `Content-Encoding: ${encoding.slice(0, 40)} is not accepted; send the body uncompressed`
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headerText(headers['content-type']) ?? '')?.[1]?.toLowerCase()
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    return `Content-Type: charset ${charset.slice(0, 40)} is not accepted; send UTF-8`
  }
  return undefined
}

/** The router's refusal of a path as the status and message the client gets. */
function routerRefusal(error: FastifyError): [number, string] {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return [400, 'path: not a valid URL (a malformed percent-encoding)']
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return [414, `path: a segment is longer than ${MAX_PARAM_LENGTH} characters`]
    default:
      return [500, 'Internal Server Error']
  }
}

/** Why Node's HTTP parser turned a connection's request away, as the status and message the client gets. */
function parserRefusal(error: NodeJS.ErrnoException): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'headers: larger than the 16 KiB limit altogether']
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request: not received in time']
  return [400, 'request: not valid HTTP/1.1']
}

/** A whole HTTP/1.1 answer written straight to a socket, with the headers every answer carries; it closes the socket. */
function rawAnswer(status: number, body: object, requestId: string): string {
  const text = JSON.stringify(body)
  const headers: Record<string, string> = {
    ...EVERY_ANSWER_HEADERS,
    'x-request-id': requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${text}`
}

/** An error as the status and message the client gets (Fastify's own errors keep their status). */
function errorAnswer(error: FastifyError | Refusal, maxBodyBytes: number): [number, string] {
  if (error instanceof Refusal) return [error.status, error.message]
  if (error.validation) return [400, error.message]
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, `body: larger than the ${maxBodyBytes} byte limit`]
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [400, `Content-Type: expected application/json, got ${error.message.split(': ').pop()?.slice(0, 80)}`]
  }
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) return [status, error.message]
  return [500, 'Internal Server Error']
}
