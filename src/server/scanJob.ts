/**
 * One scan as the server runs it, in a worker thread or inline: the engine call (its node calls cancelled when the
 * request is), the rendering for the API version and the JSON text. Only plain data goes in and out, so a job can
 * cross a thread boundary.
 */
import {
  createRpcChannel,
  type EngineError,
  NO_TRAFFIC,
  type RpcChannel,
  type RpcStats,
  type ScanOptions,
  type ScanTransactionsRequest,
  scanMessageWithStats,
  scanTransactionsWithStats,
} from '../engine/index.ts'
import { nodeHttpFetch } from './nodeHttpFetch.ts'
import { urlSecrets } from './redactUrl.ts'
import { renderMessage, renderTransactions } from './render.ts'
import type { ApiVersion } from './versions.ts'

export type ScanJob = {
  kind: 'transactions' | 'message'
  /** The request body, already checked against the route's schema. */
  body: Record<string, unknown>
  version: ApiVersion
  requestId: string
  rpcUrl: string
  /** The chain id the network's name says, when Preflight knows it (saves asking the node). */
  chainId?: number
  /** Run the transactions as a block runs them too (`serve --probe-environment`). */
  probeEnvironment?: boolean
  /** The most node calls of this thread's scans that travel in one batch (`serve --node-batch`); 1 sends each alone. */
  nodeBatch?: number
}

export type ScanJobResult =
  | { ok: true; json: string; stats: RpcStats }
  | { ok: false; error: EngineError; stats: RpcStats }

/** Node calls per batch unless `serve --node-batch` says otherwise (README, "Scan API under load"). */
export const DEFAULT_NODE_BATCH = 8

/** Calls to one node from every scan on this thread; see channelTo. */
const channels = new Map<string, RpcChannel>()

/**
 * The channel this thread's scans share to `rpcUrl`: the calls its scans make in one event-loop turn travel as one
 * JSON-RPC batch of at most `batch` calls, so that under load a process writes, and the node reads, one request where
 * it would have written several (README, "Scan API under load").
 */
function channelTo(rpcUrl: string, batch: number): RpcChannel {
  const key = `${batch} ${rpcUrl}`
  let channel = channels.get(key)
  if (!channel) {
    channel = createRpcChannel(rpcUrl, { fetch: nodeHttpFetch, schedule: setImmediate, maxBatch: batch })
    channels.set(key, channel)
  }
  return channel
}

/** Runs a job; `signal` aborting cancels its calls to the node. Never throws for bad input or a failing node. */
export async function runScanJob(job: ScanJob, signal: AbortSignal): Promise<ScanJobResult> {
  const options: ScanOptions = {
    rpcUrl: job.rpcUrl,
    language: 'en',
    rpc: channelTo(job.rpcUrl, job.nodeBatch ?? DEFAULT_NODE_BATCH),
    signal,
    ...(job.chainId === undefined ? {} : { chainId: job.chainId }),
    ...(job.probeEnvironment ? { probeEnvironment: true } : {}),
  }
  if (job.kind === 'message') {
    const { outcome, stats } = await scanMessageWithStats(job.body, options)
    if (!outcome.ok) return { ok: false, error: outcome.error, stats }
    return {
      ok: true,
      json: scrub(JSON.stringify(renderMessage(outcome.response, job.version, job.requestId)), job),
      stats,
    }
  }
  const request = transactionRequestFor(job.body, job.version)
  if (!request.ok) return { ok: false, error: request.error, stats: NO_TRAFFIC }
  const { outcome, stats } = await scanTransactionsWithStats(request.request, options)
  if (!outcome.ok) {
    const error =
      outcome.error.kind === 'INVALID_REQUEST'
        ? { ...outcome.error, field: request.fieldName(outcome.error.field) }
        : outcome.error
    return { ok: false, error, stats }
  }
  const json = JSON.stringify(renderTransactions(outcome.response, job.version, job.requestId))
  return { ok: true, json: scrub(json, job), stats }
}

/** Each node URL's secrets (urlSecrets), worked out once: a server has a fixed set of nodes. */
const secretsByUrl = new Map<string, string[]>()

/**
 * The engine never puts the node's URL in a response; a node could still echo it, or its key alone, inside an error
 * text it returns. Every part of the URL that may be a key is replaced before the answer leaves.
 */
function scrub(json: string, job: ScanJob): string {
  let secrets = secretsByUrl.get(job.rpcUrl)
  if (!secrets) {
    secrets = urlSecrets(job.rpcUrl)
    secretsByUrl.set(job.rpcUrl, secrets)
  }
  let text = json
  for (const secret of secrets) if (text.includes(secret)) text = text.replaceAll(secret, '[node]')
  return text
}

type TxRequestChoice =
  | { ok: true; request: ScanTransactionsRequest; fieldName: (field: string) => string }
  | { ok: false; error: EngineError }

const sameName = (field: string) => field

/** Version 2022-06-01 scanned one `txObject`; later versions take the `txObjects` list (seed §9). */
function transactionRequestFor(body: Record<string, unknown>, version: ApiVersion): TxRequestChoice {
  if (version !== '2022-06-01') return { ok: true, request: body as ScanTransactionsRequest, fieldName: sameName }
  const { txObject, ...rest } = body
  if (txObject === undefined) return { ok: true, request: body as ScanTransactionsRequest, fieldName: sameName }
  if (rest.txObjects !== undefined) {
    return {
      ok: false,
      error: { kind: 'INVALID_REQUEST', field: 'txObject', message: 'send either txObject or txObjects, not both' },
    }
  }
  return {
    ok: true,
    request: { ...rest, txObjects: [txObject] } as ScanTransactionsRequest,
    fieldName: (field) => field.replace(/^txObjects(\[0\])?/, 'txObject'),
  }
}
