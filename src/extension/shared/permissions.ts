/**
 * ERC-7715 permission requests (`wallet_grantPermissions`, MetaMask's `wallet_requestExecutionPermissions`): a site
 * asks the wallet to let a key the site holds spend or call for the account later, without asking again. Nothing
 * moves when it is granted, so there is nothing to simulate; the window shows the request as sent and says so.
 */
import type { InterceptedMethod, ScanState } from './pending.ts'

export type PermissionMethod = Extract<
  InterceptedMethod,
  'wallet_grantPermissions' | 'wallet_requestExecutionPermissions'
>

/** Whether `method` asks the wallet to grant a site's key permissions (ERC-7715). */
export function isPermissionRequest(method: InterceptedMethod): method is PermissionMethod {
  return method === 'wallet_grantPermissions' || method === 'wallet_requestExecutionPermissions'
}

/** What the window shows for a permission request in place of a scan: an error state, so the user decides. */
export const PERMISSIONS_NOT_CHECKED: ScanState = {
  status: 'ERROR',
  error: {
    kind: 'NOT_CHECKED',
    message:
      'This site asks your wallet to let a key the site holds spend your tokens or make calls for you later, ' +
      'without asking you again. Preflight cannot simulate what that key will do: read the permissions below, and ' +
      'grant them only to a site you trust, for amounts and a time you would accept losing.',
  },
}
