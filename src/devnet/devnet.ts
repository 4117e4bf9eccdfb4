/** The embedded devnet: anvil plus the deployed fixtures, started and stopped as one. */
import { writeFileSync } from 'node:fs'
import { type ForkOptions, startAnvil } from './anvil.ts'
import { deployFixtures } from './deploy.ts'
import type { Fixtures } from './fixtures.ts'

export type Devnet = { fixtures: Fixtures; stop: () => Promise<void> }

/**
 * Starts anvil on 127.0.0.1:port (forking `fork` when given), deploys the fixtures and, when `fixturesFile` is given,
 * writes them there.
 */
export async function startDevnet(options: {
  port: number
  fixturesFile?: string
  fork?: ForkOptions
}): Promise<Devnet> {
  const started = performance.now()
  const anvil = await startAnvil({ port: options.port, fork: options.fork })
  try {
    const deployed = await deployFixtures(anvil.rpcUrl)
    const fixtures: Fixtures = { ...deployed, startupMs: Math.round(performance.now() - started) }
    if (options.fixturesFile) writeFileSync(options.fixturesFile, `${JSON.stringify(fixtures, null, 2)}\n`)
    return { fixtures, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
