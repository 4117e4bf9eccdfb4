/**
 * Builds the scan API request for an intercepted wallet call. The params come from the page, so nothing about their
 * shape is assumed: a call that cannot be turned into a request gets an INVALID_REQUEST naming the field.
 */
import type {
  InvalidRequest,
  ScanMessageRequest,
  ScanTransactionsRequest,
  TxObject,
  TypedDataPayload,
} from '../../engine/index.ts'
import type { InterceptedMethod } from '../shared/pending.ts'

export type ScanRequest =
  | { kind: 'transactions'; request: ScanTransactionsRequest }
  | { kind: 'message'; request: ScanMessageRequest }

export type Built = { ok: true; scan: ScanRequest } | { ok: false; error: InvalidRequest }

const invalid = (field: string, message: string): Built => ({
  ok: false,
  error: { kind: 'INVALID_REQUEST', field, message },
})
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined)

function txObject(raw: unknown, from: string): TxObject | undefined {
  if (!isObject(raw)) return undefined
  const tx: TxObject = { from }
  for (const key of ['to', 'data', 'value', 'gas'] as const) {
    const value = optionalString(raw[key])
    if (value !== undefined) tx[key] = value
  }
  return tx
}

/** The request the engine (or a remote scan API) takes for `method` with the hook's normalised params. */
export function buildScanRequest(method: InterceptedMethod, params: unknown[], account: string, origin: string): Built {
  const metadata = { origin }
  const [first, second] = params
  switch (method) {
    case 'eth_sendTransaction': {
      const tx = txObject(first, account)
      if (!tx) return invalid('params[0]', 'eth_sendTransaction needs a transaction object')
      return { ok: true, scan: { kind: 'transactions', request: { txObjects: [tx], userAccount: account, metadata } } }
    }
    case 'wallet_sendCalls': {
      const calls = isObject(first) ? first.calls : undefined
      if (!Array.isArray(calls) || calls.length === 0) {
        return invalid('params[0].calls', 'wallet_sendCalls needs a non-empty list of calls')
      }
      const txObjects: TxObject[] = []
      for (const [index, call] of calls.entries()) {
        const tx = txObject(call, account)
        if (!tx) return invalid(`params[0].calls[${index}]`, 'each call must be an object')
        txObjects.push(tx)
      }
      return { ok: true, scan: { kind: 'transactions', request: { txObjects, userAccount: account, metadata } } }
    }
    case 'eth_signTypedData_v4':
    case 'eth_signTypedData_v3': {
      if (!isObject(second)) return invalid('params[1]', 'typed data must be a JSON object (or a string holding one)')
      const data = second as TypedDataPayload
      return {
        ok: true,
        scan: {
          kind: 'message',
          request: { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: account, metadata },
        },
      }
    }
    case 'personal_sign':
    case 'eth_sign': {
      const rawMessage = method === 'personal_sign' ? first : second
      const field = method === 'personal_sign' ? 'params[0]' : 'params[1]'
      if (typeof rawMessage !== 'string') return invalid(field, 'the message to sign must be a string')
      const kind = method === 'personal_sign' ? 'PERSONAL_SIGN' : 'SIGN_MESSAGE'
      return {
        ok: true,
        scan: { kind: 'message', request: { message: { kind, rawMessage }, userAccount: account, metadata } },
      }
    }
  }
}
