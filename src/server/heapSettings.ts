/**
 * V8 heap settings of a serve process, for its main thread and every scan thread started after them. The defaults
 * suit a program whose objects either die young or live long; a scan server's objects live for one request, often
 * across a young-generation collection when many requests are in flight, and V8's defaults then filled the old
 * generation with them (README, "Scan API under load").
 */
import { setFlagsFromString } from 'node:v8'

/** The semi-space of each scan thread's young generation, in MB. */
export const SCAN_THREAD_SEMI_SPACE_MB = 32

/**
 * - Heap growth 100 %: left to itself V8 lets a busy heap grow to up to four times what its last full collection kept,
 *   so RSS climbed by a fifth over a few thousand scans and fell back, a saw-tooth wide enough to hide a leak; at 100 %
 *   it stayed within 4 % over 10,000 scans.
 * - No allocation-site pretenuring: V8 saw a request's objects (parsed node answers among them) survive a
 *   young-generation collection and began allocating them straight into the old generation, where they died an
 *   instant later: at c = 32 the scan thread ran a full collection every 0.35–0.5 s (every 1.3–1.9 s with pretenuring
 *   off), and each paused every scan in flight.
 * - A 32 MB semi-space for the scan threads (twice V8's default): fewer young-generation collections, so fewer
 *   requests' objects are caught alive by one and promoted. The main thread's young generation was sized when the
 *   process started and keeps V8's default.
 */
export const HEAP_FLAGS = [
  '--heap-growing-percent=100',
  '--no-allocation-site-pretenuring',
  `--max-semi-space-size=${SCAN_THREAD_SEMI_SPACE_MB}`,
] as const

/**
 * Applies HEAP_FLAGS to this process. V8 reads them at each collection and as each heap is set up, so setting them at
 * run time takes effect for the heaps that exist and the threads started later; NODE_OPTIONS accepts only the last.
 */
export function applyHeapSettings(): void {
  for (const flag of HEAP_FLAGS) setFlagsFromString(flag)
}
