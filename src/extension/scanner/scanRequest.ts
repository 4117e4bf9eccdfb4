/**
 * Builds the scan API request for a normalised call (normalizeCall.ts): the request the engine, or a remote scan API,
 * is asked about is derived from exactly the params the wallet will receive.
 */
import type { ScanMessageRequest, ScanTransactionsRequest, TxObject, TypedDataPayload } from '../../engine/index.ts'
import { parseJsonLossless } from '../shared/losslessJson.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import { decodeSignedTx } from '../shared/signedTx.ts'
import { calldataOf, gasOf, type TxFields } from '../shared/txParams.ts'

export type ScanRequest =
  | {
      kind: 'transactions'
      request: ScanTransactionsRequest
      /** The one transaction of a request that sends or signs one, as the wallet will get it (its nonce included). */
      transaction?: TxFields
    }
  | { kind: 'message'; request: ScanMessageRequest }

/** What the engine simulates (and whose fee it judges) of a transaction the wallet will execute. */
export function txObject(tx: TxFields): TxObject {
  const out: TxObject = { from: tx.from }
  if (tx.to !== undefined) out.to = tx.to
  const data = calldataOf(tx)
  if (data !== undefined) out.data = data
  if (tx.value !== undefined) out.value = tx.value
  const gas = gasOf(tx)
  if (gas !== undefined) out.gas = gas
  for (const key of ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    if (tx[key] !== undefined) out[key] = tx[key]
  }
  return out
}

/** A v1 typed-data list ([{ type, name, value }]) as the lines a person reads. */
export function legacyTypedDataText(list: unknown[]): string {
  const lines = list.map((entry) => {
    const item = (entry ?? {}) as { type?: unknown; name?: unknown; value?: unknown }
    const value = typeof item.value === 'string' ? item.value : JSON.stringify(item.value)
    return `${String(item.name)} (${String(item.type)}): ${value}`
  })
  return ['Legacy typed data (eth_signTypedData v1):', ...lines].join('\n')
}

/** The typed-data param of a normalised call: the one that is not the signer. */
function typedDataParam(method: InterceptedMethod, params: unknown[], account: string): unknown {
  if (method === 'eth_signTypedData_v1') return params[0]
  if (method === 'eth_signTypedData') return params[0] === account ? params[1] : params[0]
  return params[1]
}

/** The scan request for a normalised call; `account` is its signer, `origin` the requesting frame's. */
export async function buildScanRequest(
  method: InterceptedMethod,
  params: unknown[],
  account: string,
  origin: string,
): Promise<ScanRequest> {
  const metadata = { origin }
  const transactions = (txObjects: TxObject[], transaction?: TxFields): ScanRequest => ({
    kind: 'transactions',
    request: { txObjects, userAccount: account, metadata },
    ...(transaction && { transaction }),
  })
  const transaction = (tx: TxFields) => transactions([txObject(tx)], tx)
  const message = (body: ScanMessageRequest['message']): ScanRequest => ({
    kind: 'message',
    request: { message: body, userAccount: account, metadata },
  })
  switch (method) {
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
    case 'eth_signTransaction':
      return transaction(params[0] as TxFields)
    case 'eth_sendRawTransaction':
    case 'eth_sendRawTransactionSync':
      return transaction((await decodeSignedTx(params[0])).tx)
    case 'wallet_sendCalls': {
      const batch = params[0] as { from: string; calls: { to?: string; data?: string; value?: string }[] }
      return transactions(batch.calls.map((call) => ({ from: batch.from, ...call })))
    }
    case 'eth_signTypedData_v4':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v1':
    case 'eth_signTypedData': {
      const raw = typedDataParam(method, params, account)
      const data = typeof raw === 'string' ? parseJsonLossless(raw) : raw
      if (Array.isArray(data)) return message({ kind: 'PERSONAL_SIGN', rawMessage: legacyTypedDataText(data) })
      return message({ kind: 'SIGN_TYPED_DATA', data: data as TypedDataPayload })
    }
    case 'personal_sign':
      return message({ kind: 'PERSONAL_SIGN', rawMessage: params[0] as string })
    case 'eth_sign':
      return message({ kind: 'SIGN_MESSAGE', rawMessage: params[1] as string })
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
      // The worker shows these without a scan (shared/permissions.ts): nothing moves when they are granted.
      throw new Error('a permission request has nothing to simulate')
  }
}
