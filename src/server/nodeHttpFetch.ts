/**
 * The fetch the server hands the engine for its node calls: node:http(s) over kept-alive connections. Global fetch
 * (undici) cost about 1 ms of CPU per call, a third of a plain scan's; the engine stays platform-neutral and only sees
 * a fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/** Connections outlive scans: a TCP (and TLS) handshake per call would cost more than the call itself. */
const httpAgent = new HttpAgent({ keepAlive: true })
const httpsAgent = new HttpsAgent({ keepAlive: true })

/**
 * No one scan's node answer comes near 10 MiB, the limit while each call travelled alone; an answer now carries a batch
 * of up to `--node-batch` scans' calls (8 by default). Reading past this would only fill memory.
 */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024

/**
 * A fetch that sends a string body and reads the whole answer, which is all a JSON-RPC client asks of fetch, and
 * stops when the request's signal aborts.
 */
export const nodeHttpFetch: typeof fetch = (input, init) =>
  new Promise((resolve, reject) => {
    const url = String(input)
    const signal = init?.signal
    if (signal?.aborted) return reject(abortError())
    const secure = url.startsWith('https:')
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: init?.method ?? 'GET',
      // The engine's JSON-RPC client passes its headers as a plain object.
      headers: init?.headers as Record<string, string> | undefined,
      agent: secure ? httpsAgent : httpAgent,
    })
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', abort)
      outcome()
    }
    const fail = (error: Error) => settle(() => reject(error))
    const abort = () => {
      fail(abortError())
      request.destroy()
    }
    signal?.addEventListener('abort', abort, { once: true })
    request.on('error', fail)
    request.on('response', (message) => {
      const chunks: Buffer[] = []
      let size = 0
      message.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_ANSWER_BYTES) {
          fail(new Error(`the node's answer is larger than ${MAX_ANSWER_BYTES} bytes`))
          request.destroy()
          return
        }
        chunks.push(chunk)
      })
      message.on('end', () => settle(() => resolve(bufferedResponse(message, Buffer.concat(chunks, size)))))
      message.on('error', fail)
      message.on('close', () => fail(new Error('the connection to the node closed before its answer ended')))
    })
    request.end(typeof init?.body === 'string' ? init.body : undefined)
  })

/**
 * The answer as a Response holding its whole body: the engine reads status and text(). A real Response would wrap
 * the text in a web stream, which is most of what undici's fetch costs.
 */
function bufferedResponse(message: IncomingMessage, body: Buffer): Response {
  const status = message.statusCode ?? 0
  const response = {
    ok: status >= 200 && status < 300,
    status,
    statusText: message.statusMessage ?? '',
    headers: { get: (name: string) => headerValue(message.headers, name) },
    body: null,
    text: async () => body.toString('utf8'),
  }
  return response as unknown as Response
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(', ') : (value ?? null)
}

/** The error fetch rejects with when its signal aborts, which the engine reports as a cancelled call. */
function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError')
}
