/** The shared e2e set-up: a part that fails to start takes the others down with it. */
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { startE2eSession } from './support/session.ts'

/** The anvil processes this test process started and that still run. */
function runningAnvils(): string[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), 'anvil'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
  } catch {
    return []
  }
}

describe('the e2e session', () => {
  const chromePath = process.env.CHROME_PATH
  afterEach(() => {
    if (chromePath === undefined) delete process.env.CHROME_PATH
    else process.env.CHROME_PATH = chromePath
  })

  it('stops the devnet and the dapp server when Chromium cannot start, and says why', async () => {
    expect(runningAnvils()).toEqual([])
    process.env.CHROME_PATH = '/nonexistent/chromium'
    await expect(startE2eSession()).rejects.toThrow('CHROME_PATH is set to /nonexistent/chromium, which does not exist')
    // Chromium fails at once, while the devnet is still starting: a set-up that did not wait for it would leave its
    // anvil to come up a moment later (it takes about half a second), and nobody would stop it.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(runningAnvils()).toEqual([])
  })

  it('starts all three, with the extension set to simulate on the devnet, and stops them', async () => {
    const session = await startE2eSession()
    try {
      expect(runningAnvils()).toHaveLength(1)
      const worker = session.context.serviceWorkers()[0]
      const settings = await worker?.evaluate(async () => (await chrome.storage.local.get('settings')).settings)
      expect(settings).toMatchObject({ rpcUrls: { '31337': session.devnet.fixtures.rpcUrl } })
    } finally {
      await session.close()
    }
    expect(runningAnvils()).toEqual([])
  })
})
