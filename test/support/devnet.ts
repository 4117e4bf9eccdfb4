/** Starts a private devnet for one test file, on a free port, and stops it afterwards. */
import { createServer } from 'node:net'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { listenOnFreePort } from './net.ts'

/**
 * A TCP port that is free right now on 127.0.0.1, for programs that must be told a port number (anvil, the demo).
 * Prefer listening on port 0 (listenOnFreePort) wherever the program allows it.
 */
export async function freePort(): Promise<number> {
  const server = createServer()
  const port = await listenOnFreePort(server)
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Starts a devnet with the fixtures deployed on a free port. */
export async function startTestDevnet(options: { fixturesFile?: string } = {}): Promise<Devnet> {
  return startDevnet({ port: await freePort(), ...options })
}
