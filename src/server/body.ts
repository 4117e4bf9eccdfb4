/** Reads a JSON request body with a size limit and a deadline, turning every failure into a status and a message. */
import type { IncomingMessage } from 'node:http'

export const MAX_BODY_BYTES = 1024 * 1024

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 408 | 413; error: string }

/** Reads and parses the body of `request` as JSON; refuses other content types, oversized bodies and slow senders. */
export async function readJsonBody(
  request: IncomingMessage,
  options: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<BodyResult> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES
  const contentType = request.headers['content-type'] ?? ''
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') {
    return {
      ok: false,
      status: 400,
      error: `Content-Type: expected application/json, got ${contentType ? `"${contentType.slice(0, 80)}"` : 'none'}`,
    }
  }
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(maxBytes)
  const read = await collect(request, maxBytes, options.timeoutMs ?? 10_000)
  if (!read.ok) return read
  const text = read.bytes.toString('utf8')
  if (text.trim() === '') return { ok: false, status: 400, error: 'body: empty; send a JSON object' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'not JSON'
    return { ok: false, status: 400, error: `body: invalid JSON (${reason})` }
  }
}

function tooLarge(maxBytes: number): BodyResult {
  return { ok: false, status: 413, error: `body: larger than the ${maxBytes} byte limit` }
}

function collect(
  request: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
): Promise<{ ok: true; bytes: Buffer } | Extract<BodyResult, { ok: false }>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (result: { ok: true; bytes: Buffer } | Extract<BodyResult, { ok: false }>) => {
      clearTimeout(timer)
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
      // Stop reading what is left of a refused body, without holding it in memory.
      if (!result.ok) request.resume()
      resolve(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) finish(tooLarge(maxBytes) as Extract<BodyResult, { ok: false }>)
      else chunks.push(chunk)
    }
    const onEnd = () => finish({ ok: true, bytes: Buffer.concat(chunks) })
    const onError = () => finish({ ok: false, status: 400, error: 'body: the upload was interrupted' })
    const timer = setTimeout(
      () => finish({ ok: false, status: 408, error: `body: not received within ${timeoutMs / 1000} seconds` }),
      timeoutMs,
    )
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
  })
}
