/**
 * Where scans run: inline on the server's thread, or spread over worker threads so a process uses every core while
 * its main thread only speaks HTTP. Either way a scan is a plain ScanJob in and a ScanJobResult out.
 */
import { Worker } from 'node:worker_threads'
import { NO_TRAFFIC } from '../engine/index.ts'
import { type IdTable, idTable } from './idTable.ts'
import { runScanJob, type ScanJob, type ScanJobResult } from './scanJob.ts'

export type ScanRunner = {
  /** Runs a job; aborting `signal` cancels its node calls (the result then arrives promptly, as a node error). */
  run: (job: ScanJob, signal: AbortSignal) => Promise<ScanJobResult>
  /** How many threads scan (0 when inline). */
  threads: number
  close: () => Promise<void>
}

/**
 * Scan threads for a machine with `cores` cores: one core is left to the main thread, which parses, validates and
 * answers HTTP for every scan. A thread per core oversubscribes them: on two cores one thread served more scans per
 * second than two, for less CPU per scan (README, "Scan API under load"). A one-core machine scans on its only thread.
 */
export function defaultScanThreads(cores: number): number {
  return Math.max(0, cores - 1)
}

/** Scans on the caller's thread: for tests and for a process that should use one core. */
export function inlineRunner(): ScanRunner {
  return { run: runScanJob, threads: 0, close: async () => {} }
}

export type WorkerRequest = { type: 'scan'; id: number; job: ScanJob } | { type: 'abort'; id: number }
export type WorkerReply = { id: number; result: ScanJobResult }

type Slot = { worker: Worker; pending: IdTable<(result: ScanJobResult) => void> }

/**
 * `count` worker threads running `workerFile` (scanWorker's compiled entry). Each job goes to the thread with the fewest
 * jobs in flight; a thread that dies fails its jobs as INTERNAL errors and is replaced.
 */
export function threadRunner(count: number, workerFile: URL): ScanRunner {
  let closing = false
  const slots: Slot[] = []
  const start = (index: number) => {
    const worker = new Worker(workerFile)
    const slot: Slot = { worker, pending: idTable() }
    worker.on('message', ({ id, result }: WorkerReply) => {
      slot.pending.get(id)?.(result)
      slot.pending.delete(id)
    })
    worker.on('error', () => {})
    worker.on('exit', () => {
      for (const settle of slot.pending.values()) {
        settle({
          ok: false,
          error: { kind: 'INTERNAL', message: 'the scan thread stopped during the scan' },
          stats: NO_TRAFFIC,
        })
      }
      slot.pending.clear()
      if (!closing) start(index)
    })
    // Idle threads must not keep a stopping process alive.
    worker.unref()
    slots[index] = slot
  }
  for (let index = 0; index < count; index += 1) start(index)

  return {
    threads: count,
    run: (job, signal) =>
      new Promise((resolve) => {
        const slot = slots.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best))
        const id = slot.pending.add((result) => {
          signal.removeEventListener('abort', onAbort)
          resolve(result)
        })
        const onAbort = () => slot.worker.postMessage({ type: 'abort', id } satisfies WorkerRequest)
        signal.addEventListener('abort', onAbort, { once: true })
        try {
          slot.worker.postMessage({ type: 'scan', id, job } satisfies WorkerRequest)
        } catch (error) {
          // A job that cannot be copied to the thread never reaches it: its entry would otherwise wait forever,
          // holding the job and counting against the thread.
          slot.pending.get(id)?.({
            ok: false,
            error: { kind: 'INTERNAL', message: `the scan could not be handed to its thread: ${String(error)}` },
            stats: NO_TRAFFIC,
          })
          slot.pending.delete(id)
        }
      }),
    close: async () => {
      closing = true
      await Promise.all(slots.map((slot) => slot.worker.terminate()))
    },
  }
}
