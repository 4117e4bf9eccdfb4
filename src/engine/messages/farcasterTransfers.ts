/**
 * Farcaster's IdRegistry transfers (`Transfer`, `TransferAndChangeRecovery`): the custody address of a Farcaster
 * account (its fid) signs to hand the account to another address, which anyone then submits with that address's own
 * signature (`transferFor`). Farcaster's apps ask for it only to move an account; a site that asks for it otherwise
 * takes the account, its name and its followers. Nothing the user holds on this chain moves, so only the fields tell.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** Account `fid` handed to `to`, with a new recovery address where the signature sets one. */
export type FarcasterTransfer = { fid: bigint; to: Address; recovery: Address | null }

const TRANSFER = 'uint256 fid,address to,uint256 nonce,uint256 deadline'
const TRANSFER_AND_CHANGE_RECOVERY = 'uint256 fid,address to,address recovery,uint256 nonce,uint256 deadline'

/** The Farcaster account transfer a payload signs, or null when it is none. */
export function findFarcasterTransfer(typedData: TypedData): FarcasterTransfer | null {
  const shape = structSignature(typedData.types, typedData.primaryType)
  if (shape !== TRANSFER && shape !== TRANSFER_AND_CHANGE_RECOVERY) return null
  const { fid, to, recovery } = typedData.message
  return { fid: fid as bigint, to: to as Address, recovery: shape === TRANSFER ? null : (recovery as Address) }
}

/** USER_ACCOUNT_OWNER_CHANGE (WARNING) when the account goes to anyone but the signer, naming who then holds it. */
export function farcasterTransferWarnings(transfer: FarcasterTransfer, signer: Address): Warning[] {
  if (isAddressEqual(transfer.to, signer)) return []
  const who = shortAddress(transfer.to)
  const recovery = transfer.recovery
    ? `, and makes ${shortAddress(transfer.recovery)} the only address that can recover it`
    : '; only its recovery address can take it back'
  return [
    makeWarning(
      'USER_ACCOUNT_OWNER_CHANGE',
      'WARNING',
      `This signature hands your Farcaster account (fid ${transfer.fid}) to ${who}: once submitted, ${who} controls ` +
        `it, its username and followers${recovery}. Sign it only if you are moving the account to an address of ` +
        'yours, or selling it.',
      {
        fid: transfer.fid.toString(),
        to: transfer.to.toLowerCase(),
        ...(transfer.recovery ? { recovery: transfer.recovery.toLowerCase() } : {}),
      },
    ),
  ]
}
