/**
 * A transaction whose nonce the site fixed (in the request, or in the transaction it brings signed) is judged against
 * the account's nonces on the chain's node: the scan itself runs every transaction now, whatever its number.
 */
import { type Address, type Hex, hexToBigInt, isHex } from 'viem'
import { nonceWarnings, readAccountNonces, type Warning } from '../../engine/index.ts'
import type { Settings } from '../shared/settings.ts'
import type { TxFields } from '../shared/txParams.ts'
import { SCAN_TIMEOUT_MS } from './protocol.ts'

/** The nonce a transaction fixes; undefined where the wallet chooses it. */
export function fixedNonce(tx: TxFields): bigint | undefined {
  const nonce = tx.nonce
  if (typeof nonce !== 'string' || !isHex(nonce, { strict: true }) || nonce.length < 3) return undefined
  return hexToBigInt(nonce as Hex)
}

/**
 * The nonce warnings for the transaction of a request (ScanRequest's `transaction`; none for batches and messages),
 * from the node configured for `chainId`; none when it fixes no nonce, the chain has no node, the node does not answer
 * in time, or a scan API scans (the user chose it over asking a node, so no node learns the account from Preflight
 * then). The window shows the nonce either way. A node's failure is a value here, never thrown.
 */
export async function siteNonceWarnings(
  tx: TxFields | undefined,
  chainId: number,
  settings: Settings,
  timeoutMs = SCAN_TIMEOUT_MS,
): Promise<Warning[]> {
  const rpcUrl = settings.rpcUrls[String(chainId)]
  const nonce = tx && fixedNonce(tx)
  if (!tx || nonce === undefined || !rpcUrl || settings.backend.kind !== 'local') return []
  const account = await readAccountNonces(tx.from as Address, { rpcUrl, signal: AbortSignal.timeout(timeoutMs) })
  return account.ok ? nonceWarnings(nonce, account) : []
}
