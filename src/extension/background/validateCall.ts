/** Checks a call that came from the page's frame before anything is stored or scanned: the page can send anything. */
import { type HookCall, INTERCEPTED_METHODS, type ProviderError, type WalletInfo } from '../relay/protocol.ts'

/** Large enough for any real typed data or batch; keeps a page from filling session storage. */
const MAX_CALL_BYTES = 512 * 1024
const MAX_LABEL = 80

type Checked = { ok: true; call: HookCall } | { ok: false; error: ProviderError }

const bad = (message: string): Checked => ({ ok: false, error: { code: -32602, message } })

/** JSON size of the params, counting bigints as their digits; undefined when they cannot be measured. */
function sizeOf(value: unknown): number | undefined {
  try {
    return JSON.stringify(value, (_, inner) => (typeof inner === 'bigint' ? inner.toString() : inner))?.length ?? 0
  } catch {
    return undefined
  }
}

/** A UTF-16 surrogate without its other half: text no encoding can carry, which storage turns into U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Where the params hold text that is not well-formed Unicode (a key or a string value), or undefined. The window shows
 * the params as stored, where such text reads as U+FFFD and two keys can merge, while the scan and the wallet would
 * read the original: no honest dapp sends it, so it is refused rather than shown one way and signed another.
 */
function malformedText(params: unknown): string | undefined {
  const stack: [unknown, string][] = [[params, 'params']]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, path] = next
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return path
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`
        if (LONE_SURROGATE.test(key)) return at
        stack.push([inner, at])
      }
    }
  }
  return undefined
}

/** Longer than any account or chain id a wallet says; a page-made provider can answer with anything. */
const MAX_ANSWER = 100

/**
 * What the worker reads of the wallet's answers, and nothing more: its first account and its chain, when they are text
 * (or a number) of a sane length. An answer the page made cannot carry megabytes into storage or a log.
 */
function walletAnswers(accounts: unknown, chainId: unknown): Pick<HookCall, 'accounts' | 'chainId'> {
  const first = Array.isArray(accounts) ? accounts[0] : undefined
  const text = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_ANSWER
  return {
    accounts: Array.isArray(accounts) ? (text(first) ? [first] : []) : undefined,
    chainId: text(chainId) || typeof chainId === 'number' ? chainId : undefined,
  }
}

function walletInfo(raw: unknown): WalletInfo {
  const info = (raw ?? {}) as { label?: unknown; late?: unknown }
  const label = typeof info.label === 'string' && info.label.trim() ? info.label.trim().slice(0, MAX_LABEL) : 'wallet'
  return { label, late: info.late === true }
}

/** The call as a HookCall when its method is one Preflight checks and its params are of a sane size. */
export function validateCall(raw: unknown): Checked {
  if (!raw || typeof raw !== 'object') return bad('Preflight: the request is not an object.')
  const call = raw as Record<string, unknown>
  if (!INTERCEPTED_METHODS.includes(call.method as HookCall['method'])) {
    return bad(`Preflight: method ${String(call.method)} is not one it checks.`)
  }
  const size = sizeOf(call.params)
  if (size === undefined) return bad('Preflight: params cannot be serialised.')
  if (size > MAX_CALL_BYTES) return bad(`Preflight: params are larger than ${MAX_CALL_BYTES} bytes.`)
  const malformed = malformedText(call.params)
  if (malformed) {
    return bad(
      `Preflight: ${malformed} holds text that is not valid Unicode (a lone surrogate), which would read differently in the window and in the wallet.`,
    )
  }
  return {
    ok: true,
    call: {
      method: call.method as HookCall['method'],
      params: call.params,
      ...walletAnswers(call.accounts, call.chainId),
      wallet: walletInfo(call.wallet),
    },
  }
}
