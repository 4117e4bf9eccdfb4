/**
 * How far an amount may move against the user between two runs of the same transactions before it counts: an AMM's
 * output moves by a fraction of a percent between blocks, and a dapp's own slippage bound (0.5–1 % as a rule) caps
 * what an honest swap gives up to it. A switched or evasive contract moves the whole amount. One rule for the
 * environment probe (simulationEvasion.ts) and the extension's re-check (outcomeDrift.ts).
 */
const OUTCOME_TOLERANCE_PERCENT = 2n

const abs = (value: bigint) => (value < 0n ? -value : value)

/** Whether `loss` (positive: against the user) is past the tolerance of both amounts, so of the larger one. */
export function pastTolerance(loss: bigint, first: bigint, second: bigint): boolean {
  const past = (amount: bigint) => loss * 100n > abs(amount) * OUTCOME_TOLERANCE_PERCENT
  return loss > 0n && past(first) && past(second)
}
