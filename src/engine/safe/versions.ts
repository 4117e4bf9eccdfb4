/**
 * How each Safe version hashes its transactions for signing (EIP-712): before 1.3.0 the domain is the Safe alone,
 * without the chain id; 1.0.0 calls `baseGas` `dataGas` in its SafeTx typehash. From 1.3.0 to 1.5.0 (and SafeL2) the
 * domain is the chain and the Safe.
 */
import { type Address, type Hex, hashTypedData } from 'viem'
import type { ExecTransaction } from './execTransaction.ts'

/** The hashing rules of one Safe version. */
export type SafeHashing = { domainHasChainId: boolean; gasField: 'baseGas' | 'dataGas' }

/** The rules of `version` ("1.4.1", "1.3.0+L2"); an unreadable version gets those of the current releases. */
export function safeHashing(version: string | null): SafeHashing {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? '')
  if (!match) return { domainHasChainId: true, gasField: 'baseGas' }
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number]
  const before = (a: number, b: number, c: number) =>
    major < a || (major === a && (minor < b || (minor === b && patch < c)))
  return { domainHasChainId: !before(1, 3, 0), gasField: before(1, 1, 0) ? 'dataGas' : 'baseGas' }
}

/** The SafeTx struct's fields in the order Safe contracts hash them; Safe 1.0.0 names the gas refund `dataGas`. */
export function safeTxTypeFields(gasField: SafeHashing['gasField']): { name: string; type: string }[] {
  return [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: gasField, type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ]
}

/** A Safe transaction's fields, as the Safe hashes them: execTransaction's arguments, with the nonce for signatures. */
type SafeTxFields = Omit<ExecTransaction, 'signatures'> & { nonce: bigint }

/** The safeTxHash a Safe of `version` at `safe` on `chainId` computes for `tx` (what its owners must sign). */
export function safeTxHash(version: string | null, chainId: number | bigint, safe: Address, tx: SafeTxFields): Hex {
  const { domainHasChainId, gasField } = safeHashing(version)
  const { baseGas, ...rest } = tx
  return hashTypedData({
    domain: domainHasChainId ? { chainId, verifyingContract: safe } : { verifyingContract: safe },
    types: { SafeTx: safeTxTypeFields(gasField) },
    primaryType: 'SafeTx',
    message: { ...rest, [gasField]: baseGas },
  } as Parameters<typeof hashTypedData>[0])
}

/**
 * The hash a Safe of `version` at `safe` on `chainId` checks a signature of `message` against (its getMessageHash,
 * which EIP-1271's isValidSignature uses): the SafeMessage struct under the Safe's own domain.
 */
export function safeMessageHash(version: string | null, chainId: number | bigint, safe: Address, message: Hex): Hex {
  const { domainHasChainId } = safeHashing(version)
  return hashTypedData({
    domain: domainHasChainId ? { chainId, verifyingContract: safe } : { verifyingContract: safe },
    types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
    primaryType: 'SafeMessage',
    message: { message },
  })
}
