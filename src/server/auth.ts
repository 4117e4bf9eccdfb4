/** API key checks (seed §5): every scan request carries `X-Api-Key`. */
import { createHash, timingSafeEqual } from 'node:crypto'

/** Returns a checker that says whether a presented key is one of `keys`, in time independent of the key contents. */
export function apiKeyChecker(keys: readonly string[]): (presented: string | undefined) => boolean {
  // Comparing fixed-length digests keeps the comparison constant-time even when lengths differ.
  const digests = keys.map(digest)
  return (presented) => {
    if (presented === undefined || presented === '') return false
    const candidate = digest(presented)
    let match = false
    for (const known of digests) match = timingSafeEqual(known, candidate) || match
    return match
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}
