/** Collects the scan API's JSON log lines in memory, for tests that check what is (and is not) logged. */
import { Writable } from 'node:stream'

export type LogSink = { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string }

/** A stream to pass as `logStream`, and the lines written to it so far, parsed. */
export function logSink(): LogSink {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      text += chunk.toString()
      callback()
    },
  })
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  }
}
