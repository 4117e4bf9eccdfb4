/**
 * Across's speed-up signature (`UpdateDepositDetails`): a deposit's depositor names a new recipient, amount and
 * message for a deposit already made, and relayers pay out as the signature says. Asked of a user with a deposit on
 * its way, it takes that deposit; nothing on this chain moves, so only its fields can say so.
 */
import { type Address, type Hex, pad } from 'viem'
import type { Warning } from '../api/index.ts'
import { accountInWords, makeWarning } from '../risk/index.ts'
import { chainInWords } from '../simulation/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** A new recipient (as the SpokePool's 32-byte word) for deposit `depositId` made on `originChainId`. */
export type DepositUpdate = { depositId: bigint; originChainId: bigint; recipient: Hex; message: Hex }

/** The update's fields: since v3.5 (accounts as bytes32), and the V3 form (an address, a uint32 deposit id). */
const UPDATE_SHAPES = new Set([
  'uint256 depositId,uint256 originChainId,uint256 updatedOutputAmount,bytes32 updatedRecipient,bytes updatedMessage',
  'uint32 depositId,uint256 originChainId,uint256 updatedOutputAmount,address updatedRecipient,bytes updatedMessage',
])

/** The deposit update a payload signs, or null when it is none. */
export function findDepositUpdate(typedData: TypedData): DepositUpdate | null {
  const { types, primaryType, message } = typedData
  if (!UPDATE_SHAPES.has(structSignature(types, primaryType))) return null
  const recipient = message.updatedRecipient as Hex
  return {
    depositId: message.depositId as bigint,
    originChainId: message.originChainId as bigint,
    recipient: (recipient.length === 66 ? recipient : pad(recipient)).toLowerCase() as Hex,
    message: message.updatedMessage as Hex,
  }
}

/** TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) when the update pays the deposit out to someone other than the signer. */
export function depositUpdateWarnings(update: DepositUpdate, signer: Address): Warning[] {
  if (update.recipient === pad(signer).toLowerCase()) return []
  const who = accountInWords(update.recipient)
  const instructions = update.message === '0x' ? '' : ', with instructions Preflight cannot check pay you'
  return [
    makeWarning(
      'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
      'WARNING',
      `This signature redirects Across deposit #${update.depositId} made on ` +
        `${chainInWords(Number(update.originChainId))}: relayers then pay it out to ${who}, not to you` +
        `${instructions}. Sign it only if ${who} is yours.`,
      { bridge: 'Across', depositId: update.depositId.toString(), recipient: update.recipient },
    ),
  ]
}
