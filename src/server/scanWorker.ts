/** The entry point of a scan worker thread: runs the jobs the server posts and posts back their results. */
import { parentPort } from 'node:worker_threads'
import { NO_TRAFFIC } from '../engine/index.ts'
import { idTable } from './idTable.ts'
import { runScanJob } from './scanJob.ts'
import type { WorkerReply, WorkerRequest } from './scanRunner.ts'

const port = parentPort
if (!port) throw new Error('scanWorker runs as a worker thread of the scan API server')
const running = idTable<AbortController>()

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'abort') {
    running.get(message.id)?.abort()
    return
  }
  const controller = new AbortController()
  running.set(message.id, controller)
  runScanJob(message.job, controller.signal)
    .catch((error: unknown): WorkerReply['result'] => ({
      ok: false,
      error: { kind: 'INTERNAL', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      stats: NO_TRAFFIC,
    }))
    .then((result) => {
      running.delete(message.id)
      port.postMessage({ id: message.id, result } satisfies WorkerReply)
    })
})
