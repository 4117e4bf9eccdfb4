/**
 * `preflight demo` end to end: it builds the extension, starts the devnet and serves the dapp with the fixtures, and
 * Ctrl+C stops everything; a port in use is refused with a clear message before anything starts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { runDemo } from '../../src/commands/demo.ts'
import { isPortInUse } from '../../src/devnet/anvil.ts'
import { freePort } from '../support/devnet.ts'
import { listenOnFreePort } from '../support/net.ts'

/** Runs the demo with `argv` and returns its exit code and what it wrote to stderr. */
async function runDemoCapturingStderr(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk
    return true
  })
  try {
    return { code: await runDemo(argv), stderr }
  } finally {
    write.mockRestore()
  }
}

describe('preflight demo', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'preflight-demo-'))
  let exit: Promise<number> | undefined
  afterAll(async () => {
    if (exit) {
      process.emit('SIGINT')
      await exit
    }
    rmSync(outDir, { recursive: true, force: true })
  })

  it('runs the devnet, the built extension and the dapp until Ctrl+C', async () => {
    const [port, dappPort, apiPort] = [await freePort(), await freePort(), await freePort()]
    const fixturesFile = join(outDir, 'fixtures.json')
    exit = runDemo([
      '--port',
      String(port),
      '--dapp-port',
      String(dappPort),
      '--api-port',
      String(apiPort),
      '--out-dir',
      join(outDir, 'ext'),
      '--fixtures',
      fixturesFile,
    ])
    const dapp = `http://127.0.0.1:${dappPort}`
    await expect
      .poll(
        () =>
          fetch(`${dapp}/fixtures.json`).then(
            (r) => r.ok,
            () => false,
          ),
        { timeout: 60_000 },
      )
      .toBe(true)

    const fixtures = await (await fetch(`${dapp}/fixtures.json`)).json()
    expect(fixtures).toMatchObject({ rpcUrl: `http://127.0.0.1:${port}`, chainId: 31337 })
    expect(JSON.parse(readFileSync(fixturesFile, 'utf8')).rpcUrl).toBe(fixtures.rpcUrl)
    expect(await (await fetch(`${dapp}/`)).text()).toContain('data-testid="result"')
    // The scan API runs on the devnet too: alive, and keyed (its development key is printed, not guessable).
    const api = `http://127.0.0.1:${apiPort}`
    expect((await fetch(`${api}/readyz`)).status).toBe(200)
    const unkeyed = await fetch(`${api}/ethereum/v0/devnet/scan/message`, { method: 'POST' })
    expect(unkeyed.status).toBe(401)
    const manifest = JSON.parse(readFileSync(join(outDir, 'ext/manifest.json'), 'utf8'))
    expect(existsSync(join(outDir, 'ext', manifest.action.default_popup))).toBe(true)

    process.emit('SIGINT')
    expect(await exit).toBe(0)
    exit = undefined
    expect(await isPortInUse(port)).toBe(false)
    expect(await isPortInUse(dappPort)).toBe(false)
    expect(await isPortInUse(apiPort)).toBe(false)
  })

  it('refuses a port in use, naming the option, before building anything', async () => {
    const busy = createServer()
    const port = await listenOnFreePort(busy)
    try {
      // The demo checks --port first, so the --dapp-port case needs a free --port.
      for (const [flag, other] of [
        ['--port', '--dapp-port'],
        ['--dapp-port', '--port'],
      ] as const) {
        const argv = [flag, String(port), other, String(await freePort()), '--out-dir', join(outDir, 'never')]
        const { code, stderr } = await runDemoCapturingStderr(argv)
        expect(code).toBe(1)
        expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use; choose another with ${flag}\n`)
      }
      expect(existsSync(join(outDir, 'never'))).toBe(false)
    } finally {
      busy.close()
    }
  })

  it('rejects a bad option value with exit code 2, naming the option', async () => {
    const { code, stderr } = await runDemoCapturingStderr(['--dapp-port', '70000'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--dapp-port/)
  })
})
