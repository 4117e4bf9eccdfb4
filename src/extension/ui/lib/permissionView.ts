/**
 * What each entry of an ERC-7715 permission request grants, read from the params the wallet will receive (the worker
 * checked every entry's chain and account: normalizeCall.ts): one entry can be for another chain or account than the
 * first, so the window lists them all rather than the first alone.
 */
import { isAddress, isHex } from 'viem'
import { isRecord } from '../../../engine/index.ts'
import type { PendingRequest } from '../../shared/pending.ts'
import { isPermissionRequest } from '../../shared/permissions.ts'

export type PermissionEntry = {
  chainId: number
  /** The account that grants it (`from`, or `address` in the 2024 draft); null when the wallet chooses. */
  account: string | null
  /** Every other field, in the request's order: who may use it (`to`, `signer`), the permission, its rules, … */
  fields: [string, unknown][]
}

const OWN_FIELDS = new Set(['chainId', 'from', 'address'])

const accountOf = (entry: Record<string, unknown>): string | null => {
  const named = entry.from ?? entry.address
  return typeof named === 'string' && isAddress(named, { strict: false }) ? named.toLowerCase() : null
}

/** The entries of a permission request, in order; null for any other request. */
export function permissionEntries(
  request: Pick<PendingRequest, 'method' | 'params' | 'chainId'>,
): PermissionEntry[] | null {
  const list = request.params[0]
  if (!isPermissionRequest(request.method) || !Array.isArray(list)) return null
  return list.filter(isRecord).map((entry) => ({
    chainId: typeof entry.chainId === 'string' && isHex(entry.chainId) ? Number(entry.chainId) : request.chainId,
    account: accountOf(entry),
    fields: Object.entries(entry).filter(([key]) => !OWN_FIELDS.has(key)),
  }))
}

/**
 * The distinct chains and accounts a request is for, for the window's header: the request's own, or for a permission
 * request every entry's (null: an entry that names no account, granted from the one the wallet chooses).
 */
export function requestScope(request: Pick<PendingRequest, 'method' | 'params' | 'chainId' | 'account'>): {
  chains: number[]
  accounts: (string | null)[]
} {
  const entries = permissionEntries(request)
  if (!entries) return { chains: [request.chainId], accounts: [request.account] }
  return {
    chains: [...new Set(entries.map((entry) => entry.chainId))],
    accounts: [...new Set(entries.map((entry) => entry.account))],
  }
}
