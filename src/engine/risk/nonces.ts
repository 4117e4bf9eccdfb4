/**
 * A transaction's nonce is its place in the account's order: the network runs an account's transactions in nonce
 * order, one each. A site that fixes the nonce can make a transaction replace one of the user's still waiting, or
 * wait behind transactions not yet sent and run whenever they are, in that day's state rather than the simulated one.
 */
import type { Warning } from '../api/index.ts'
import type { AccountNonces } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** "one transaction of yours has", "3 transactions of yours have": what must run first. */
const haveRun = (count: bigint) =>
  count === 1n ? 'one transaction of yours has' : `${count} transactions of yours have`

/** The first nonce no account can reach (EIP-2681: a nonce stays below 2^64 − 1). */
const NONCE_LIMIT = 2n ** 64n - 1n

/** Warnings for a transaction numbered `nonce` by the site, judged against the account's nonces now. */
export function nonceWarnings(nonce: bigint, account: AccountNonces): Warning[] {
  const next = account.pending
  const data = { nonce: nonce.toString(), mined: account.mined.toString(), next: next.toString() }
  if (nonce < account.mined) {
    return [
      makeWarning(
        'TRANSACTION_NONCE_USED',
        'WARNING',
        `This transaction is numbered ${nonce} (its nonce, set by the site), a number a mined transaction of yours already took: the network will refuse it.`,
        data,
      ),
    ]
  }
  if (nonce < next) {
    return [
      makeWarning(
        'TRANSACTION_REPLACES_PENDING',
        'WARNING',
        `This transaction is numbered ${nonce} (its nonce, set by the site), like a transaction of yours still waiting to be mined: with a higher fee it takes that one's place, and that one never runs.`,
        data,
      ),
    ]
  }
  if (nonce >= NONCE_LIMIT) {
    return [
      makeWarning(
        'TRANSACTION_RUNS_LATER',
        'WARNING',
        `This transaction is numbered ${nonce} (its nonce, set by the site), past the last number an account can reach (2^64 − 2): no network will ever run it.`,
        data,
      ),
    ]
  }
  if (nonce > next) {
    return [
      makeWarning(
        'TRANSACTION_RUNS_LATER',
        'WARNING',
        `This transaction is numbered ${nonce} (its nonce, set by the site), but your next is ${next}: it cannot run until ${haveRun(nonce - next)}, and then runs in the chain's state of that day, whatever it is, not the one simulated here.`,
        data,
      ),
    ]
  }
  return []
}
