/**
 * A fixed piece of one thread's CPU work, timed, for the bench to print beside its figures: this machine's host has run
 * the same build at under half its usual pace on some days, and CPU per scan moves with it, so runs compare only with
 * their pace beside them.
 */

/** The best of three times, in ms, for `rounds` JSON round trips (parse, then stringify) of `document`. */
export function hostPace(document: string, rounds = 5_000): number {
  const once = () => {
    const start = performance.now()
    for (let round = 0; round < rounds; round += 1) JSON.stringify(JSON.parse(document))
    return performance.now() - start
  }
  once()
  return Math.min(once(), once(), once())
}
