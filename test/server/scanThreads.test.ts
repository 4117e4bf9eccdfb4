import { describe, expect, it } from 'vitest'
import type { ScanJob } from '../../src/server/scanJob.ts'
import { defaultScanThreads, threadRunner } from '../../src/server/scanRunner.ts'

describe('defaultScanThreads', () => {
  it('leaves one core to the thread that speaks HTTP', () => {
    expect(defaultScanThreads(2)).toBe(1)
    expect(defaultScanThreads(8)).toBe(7)
    expect(defaultScanThreads(64)).toBe(63)
  })

  it('scans on the main thread of a one-core machine', () => {
    expect(defaultScanThreads(1)).toBe(0)
  })
})

describe('threadRunner', () => {
  it('answers a job it cannot hand to its thread with an INTERNAL error instead of keeping it forever', async () => {
    // The compiled worker, as `serve` starts it (npm test builds it first).
    const runner = threadRunner(1, new URL('../../build/scanWorker.mjs', import.meta.url))
    try {
      // A function cannot be copied to another thread: postMessage throws for it.
      const job = { kind: 'message', body: { uncopyable: () => 0 } } as unknown as ScanJob
      const result = await runner.run(job, new AbortController().signal)
      expect(result).toMatchObject({ ok: false, error: { kind: 'INTERNAL' } })
      expect(result.ok || result.error.message).toMatch(/could not be handed to its thread: DataCloneError/)
    } finally {
      await runner.close()
    }
  })
})
