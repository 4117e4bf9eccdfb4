/** Checks a call that came from the page before anything is stored or scanned: the page can send anything. */
import { isAddress } from 'viem'
import { INTERCEPTED_METHODS, type ProviderError, type ScanCall } from '../relay/protocol.ts'

/** Large enough for any real typed data or batch; keeps a page from filling session storage. */
const MAX_CALL_BYTES = 512 * 1024

type Checked = { ok: true; call: ScanCall } | { ok: false; error: ProviderError }

const bad = (message: string): Checked => ({ ok: false, error: { code: -32602, message } })

/** The call as ScanCall when its method, params, account and chain are well-formed; a -32602 error otherwise. */
export function validateCall(raw: unknown): Checked {
  if (!raw || typeof raw !== 'object') return bad('Preflight: the request is not an object.')
  const call = raw as Record<string, unknown>
  if (!INTERCEPTED_METHODS.includes(call.method as ScanCall['method'])) {
    return bad(`Preflight: method ${String(call.method)} is not one it checks.`)
  }
  if (!Array.isArray(call.params)) return bad('Preflight: params must be an array.')
  if (typeof call.account !== 'string' || !isAddress(call.account, { strict: false })) {
    return bad('Preflight: the signing account is not an address.')
  }
  if (typeof call.chainId !== 'number' || !Number.isSafeInteger(call.chainId) || call.chainId < 0) {
    return bad('Preflight: the chain id is not a non-negative integer.')
  }
  let size: number
  try {
    size = JSON.stringify(call.params).length
  } catch {
    return bad('Preflight: params cannot be serialised.')
  }
  if (size > MAX_CALL_BYTES) return bad(`Preflight: params are larger than ${MAX_CALL_BYTES} bytes.`)
  return {
    ok: true,
    call: {
      method: call.method as ScanCall['method'],
      params: call.params,
      account: call.account.toLowerCase(),
      chainId: call.chainId,
    },
  }
}
