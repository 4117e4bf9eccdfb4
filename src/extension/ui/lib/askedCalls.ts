/**
 * What a transaction request asks, read from the params the wallet will receive: shown when no simulation could be
 * made, so the user decides from the recipient, the amount and the call in words instead of hex in the raw JSON.
 */
import { type Hex, isHex, parseTransaction } from 'viem'
import type { PendingRequest } from '../../shared/pending.ts'
import { formatAmount, nativeSymbol } from './format.ts'

/** One call: its recipient (null for a contract deployment), the currency it sends, and its data in words. */
export type AskedCall = { to: string | null; value: string; data: string }

type CallFields = { to?: unknown; value?: unknown; data?: unknown; input?: unknown }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** "none", or "function 0xa9059cbb, 68 bytes": the selector a wallet's own screen would show, and the size. */
function dataWords(data: unknown): string {
  if (typeof data !== 'string' || !isHex(data) || data.length <= 2) return 'none'
  const bytes = (data.length - 2) / 2
  return bytes >= 4 ? `function ${data.slice(0, 10)}, ${bytes} bytes` : `${bytes} bytes`
}

function asked(call: CallFields, chainId: number): AskedCall {
  const value = typeof call.value === 'string' && isHex(call.value) ? BigInt(call.value) : 0n
  return {
    to: typeof call.to === 'string' ? call.to : null,
    value: `${formatAmount(value, 18)} ${nativeSymbol(chainId)}`,
    data: dataWords(call.data ?? call.input),
  }
}

/** The calls a transaction request makes, in order; null for a request that is no transaction (a signature). */
export function askedCalls(request: Pick<PendingRequest, 'method' | 'params' | 'chainId'>): AskedCall[] | null {
  const first = request.params[0]
  switch (request.method) {
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
    case 'eth_signTransaction':
      return isRecord(first) ? [asked(first, request.chainId)] : null
    case 'wallet_sendCalls':
      return isRecord(first) && Array.isArray(first.calls)
        ? first.calls.filter(isRecord).map((call) => asked(call, request.chainId))
        : null
    case 'eth_sendRawTransaction':
    case 'eth_sendRawTransactionSync': {
      if (typeof first !== 'string' || !isHex(first)) return null
      try {
        const tx = parseTransaction(first as Hex)
        const value = tx.value === undefined ? undefined : `0x${tx.value.toString(16)}`
        return [asked({ to: tx.to ?? undefined, value, data: tx.data }, tx.chainId ?? request.chainId)]
      } catch {
        return null
      }
    }
    default:
      return null
  }
}
