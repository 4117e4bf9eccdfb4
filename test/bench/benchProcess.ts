/**
 * Helpers of `bench:server` that run as processes of their own, so that their collections pause neither the bench nor
 * each other.
 */
import { type ChildProcess, fork } from 'node:child_process'

/** The role a forked helper module runs as, or undefined in the bench's own process. */
export const benchRole = process.env.BENCH_ROLE

/** Forks `module` to run as `role` (it checks benchRole); the child dies with the bench, whatever ends the bench. */
export function forkBenchProcess(module: URL, role: string): ChildProcess {
  const child = fork(module, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_ROLE: role } })
  const stop = () => child.kill()
  process.once('exit', stop)
  child.once('exit', () => process.off('exit', stop))
  return child
}
