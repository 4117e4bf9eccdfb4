/** Small statistics for benchmark samples. */

/** The sum of `samples`. */
export function sum(samples: readonly number[]): number {
  return samples.reduce((total, value) => total + value, 0)
}

/** The arithmetic mean of `samples`; NaN for no samples. */
export function mean(samples: readonly number[]): number {
  return sum(samples) / samples.length
}

/** The q-th quantile (0..1) of `samples` by nearest rank; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] as number
}

/** How far the tail reaches past the middle: p99 over p50 (the load targets want it within 2). */
export function tailRatio(samples: readonly number[]): number {
  return quantile(samples, 0.99) / quantile(samples, 0.5)
}

/** The value seen most often (ties: the largest), for counts that should not vary between runs. */
export function mode(samples: readonly number[]): number {
  const counts = new Map<number, number>()
  for (const value of samples) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best = Number.NaN
  let bestCount = 0
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value > best)) {
      best = value
      bestCount = count
    }
  }
  return best
}
