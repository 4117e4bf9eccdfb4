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
  process: ChildProcess
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
export function anvilBinaryPath(): string {
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

/** Starts anvil on 127.0.0.1:port with chain id 31337 and the default dev accounts; resolves once it answers RPC. */
export async function startAnvil(options: { port: number; blockTime?: number }): Promise<Anvil> {
  const { port } = options
  if (await isPortInUse(port)) {
    throw new DevnetError('PORT_IN_USE', `port ${port} on 127.0.0.1 is already in use; choose another with --port`)
  }
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337', '--silent']
  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const rpcUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 10_000
  for (;;) {
    const outcome = await Promise.race([exited.then((code) => ({ code })), ping(rpcUrl).then((ok) => ({ ok }))])
    if ('code' in outcome) {
      throw new DevnetError('ANVIL_FAILED', `anvil exited with code ${outcome.code}: ${stderr.trim() || 'no output'}`)
    }
    if (outcome.ok) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new DevnetError('ANVIL_FAILED', `anvil did not answer on ${rpcUrl} within 10 s`)
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  return { rpcUrl, port, process: child, stop }
}

async function ping(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    return res.ok
  } catch {
    return false
  }
}
