/** Option parsing and lifetime helpers shared by the long-running `preflight` commands. */

/**
 * Parses a port option, rejecting anything that is not a TCP port number; `name` is the flag without dashes.
 * `lowest` is 0 for servers that may let the OS pick a free port.
 */
export function portOption(name: string, value: string | undefined, fallback: number, lowest = 1): number {
  if (value === undefined) return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < lowest || port > 65535) {
    throw new Error(`--${name} must be an integer between ${lowest} and 65535, got "${value}"`)
  }
  return port
}

/** Resolves with the first SIGINT or SIGTERM, so a command can stop what it started and exit 0. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGINT', handler)
      process.off('SIGTERM', handler)
      resolve(signal)
    }
    process.on('SIGINT', handler)
    process.on('SIGTERM', handler)
  })
}
