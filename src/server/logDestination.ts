/**
 * Where the server's JSON log lines go when no stream is given: stdout, written in blocks. Written line by line, each
 * request's line was one write handed to libuv's thread pool and back, about a tenth of a plain scan's CPU at
 * concurrency 32 (README, "Scan API under load").
 */
import pino from 'pino'

/** Bytes held before a write: about a dozen request lines. */
const BLOCK_BYTES = 4096
/** The longest a line waits when traffic is too light to fill a block. */
const FLUSH_EVERY_MS = 250

/** Stdout in blocks of BLOCK_BYTES, flushed every FLUSH_EVERY_MS; pino flushes what is left when the process exits. */
export function blockedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, minLength: BLOCK_BYTES, periodicFlush: FLUSH_EVERY_MS, sync: false })
}
