/**
 * Warnings for Safe transactions that change who controls the wallet — owners, threshold, modules, guard, fallback
 * handler — and for delegate calls into code that is not one of Safe's own libraries. These move no assets, so the
 * state changes stay empty; a signer must still be told, because they are how multisig wallets are taken over.
 */
import { type Address, isAddressEqual } from 'viem'
import { decodeKnownFunction } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * Safe's libraries meant to be delegate-called (MultiSend, MultiSendCallOnly, SignMessageLib, CreateCall), at their
 * canonical addresses, the same on every chain (safe-deployments v1.3.0, its eip155 variant, and v1.4.1).
 */
const SAFE_LIBRARIES = new Set(
  [
    '0xA238CBeb142c10Ef7Ad8442C6D1f9E89e07e7761',
    '0x998739BFdAAdde7C933B942a68053933098f9EDa',
    '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526',
    '0x40A2aCCbd92BCA938b02010E17A5b8929b49130D',
    '0xA1dabEF33b3B82c7814B6D82A79e50F4AC44102B',
    '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
    '0xd53cd0aB83D845Ac265BE939c57F53AD838012c9',
    '0x9b35Af71d77eaf8d7e40252370304687390A1A52',
  ].map((address) => address.toLowerCase()),
)

/** True for a delegate-call target that is one of Safe's own libraries. */
function isSafeLibrary(address: Address): boolean {
  return SAFE_LIBRARIES.has(address.toLowerCase())
}

/** Every warning about control of a Safe that the calls (execTransaction and MultiSend unwrapped) would change. */
export function safeControlWarnings(calls: Call[]): Warning[] {
  return calls.flatMap((call) => [...delegateCallWarning(call), ...selfCallWarning(call)])
}

function delegateCallWarning(call: Call): Warning[] {
  if (!call.delegate || !call.to || isSafeLibrary(call.to)) return []
  const target = shortAddress(call.to)
  return [
    makeWarning(
      'SET_OWNER_AUTHORITY',
      'WARNING',
      `This Safe transaction lets ${target} run its own code as your Safe (a delegate call). That code can change the ` +
        `owners or move every asset, whatever the simulation shows. Only continue if ${target} is a contract you ` +
        'trust, such as Safe’s MultiSend.',
    ),
  ]
}

/** Owner-management and settings functions only do anything when the Safe calls itself (a Safe transaction). */
function selfCallWarning(call: Call): Warning[] {
  if (call.depth === 0 || !call.to || !isAddressEqual(call.from, call.to)) return []
  const decoded = decodeKnownFunction(call.data)
  if (!decoded) return []
  const args = decoded.args
  const who = (index: number) => shortAddress(args[index] as Address)
  const needs = (index: number) => confirmations(args[index] as bigint)
  switch (decoded.functionName) {
    case 'addOwnerWithThreshold':
      return [ownerChange(`adds ${who(0)} as an owner and then ${needs(1)}`)]
    case 'removeOwner':
      return [ownerChange(`removes the owner ${who(1)} and then ${needs(2)}`)]
    case 'swapOwner':
      return [ownerChange(`replaces the owner ${who(1)} with ${who(2)}`)]
    case 'changeThreshold':
      return [ownerChange(`changes the rule for approving transactions: it then ${needs(0)}`)]
    case 'enableModule':
      return [
        authority(
          `enables ${who(0)} as a module. A module can move everything in the Safe without any owner’s confirmation`,
        ),
      ]
    case 'setGuard':
      return [
        authority(
          `sets ${who(0)} as the transaction guard. A guard can refuse every later transaction and lock the Safe`,
        ),
      ]
    case 'setFallbackHandler':
      return [
        authority(
          `sets ${who(0)} as the fallback handler. It answers the calls the Safe does not know itself, including ` +
            'checks of signatures made in the Safe’s name',
        ),
      ]
    default:
      return []
  }
}

function confirmations(threshold: bigint): string {
  if (threshold === 1n) return 'needs only 1 confirmation, so any single owner alone controls the Safe'
  return `needs ${threshold} confirmations`
}

function ownerChange(change: string): Warning {
  return makeWarning(
    'USER_ACCOUNT_OWNER_CHANGE',
    'WARNING',
    `This Safe transaction ${change}. Owners decide what the Safe does with its assets: only continue if you expected ` +
      'this change.',
  )
}

function authority(change: string): Warning {
  return makeWarning(
    'SET_OWNER_AUTHORITY',
    'WARNING',
    `This Safe transaction ${change}. Only continue if you know and trust this address.`,
  )
}
