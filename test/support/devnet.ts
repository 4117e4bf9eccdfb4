/** Starts a private devnet for one test file, on a free port, and stops it afterwards. */
import { createServer } from 'node:net'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'

/** Asks the OS for a TCP port that is free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/** Starts a devnet with the fixtures deployed on a free port. */
export async function startTestDevnet(options: { fixturesFile?: string } = {}): Promise<Devnet> {
  return startDevnet({ port: await freePort(), ...options })
}
