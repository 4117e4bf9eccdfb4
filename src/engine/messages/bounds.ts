/**
 * How an order's amounts bind, in the words of its state changes ("Receive at least 2 WETH"): written here once, and
 * read back by the window, which imports this module alone.
 */

/**
 * How an amount binds when the order is filled: exactly, at most (a buy order's price limit), up to (an order that can
 * be filled in part pays and is paid in proportion), or at least (the least a fill-or-kill sell order is paid).
 */
export type Bound = 'exact' | 'atMost' | 'upTo' | 'atLeast'

/** The words a state change of a bound amount starts with: "Send at most 5 USDC", "Receive at least 2 WETH". */
export const BOUND_WORDS: Record<Bound, string> = {
  exact: '',
  atMost: 'at most ',
  upTo: 'up to ',
  atLeast: 'at least ',
}

/** How the amount of an order's state change binds, read back from the words BOUND_WORDS put in its sentence. */
export function boundOf(humanReadableDiff: string): Bound | null {
  for (const [bound, words] of Object.entries(BOUND_WORDS) as [Bound, string][]) {
    if (words && [`Send ${words}`, `Receive ${words}`].some((start) => humanReadableDiff.startsWith(start)))
      return bound
  }
  return null
}
