/**
 * The fee is part of what a person signs: a transaction that offers an absurd price per gas pays it whatever else it
 * does (a 1-wei transfer can cost thousands of ETH). Judged against the base fee of the block the transaction would
 * follow, and, for plain transfers, against the value sent. The reference API has no kind for fees; its gas kind,
 * UNUSUAL_GAS_CONSUMPTION, carries them, so clients written against it need nothing new.
 */
import type { Warning } from '../api/index.ts'
import { formatAmount } from '../assets/index.ts'
import { nativeCurrency, type SimulationResult, type SimulationTx, type TxFees } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

const GWEI = 10n ** 9n
/** Above this many times the base fee (plus a margin for tips on quiet chains), a price is far over what is needed. */
const WARN_BASE_MULTIPLE = 5n
const WARN_MARGIN = 50n * GWEI
/** Above this it is out of all proportion: no congestion or tip explains it. */
const CRITICAL_BASE_MULTIPLE = 100n
const CRITICAL_MARGIN = 1000n * GWEI
/** On a chain that reports no base fee, the same judgement by absolute prices. */
const WARN_ABSOLUTE = 500n * GWEI
const CRITICAL_ABSOLUTE = 10_000n * GWEI

/** What a transaction pays per gas at most, and what it is expected to pay given the base fee. */
export function pricePerGas(fees: TxFees, baseFee: bigint | null): { expected: bigint; worst: bigint } {
  if (fees.kind === 'legacy') return { expected: fees.gasPrice, worst: fees.gasPrice }
  const tip = fees.maxPriorityFeePerGas ?? 0n
  const cap = fees.maxFeePerGas
  const byTip = baseFee === null ? tip : baseFee + tip
  const expected = cap === null ? byTip : cap < byTip ? cap : byTip
  return { expected, worst: cap ?? byTip }
}

const gweiText = (wei: bigint) => `${formatAmount(wei, 9)} gwei`

/** Warnings for fees out of proportion; the gas limit is the one set, else the gas the simulation used. */
export function feeWarnings(result: SimulationResult, txs: SimulationTx[]): Warning[] {
  const native = nativeCurrency(result.chainId)
  const baseFee = result.baseFeePerGas
  const warnings: Warning[] = []
  for (const [index, tx] of txs.entries()) {
    if (!tx.fees) continue
    const gasLimit = tx.gas ?? result.outcomes[index]?.gasUsed ?? 0n
    const price = pricePerGas(tx.fees, baseFee)
    const worstFee = gasLimit * price.worst
    const expectedFee = gasLimit * price.expected
    const cost = `${formatAmount(worstFee, native.decimals)} ${native.symbol}`
    const offered = gweiText(price.expected)
    const against = baseFee === null ? '' : `, against a base fee of ${gweiText(baseFee)}`
    const critical =
      baseFee === null
        ? price.expected > CRITICAL_ABSOLUTE
        : price.expected > baseFee * CRITICAL_BASE_MULTIPLE + CRITICAL_MARGIN
    const high =
      baseFee === null ? price.expected > WARN_ABSOLUTE : price.expected > baseFee * WARN_BASE_MULTIPLE + WARN_MARGIN
    const plainTransfer = tx.data === '0x' && tx.value > 0n
    if (critical) {
      warnings.push(
        makeWarning(
          'UNUSUAL_GAS_CONSUMPTION',
          'CRITICAL',
          `The fee of this transaction is out of all proportion: it can cost up to ${cost} (${offered} per gas${against}). ` +
            'You pay the fee even if the transaction does nothing else.',
        ),
      )
    } else if (high) {
      warnings.push(
        makeWarning(
          'UNUSUAL_GAS_CONSUMPTION',
          'WARNING',
          `This transaction offers ${offered} per gas${against}, far more than the network needs: it can cost up to ${cost}.`,
        ),
      )
    } else if (plainTransfer && expectedFee > tx.value && expectedFee * 100n >= 10n ** BigInt(native.decimals)) {
      warnings.push(
        makeWarning(
          'UNUSUAL_GAS_CONSUMPTION',
          'WARNING',
          `The fee (up to ${cost}) is larger than the ${formatAmount(tx.value, native.decimals)} ${native.symbol} this sends.`,
        ),
      )
    }
  }
  return warnings
}
