/** A bug in the engine as an error value, so it cannot take down the service worker or the server. */
import type { EngineError } from '../api/index.ts'

/** Turns an unexpected exception into an INTERNAL error; the message is for logs, not for the node's operator. */
export function internalError(error: unknown): EngineError {
  const detail = error instanceof Error ? error.message : String(error)
  return { kind: 'INTERNAL', message: `The scan failed because of a bug in Preflight: ${detail}` }
}
