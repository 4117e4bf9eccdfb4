/**
 * A transaction's nonce is its place in the account's order: the network runs an account's transactions in nonce
 * order, one each. A site that fixes the nonce can make a transaction replace one of the user's still waiting, or
 * wait behind transactions not yet sent and run whenever they are, in that day's state rather than the simulated one.
 */
import type { Warning } from '../api/index.ts'
import type { AccountNonces } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

const transactions = (count: bigint) => (count === 1n ? 'one transaction' : `${count} transactions`)

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
  if (nonce > next) {
    return [
      makeWarning(
        'TRANSACTION_RUNS_LATER',
        'WARNING',
        `This transaction is numbered ${nonce} (its nonce, set by the site), but your next is ${next}: it cannot run until ${transactions(nonce - next)} of yours have, and then runs in the chain's state of that day, whatever it is, not the one simulated here.`,
        data,
      ),
    ]
  }
  return []
}
