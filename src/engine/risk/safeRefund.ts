/**
 * A Safe transaction's gas refund: with a gas price above zero, the Safe pays whoever executes it (or its
 * `refundReceiver`) `(gasUsed + baseGas) × gasPrice` out of its own funds, in ETH or in `gasToken`. A simulation runs at
 * a gas price of zero, where an ETH refund is zero too, so the payment never shows among the changes: it is read from
 * the signed fields instead. Safe{Wallet} signs every transaction with a gas price of zero.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import { decodeExecTransaction, expandCalls } from '../safe/index.ts'
import {
  nativeCurrency,
  readKeys,
  type SimulationResult,
  type SimulationTx,
  type TokenMetadata,
} from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * More `baseGas` than a refund's own costs (the signatures' calldata and the refund transfer, tens of thousands) can
 * explain: the rest is paid out of the Safe for gas no one spends.
 */
export const REFUND_BASE_GAS_LIMIT = 500_000n

/** A refund that can take this share (percent) of what the Safe holds of the asset it is paid in drains the Safe. */
export const REFUND_DRAIN_PERCENT = 10n

/**
 * Every Safe `execTransaction` among the transactions' calls that pays a refund, naming who is paid and the least
 * they get. CRITICAL when the refund can take REFUND_DRAIN_PERCENT or more of what the Safe holds of the asset it is
 * paid in (ETH, or `gasToken`): what it can cost is `baseGas` plus the gas the simulation used, at the signed gas
 * price. CRITICAL too when `baseGas` alone exceeds REFUND_BASE_GAS_LIMIT, whatever the Safe holds. WARNING otherwise.
 */
export function safeRefundWarnings(
  result: Pick<SimulationResult, 'chainId' | 'outcomes' | 'reads'>,
  txs: SimulationTx[],
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const warnings: Warning[] = []
  txs.forEach((tx, index) => {
    const gasUsed = result.outcomes[index]?.gasUsed ?? 0n
    for (const call of expandCalls({ ...tx, depth: 0 })) {
      const exec = call.to ? decodeExecTransaction(call.data) : null
      if (!exec || !call.to || exec.gasPrice === 0n) continue
      const safe = call.to
      const native = isAddressEqual(exec.gasToken, zeroAddress)
      const token = native ? nativeCurrency(result.chainId) : metadataOf(exec.gasToken)
      const unit = token.symbol ?? `of the token ${shortAddress(exec.gasToken)}`
      const inToken = (value: bigint) =>
        token.decimals === null ? `${value} base units` : `${formatAmount(value, token.decimals)} ${unit}`
      const least = exec.baseGas * exec.gasPrice
      const likely = (exec.baseGas + gasUsed) * exec.gasPrice
      // Before the transactions: a token refund is paid in the simulation too, so the after-read has it taken.
      const key = native ? readKeys.native(safe) : readKeys.erc20Balance(exec.gasToken, safe)
      const held = result.reads.before.get(key)
      const share = typeof held === 'bigint' && held > 0n ? (likely * 100n) / held : null
      const excessive = exec.baseGas > REFUND_BASE_GAS_LIMIT
      const critical = excessive || (share !== null && share >= REFUND_DRAIN_PERCENT)
      const receiver = isAddressEqual(exec.refundReceiver, zeroAddress)
        ? 'whoever executes it'
        : shortAddress(exec.refundReceiver)
      const perGas = native
        ? `${formatAmount(exec.gasPrice, 9)} gwei per unit of gas (at most the executor's own gas price)`
        : `${inToken(exec.gasPrice)} per unit of gas, whatever gas costs`
      const extraGas = formatAmount(exec.baseGas, 0)
      const cost =
        share === null
          ? '. '
          : `, about ${inToken(likely)} with the gas this simulation used: ${share > 100n ? 'more than all' : `${share}%`} ` +
            `of the ${inToken(held as bigint)} the Safe holds. `
      const verdict = !critical
        ? 'Safe{Wallet} signs transactions without refunds: sign only if you expect to pay this executor.'
        : excessive
          ? `No refund needs ${extraGas} gas on top of what the transaction uses: this drains the Safe. Do not sign it.`
          : 'No honest refund takes such a share of what the Safe holds: this drains the Safe. Do not sign it.'
      const message =
        `This Safe transaction pays ${receiver} a gas refund out of the Safe ${shortAddress(safe)}: ${perGas}, for ` +
        `the gas it uses plus ${extraGas} more, so at least ${inToken(least)}${cost}` +
        (native ? 'The simulation runs at a gas price of zero, so this payment is not among the changes. ' : '') +
        verdict
      warnings.push(
        makeWarning('MULTISIG_GAS_REFUND', critical ? 'CRITICAL' : 'WARNING', message, {
          safe: safe.toLowerCase(),
          refundReceiver: exec.refundReceiver.toLowerCase(),
          gasToken: exec.gasToken.toLowerCase(),
          gasPrice: exec.gasPrice.toString(),
          baseGas: exec.baseGas.toString(),
          safeTxGas: exec.safeTxGas.toString(),
          leastRefund: least.toString(),
        }),
      )
    }
  })
  return warnings
}
