/** Option parsing, usage errors and lifetime helpers shared by the `preflight` commands. */
import { type ParseArgsConfig, parseArgs } from 'node:util'

/** A mistake on the command line (unknown flag, bad value): every command answers it on stderr with exit code 2. */
export class UsageError extends Error {}

/** node:util parseArgs with its errors as UsageError, so an unknown flag is bad usage (2), not a failure (1). */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

/** Runs a command, answering a UsageError with the message and usage on stderr and exit code 2. */
export async function withUsageErrors(command: string, usage: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`preflight ${command}: ${error.message}\n\n${usage}`)
    return 2
  }
}

/**
 * Parses a port option, rejecting anything that is not a TCP port number; `name` is the flag without dashes.
 * `lowest` is 0 for servers that may let the OS pick a free port.
 */
export function portOption(name: string, value: string | undefined, fallback: number, lowest = 1): number {
  if (value === undefined) return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < lowest || port > 65535) {
    throw new UsageError(`--${name} must be an integer between ${lowest} and 65535, got "${value}"`)
  }
  return port
}

/**
 * A stop request: `signal` resolves with the first SIGINT or SIGTERM, `received` says whether one came yet, `close`
 * stops listening (a command that ends without a signal, e.g. on a failed start).
 */
export type StopRequest = { signal: Promise<NodeJS.Signals>; received: () => boolean; close: () => void }

/**
 * Listens for SIGINT and SIGTERM from now on. A command calls it before it starts anything: a signal during start-up,
 * or in the instant after the command prints that it is ready, must stop what was started (exit 0), not kill the
 * process by the default action and leave its anvil or servers running.
 */
export function listenForStop(): StopRequest {
  let received = false
  let close = () => {}
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      close()
      received = true
      resolve(signal)
    }
    close = () => {
      process.off('SIGINT', handler)
      process.off('SIGTERM', handler)
    }
    process.on('SIGINT', handler)
    process.on('SIGTERM', handler)
  })
  return { signal, received: () => received, close }
}
