import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const CHILD = join(import.meta.dirname, 'fixtures/heapGrowthChild.ts')
const TSX = join(import.meta.dirname, '../../node_modules/.bin/tsx')

/** Each thread's peak old-space use (MB) in a fresh process churning long-lived garbage. */
async function peaks(limit: boolean): Promise<{ main: number; worker: number }> {
  const { stdout } = await run(TSX, [CHILD, limit ? 'limit' : 'none'])
  return JSON.parse(stdout)
}

describe('limitHeapGrowth', () => {
  it('keeps the old generation of the process and of threads started after it near what survives', async () => {
    const [free, limited] = await Promise.all([peaks(false), peaks(true)])
    // Measured: 123 and 163 MB left to V8, 56 and 56 MB limited; what is live at any time is under 30 MB.
    expect(limited.main).toBeLessThan(free.main * 0.7)
    expect(limited.worker).toBeLessThan(free.worker * 0.7)
    expect(limited.worker).toBeLessThan(80)
  }, 60_000)
})
