/**
 * An ERC-7715 request is a list whose entries need not share a chain or an account: the window's header and its
 * permission list are read from every entry of the params the wallet will receive, not from the first alone.
 */
import { describe, expect, it } from 'vitest'
import { permissionEntries, requestScope } from '../../src/extension/ui/lib/permissionView.ts'

const YOU = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const KEY = '0x000000000000000000000000000000000000dead'
const stream = { type: 'native-token-stream', data: { maxAmount: '0x1' } }

describe('the entries of a permission request', () => {
  const request = (entries: unknown[]) => ({
    method: 'wallet_requestExecutionPermissions' as const,
    params: [entries],
    chainId: 31337,
    account: YOU,
  })

  it("lists each entry's chain, granting account and other fields in order, and the header names them all", () => {
    const shown = request([
      { chainId: '0x7a69', to: KEY, permission: stream },
      { chainId: '0x1', from: OTHER, to: KEY, permission: stream, rules: [] },
    ])
    expect(permissionEntries(shown)).toEqual([
      {
        chainId: 31337,
        account: null,
        fields: [
          ['to', KEY],
          ['permission', stream],
        ],
      },
      {
        chainId: 1,
        account: OTHER.toLowerCase(),
        fields: [
          ['to', KEY],
          ['permission', stream],
          ['rules', []],
        ],
      },
    ])
    expect(requestScope(shown)).toEqual({ chains: [31337, 1], accounts: [null, OTHER.toLowerCase()] })
  })

  it("names an entry's account by `address` (the 2024 draft), and leaves other requests to their own rows", () => {
    const shown = request([{ chainId: '0x7a69', address: OTHER, signer: KEY, permissions: [stream] }])
    expect(requestScope(shown)).toEqual({ chains: [31337], accounts: [OTHER.toLowerCase()] })
    const tx = { method: 'eth_sendTransaction' as const, params: [{ from: YOU }], chainId: 10, account: YOU }
    expect(permissionEntries(tx)).toBeNull()
    expect(requestScope(tx)).toEqual({ chains: [10], accounts: [YOU] })
  })
})
