/** Starts a private devnet for one test file, on a free port, and stops it afterwards. */
import { createServer } from 'node:net'
import { createTestClient, http } from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
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

/**
 * A devnet for a test file whose tests execute transactions for real: started before them, stopped after, and put
 * back to its fixtures after each test. Returns the fixtures' getter, for use inside tests.
 */
export function devnetRolledBackPerTest(): () => Fixtures {
  let devnet: Devnet | undefined
  let snapshot: `0x${string}` | undefined
  const client = () => {
    if (!devnet) throw new Error('the devnet has not started')
    return createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
  }
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(async () => {
    await devnet?.stop()
  })
  beforeEach(async () => {
    snapshot = await client().snapshot()
  })
  afterEach(async () => {
    if (snapshot) await client().revert({ id: snapshot })
  })
  return () => {
    if (!devnet) throw new Error('the devnet has not started')
    return devnet.fixtures
  }
}
