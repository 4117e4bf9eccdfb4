/**
 * Turns what dapps really send into one shape for the scan: typed data as an object, quantities as 0x-hex strings,
 * data with 0x, personal_sign parameters in the standard order, and the signer filled in from the provider.
 * Malformed input is passed on as it is: the scan then reports it and the user decides (it is never approved here).
 */
import { isAddress, numberToHex } from 'viem'
import type { ScanCall } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import { parseJsonLossless } from './losslessJson.ts'

/** Asks the wallet provider a read-only question (eth_accounts, eth_chainId). */
export type AskProvider = (method: string) => Promise<unknown>

export class NoAccountError extends Error {
  readonly code = 4100
  constructor() {
    super('The wallet reported no account (eth_accounts is empty): connect the wallet first.')
  }
}

const isAddr = (value: unknown): value is string => typeof value === 'string' && isAddress(value, { strict: false })
const HEX_DIGITS = /^[0-9a-fA-F]*$/

/** A quantity (number, bigint, decimal or hex string) as 0x-hex; anything else is returned unchanged. */
export function toQuantity(value: unknown): unknown {
  if (typeof value === 'bigint' && value >= 0n) return numberToHex(value)
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return numberToHex(BigInt(value))
  if (typeof value === 'string' && /^\d+$/.test(value)) return numberToHex(BigInt(value))
  if (typeof value === 'string' && /^0x[0-9a-fA-F]*$/i.test(value)) return value === '0x' ? '0x0' : value.toLowerCase()
  return value
}

/** Calldata with its 0x prefix; leaves non-hex input for the scan to report. */
export function toData(value: unknown): unknown {
  if (typeof value === 'string' && !value.startsWith('0x') && HEX_DIGITS.test(value)) return `0x${value}`
  return value
}

/** Numbers a JSON double cannot hold exactly, and bigints, as decimal strings, recursively; other values as they are. */
export function exactNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return BigInt(value).toString()
  }
  if (Array.isArray(value)) return value.map(exactNumbers)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exactNumbers(inner)]))
  }
  return value
}

/** Typed data as an object: parses a JSON string losslessly; an unparsable string is kept for the scan to reject. */
function toTypedData(value: unknown): unknown {
  if (typeof value !== 'string') return exactNumbers(value)
  try {
    return parseJsonLossless(value)
  } catch {
    return value
  }
}

type Tx = Record<string, unknown>

function toTx(raw: unknown, from: string): Tx {
  const tx = (raw && typeof raw === 'object' ? raw : {}) as Tx
  const out: Tx = { from }
  if (tx.to !== undefined && tx.to !== null) out.to = tx.to
  const data = tx.data ?? tx.input
  if (data !== undefined && data !== null) out.data = toData(data)
  if (tx.value !== undefined && tx.value !== null) out.value = toQuantity(tx.value)
  const gas = tx.gas ?? tx.gasLimit
  if (gas !== undefined && gas !== null) out.gas = toQuantity(gas)
  return out
}

async function accountOr(candidate: unknown, ask: AskProvider): Promise<string> {
  if (isAddr(candidate)) return candidate
  const accounts = await ask('eth_accounts')
  const first = Array.isArray(accounts) ? accounts[0] : undefined
  if (!isAddr(first)) throw new NoAccountError()
  return first
}

/** Normalises an intercepted call's params and finds its signer; throws NoAccountError when the wallet has none. */
export async function normalizeParams(
  method: InterceptedMethod,
  params: unknown,
  ask: AskProvider,
): Promise<Pick<ScanCall, 'params' | 'account'>> {
  const list = Array.isArray(params) ? params : params === undefined ? [] : [params]
  const [first, second] = list
  switch (method) {
    case 'eth_sendTransaction': {
      const account = await accountOr((first as Tx | undefined)?.from, ask)
      return { account, params: [toTx(first, account)] }
    }
    case 'wallet_sendCalls': {
      const batch = (first && typeof first === 'object' ? first : {}) as Tx
      const account = await accountOr(batch.from, ask)
      const calls = Array.isArray(batch.calls) ? batch.calls.map((call) => toTx(call, account)) : batch.calls
      return { account, params: [{ ...(exactNumbers(batch) as Tx), from: account, calls }] }
    }
    case 'eth_signTypedData_v4':
    case 'eth_signTypedData_v3': {
      const [signer, data] = !isAddr(first) && isAddr(second) ? [second, first] : [first, second]
      const account = await accountOr(signer, ask)
      return { account, params: [account, toTypedData(data)] }
    }
    case 'personal_sign': {
      // The standard order is [message, account]; some dapps send [account, message].
      const [message, signer] = isAddr(second) || !isAddr(first) ? [first, second] : [second, first]
      const account = await accountOr(signer, ask)
      return { account, params: [message, account] }
    }
    case 'eth_sign': {
      const account = await accountOr(first, ask)
      return { account, params: [account, second] }
    }
  }
}
