/** A real redis-server (Debian's) for one test file, on a free port, with no persistence; stopped afterwards. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createConnection } from 'node:net'
import { freePort } from './devnet.ts'

export type RedisServer = { url: string; stop: () => Promise<void> }

/** Starts `redis-server` (REDIS_SERVER or the one on PATH) and resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(new Error(`redis-server could not start (apt-get install redis-server): ${error.message}`)),
    ),
  )
  const deadline = Date.now() + 10_000
  for (;;) {
    const open = await Promise.race([failed, accepts(port)])
    if (open) break
    if (Date.now() > deadline) {
      child.kill()
      throw new Error(`redis-server did not accept connections on port ${port} within 10 s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
