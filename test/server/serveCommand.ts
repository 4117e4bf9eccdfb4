/** `preflight serve` as a child process, for tests that run the command as an operator does. */
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'

/** The documented command: `node bin/preflight.mjs serve …`. */
const SERVE = [join(import.meta.dirname, '../../bin/preflight.mjs'), 'serve']

/** Starts the command with `args`; resolves once it prints its address, or with its exit code if it stops first. */
export function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...SERVE, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const ready = new Promise<string | null>((resolve) => {
    child.stderr?.on('data', () => {
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1]
      if (url) resolve(url)
    })
    exited.then(() => resolve(null))
  })
  return { child, ready, exited, output: () => ({ stdout, stderr }) }
}

export function stop(child: ChildProcess): void {
  if (child.exitCode === null) child.kill('SIGTERM')
}
