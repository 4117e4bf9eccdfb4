/**
 * How much a serve process's heaps may grow past what their last full collection kept before the next one. Left to
 * itself V8 lets a busy heap grow to up to four times that, and part of every request's garbage reaches the old
 * generation, so RSS climbed by a fifth over a few thousand scans and fell back: a saw-tooth wide enough to hide a
 * leak. At 100 % it stayed within 4 % over 10,000 scans, for CPU the bench could not tell apart (README, "Scan API
 * under load").
 */
import { setFlagsFromString } from 'node:v8'

export const HEAP_GROWING_PERCENT = 100

/**
 * Applies the limit to every heap of this process, scan threads included. V8 reads the flag at each full collection,
 * so setting it at run time takes effect; NODE_OPTIONS does not accept it.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
