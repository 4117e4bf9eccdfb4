/**
 * The fee a transaction request commits to, as the window shows it: the gas limit, the price per gas the wallet is
 * told to pay, and the most the fee can come to; and its nonce, where the site fixed it. Computed from the params the
 * wallet will receive (fields the dapp left out are the wallet's to choose, and said so), with the simulated gas
 * standing in for a missing gas limit.
 */
import { type Hex, hexToBigInt, isHex, parseTransaction } from 'viem'
import type { PendingRequest } from '../../shared/pending.ts'
import { formatAmount, formatUsd, nativeSymbol } from './format.ts'

export type FeeView = {
  /** "21,000", with where it came from. */
  gasLimit: { text: string; source: 'request' | 'simulation' } | null
  /** "Gas price 2 gwei", "Max fee 30 gwei, tip 1.5 gwei"; null when the wallet chooses. */
  price: string | null
  /** "2,100 ETH" (and "≈ $…" where a price exists); null when it depends on what the wallet chooses. */
  worstCase: string | null
  /** "1042" (never grouped): the transaction's place in the account's order, where the site fixed it; else null. */
  nonce: string | null
}

type TxFees = { gas?: bigint; gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; nonce?: bigint }

const quantity = (value: unknown): bigint | undefined =>
  typeof value === 'string' && isHex(value) && value.length > 2 ? hexToBigInt(value as Hex) : undefined

/** The fee fields of the transaction the wallet will sign, or undefined for requests without one. */
function feesOf(request: PendingRequest): TxFees | undefined {
  if (
    request.method === 'eth_sendTransaction' ||
    request.method === 'wallet_sendTransaction' ||
    request.method === 'eth_signTransaction'
  ) {
    const tx = (request.params[0] ?? {}) as Record<string, unknown>
    return {
      gas: quantity(tx.gas) ?? quantity(tx.gasLimit),
      gasPrice: quantity(tx.gasPrice),
      maxFeePerGas: quantity(tx.maxFeePerGas),
      maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas),
      nonce: quantity(tx.nonce),
    }
  }
  if (request.method === 'eth_sendRawTransaction' || request.method === 'eth_sendRawTransactionSync') {
    try {
      const tx = parseTransaction(request.params[0] as Hex)
      return {
        gas: tx.gas,
        gasPrice: tx.gasPrice,
        maxFeePerGas: tx.maxFeePerGas,
        maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
        nonce: tx.nonce === undefined ? undefined : BigInt(tx.nonce),
      }
    } catch {
      return {}
    }
  }
  return undefined
}

const gwei = (wei: bigint) => `${formatAmount(wei, 9)} gwei`

/**
 * The native currency's dollar price as the scan read it (on chain, with the transactions): the price on any native
 * transfer among its state changes; null when the scan has none.
 */
export function nativePriceOf(request: PendingRequest): number | null {
  if (request.scan.status !== 'DONE' || request.scan.kind !== 'transactions') return null
  const changes = Object.values(request.scan.response.simulationResults.aggregated.expectedStateChanges).flat()
  for (const { rawInfo } of changes) {
    const price = rawInfo.kind === 'NATIVE_ASSET_TRANSFER' ? rawInfo.data.asset.price : null
    if (price) return price.dollarValuePerToken
  }
  return null
}

/**
 * The fee view of a transaction request; null for messages and batches (whose fees the wallet sets). Dollars use the
 * scan's own native price unless one is given.
 */
export function feeView(request: PendingRequest, nativePrice: number | null = nativePriceOf(request)): FeeView | null {
  const fees = feesOf(request)
  if (!fees) return null
  const simulated =
    request.scan.status === 'DONE' && request.scan.kind === 'transactions'
      ? request.scan.response.simulationResults.perTransaction[0]?.gas.gasLimit
      : undefined
  const gasLimit = fees.gas ?? (simulated ? BigInt(simulated) : undefined)
  const price =
    fees.gasPrice !== undefined
      ? `Gas price ${gwei(fees.gasPrice)}`
      : fees.maxFeePerGas !== undefined || fees.maxPriorityFeePerGas !== undefined
        ? [
            fees.maxFeePerGas !== undefined ? `Max fee ${gwei(fees.maxFeePerGas)}` : 'Max fee: wallet chooses',
            fees.maxPriorityFeePerGas !== undefined ? `tip ${gwei(fees.maxPriorityFeePerGas)}` : null,
          ]
            .filter(Boolean)
            .join(', ')
        : null
  const cap = fees.gasPrice ?? fees.maxFeePerGas
  const worst = cap !== undefined && gasLimit !== undefined ? gasLimit * cap : undefined
  const usd = worst === undefined ? null : formatUsd(worst, 18, nativePrice)
  return {
    gasLimit:
      gasLimit === undefined
        ? null
        : { text: BigInt(gasLimit).toLocaleString('en-US'), source: fees.gas !== undefined ? 'request' : 'simulation' },
    price,
    worstCase:
      worst === undefined
        ? null
        : `${formatAmount(worst, 18)} ${nativeSymbol(request.chainId)}${usd ? ` ≈ ${usd}` : ''}`,
    nonce: fees.nonce === undefined ? null : fees.nonce.toString(),
  }
}
