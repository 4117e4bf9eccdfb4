/**
 * A transaction whose nonce the site fixed (in the request, or in the transaction it brings signed) is judged against
 * the account's nonces on the chain's node: the scan itself runs every transaction now, whatever its number.
 */
import { type Address, type Hex, hexToBigInt, isHex } from 'viem'
import { nonceWarnings, readAccountNonces, type Warning } from '../../engine/index.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import type { Settings } from '../shared/settings.ts'
import { decodeSignedTx } from '../shared/signedTx.ts'
import type { TxFields } from '../shared/txParams.ts'
import { SCAN_TIMEOUT_MS } from './protocol.ts'

/** The sender and nonce of a normalised transaction request that fixes one; undefined where the wallet chooses it. */
export async function fixedNonce(
  method: InterceptedMethod,
  params: unknown[],
): Promise<{ from: Address; nonce: bigint } | undefined> {
  let tx: TxFields
  switch (method) {
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
    case 'eth_signTransaction':
      tx = params[0] as TxFields
      break
    case 'eth_sendRawTransaction':
    case 'eth_sendRawTransactionSync':
      tx = (await decodeSignedTx(params[0])).tx
      break
    default:
      return undefined
  }
  const nonce = tx.nonce
  if (typeof nonce !== 'string' || !isHex(nonce, { strict: true }) || nonce.length < 3) return undefined
  return { from: tx.from as Address, nonce: hexToBigInt(nonce as Hex) }
}

/**
 * The nonce warnings for a call, from the node configured for its chain; none when the call fixes no nonce, the chain
 * has no node, the node does not answer in time, or a scan API scans (the user chose it over asking a node, so no node
 * learns the account from Preflight then). The window shows the nonce either way. Never throws.
 */
export async function siteNonceWarnings(
  call: { method: InterceptedMethod; params: unknown[]; chainId: number },
  settings: Settings,
  timeoutMs = SCAN_TIMEOUT_MS,
): Promise<Warning[]> {
  const rpcUrl = settings.rpcUrls[String(call.chainId)]
  if (!rpcUrl || settings.backend.kind !== 'local') return []
  try {
    const fixed = await fixedNonce(call.method, call.params)
    if (!fixed) return []
    const account = await readAccountNonces(fixed.from, { rpcUrl, signal: AbortSignal.timeout(timeoutMs) })
    return account.ok ? nonceWarnings(fixed.nonce, account) : []
  } catch {
    // What cannot be read (a signed transaction the scan request already refused) costs the scan nothing.
    return []
  }
}
