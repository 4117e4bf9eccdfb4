/**
 * A Safe transaction's gas refund: with a gas price above zero, the Safe pays whoever executes it (or its
 * `refundReceiver`) `(gasUsed + baseGas) × gasPrice` out of its own funds, in ETH or in `gasToken`. A simulation runs at
 * a gas price of zero, where an ETH refund is zero too, so the payment never shows among the changes: it is read from
 * the signed fields instead. Safe{Wallet} signs every transaction with a gas price of zero.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import { type Call, decodeExecTransaction } from '../safe/index.ts'
import { nativeCurrency, type TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * More `baseGas` than a refund's own costs (the signatures' calldata and the refund transfer, tens of thousands) can
 * explain: the rest is paid out of the Safe for gas no one spends.
 */
export const REFUND_BASE_GAS_LIMIT = 500_000n

/**
 * Every Safe `execTransaction` among `calls` that pays a refund: CRITICAL when `baseGas` alone pays for more gas than
 * a refund needs (REFUND_BASE_GAS_LIMIT), WARNING otherwise, naming who is paid and the least they get.
 */
export function safeRefundWarnings(
  chainId: number,
  calls: Call[],
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const warnings: Warning[] = []
  for (const call of calls) {
    const exec = call.to ? decodeExecTransaction(call.data) : null
    if (!exec || !call.to || exec.gasPrice === 0n) continue
    const native = isAddressEqual(exec.gasToken, zeroAddress)
    const token = native ? nativeCurrency(chainId) : metadataOf(exec.gasToken)
    const unit = token.symbol ?? `of the token ${shortAddress(exec.gasToken)}`
    const inToken = (value: bigint) =>
      token.decimals === null ? `${value} base units` : `${formatAmount(value, token.decimals)} ${unit}`
    const least = exec.baseGas * exec.gasPrice
    const receiver = isAddressEqual(exec.refundReceiver, zeroAddress)
      ? 'whoever executes it'
      : shortAddress(exec.refundReceiver)
    const excessive = exec.baseGas > REFUND_BASE_GAS_LIMIT
    const perGas = native
      ? `${formatAmount(exec.gasPrice, 9)} gwei per unit of gas (at most the executor's own gas price)`
      : `${inToken(exec.gasPrice)} per unit of gas, whatever gas costs`
    const extraGas = formatAmount(exec.baseGas, 0)
    const message =
      `This Safe transaction pays ${receiver} a gas refund out of the Safe ${shortAddress(call.to)}: ${perGas}, for ` +
      `the gas it uses plus ${extraGas} more, so at least ${inToken(least)}. ` +
      (native ? 'The simulation runs at a gas price of zero, so this payment is not among the changes. ' : '') +
      (excessive
        ? `No refund needs ${extraGas} gas on top of what the transaction uses: this drains the Safe. Do not sign it.`
        : 'Safe{Wallet} signs transactions without refunds: sign only if you expect to pay this executor.')
    warnings.push(
      makeWarning('MULTISIG_GAS_REFUND', excessive ? 'CRITICAL' : 'WARNING', message, {
        safe: call.to.toLowerCase(),
        refundReceiver: exec.refundReceiver.toLowerCase(),
        gasToken: exec.gasToken.toLowerCase(),
        gasPrice: exec.gasPrice.toString(),
        baseGas: exec.baseGas.toString(),
        safeTxGas: exec.safeTxGas.toString(),
        leastRefund: least.toString(),
      }),
    )
  }
  return warnings
}
