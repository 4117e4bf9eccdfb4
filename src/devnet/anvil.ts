/** Starts and stops the anvil binary shipped by the npm package @foundry-rs/anvil. */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createConnection } from 'node:net'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

export type Anvil = {
  rpcUrl: string
  port: number
  stop: () => Promise<void>
}

export class DevnetError extends Error {
  constructor(
    readonly kind: 'PORT_IN_USE' | 'ANVIL_NOT_FOUND' | 'ANVIL_FAILED',
    message: string,
  ) {
    super(message)
    this.name = 'DevnetError'
  }
}

/** Finds the anvil binary inside the platform package that @foundry-rs/anvil installs as an optional dependency. */
function anvilBinaryPath(): string {
  if (process.env.ANVIL_PATH) return process.env.ANVIL_PATH
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string]
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string]
  const pkg = `@foundry-rs/anvil-${platform}-${arch}`
  try {
    const dir = dirname(require.resolve(`${pkg}/package.json`))
    const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
    if (existsSync(bin)) return bin
  } catch {}
  throw new DevnetError(
    'ANVIL_NOT_FOUND',
    `anvil binary not found: install the npm package @foundry-rs/anvil (expected ${pkg}) or set ANVIL_PATH`,
  )
}

/** Resolves true when something already accepts TCP connections on 127.0.0.1:port. */
export function isPortInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Where a forked devnet takes its state from: a node's URL and, optionally, the block to fork at (else its latest). */
export type ForkOptions = { url: string; blockNumber?: bigint }

/**
 * Starts anvil on 127.0.0.1:port with chain id 31337 and the default dev accounts; resolves once it listens. With
 * `fork`, anvil's fork mode: the chain's state is the node's, fetched as it is read; chain id 31337 all the same, so
 * the extension's devnet settings apply.
 */
export async function startAnvil(options: { port: number; fork?: ForkOptions }): Promise<Anvil> {
  const { port, fork } = options
  if (await isPortInUse(port)) {
    throw new DevnetError('PORT_IN_USE', `port ${port} on 127.0.0.1 is already in use; choose another with --port`)
  }
  // Not --silent: anvil's own "Listening on" line is the only proof that the node on the port is this child, not
  // another process that took the port between the check above and anvil's bind.
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337']
  if (fork) args.push('--fork-url', fork.url)
  if (fork?.blockNumber !== undefined) args.push('--fork-block-number', fork.blockNumber.toString())
  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  // Kill anvil with us: an orphaned node would hold the port after the parent crashes or exits without stop().
  const killWithParent = () => child.kill('SIGKILL')
  process.once('exit', killWithParent)
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', killWithParent)
      resolve(code)
    }),
  )
  const rpcUrl = `http://127.0.0.1:${port}`
  let timer: NodeJS.Timeout | undefined
  const ready = await Promise.race([
    listening(child, new RegExp(`Listening on 127\\.0\\.0\\.1:${port}\\r?\\n`)).then(() => ({ ok: true as const })),
    exited.then((code) => ({
      ok: false as const,
      why: `anvil exited with code ${code}: ${stderr.trim() || 'no output'}`,
    })),
    new Promise<{ ok: false; why: string }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, why: `anvil did not listen on ${rpcUrl} within 10 s` }), 10_000)
    }),
  ])
  clearTimeout(timer)
  if (!ready.ok) {
    child.kill('SIGKILL')
    throw new DevnetError('ANVIL_FAILED', ready.why)
  }
  try {
    await silenceCallLog(rpcUrl)
  } catch (error) {
    child.kill('SIGKILL')
    const why = error instanceof Error ? error.message : String(error)
    throw new DevnetError('ANVIL_FAILED', `anvil listened on ${rpcUrl} but did not answer a request: ${why}`)
  }
  const stop = async () => {
    process.off('exit', killWithParent)
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const forceKill = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(forceKill)
  }
  return { rpcUrl, port, stop }
}

/**
 * Stops anvil's line per RPC call. Nobody reads those lines (listening() drains them), and under load writing them cost
 * anvil and draining them woke this process for every call: raw eth_simulateV1 batches at c = 32 went from 10,400–12,500
 * to 14,900–15,400 a second without them, anvil's CPU per call from 0.13–0.15 to 0.12 ms.
 */
async function silenceCallLog(rpcUrl: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setLoggingEnabled', params: [false] }),
  })
  await response.text()
}

/** Resolves when the child prints `line` on stdout; its later output (one line per RPC call) is drained unread. */
function listening(child: ChildProcess, line: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      // Only the tail can hold a line split across chunks; the banner before it is not needed.
      seen = (seen + chunk.toString('utf8')).slice(-4096)
      if (!line.test(seen)) return
      child.stdout?.off('data', onData)
      // Keep reading: a full pipe would block anvil, and a closed one would make it fail on its next log line.
      child.stdout?.resume()
      resolve()
    }
    child.stdout?.on('data', onData)
  })
}
