/**
 * Control of a contract given away: the simulation shows a contract that existed before the request handing its
 * ownership or a role to someone other than the user, the user's side losing a role, or a proxy or beacon taking other
 * code or another admin. Nothing moves when it happens, so asset changes show nothing; what the new controller can do
 * afterwards (mint, upgrade, withdraw what the contract holds) is the whole risk. Each is a WARNING that says who
 * gains control, and whether that is a person or code.
 */
import { type Address, type Hex, keccak256, stringToHex, zeroAddress, zeroHash } from 'viem'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { type Call, isSafeOwner } from '../safe/index.ts'
import {
  type ControlEvent,
  codeSizeBefore,
  mayGiveAway,
  newController,
  type SimulationResult,
} from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** What an owner or admin controls, said wherever that place changes hands. */
const CONTROLLER_POWERS = 'minting, pausing, upgrades, fees or withdrawals, whichever it has'

/** EIP-7702's delegation designator: 0xef0100 and the 20-byte address of the code an account runs. */
const DELEGATED_CODE_SIZE = 23n

/** Roles common enough to name; any other is shown by its hash. */
const COMMON_ROLES = [
  'MINTER_ROLE',
  'BURNER_ROLE',
  'PAUSER_ROLE',
  'UPGRADER_ROLE',
  'ADMIN_ROLE',
  'OPERATOR_ROLE',
  'MANAGER_ROLE',
  'GOVERNOR_ROLE',
  'GUARDIAN_ROLE',
  'KEEPER_ROLE',
  'PROPOSER_ROLE',
  'EXECUTOR_ROLE',
  'CANCELLER_ROLE',
  'TIMELOCK_ADMIN_ROLE',
]

let roleNames: Map<Hex, string> | undefined
/** A role's name: DEFAULT_ADMIN_ROLE, a common role recognised by its hash (hashed on first use), or the hash. */
function roleName(role: Hex): string {
  roleNames ??= new Map(COMMON_ROLES.map((name) => [keccak256(stringToHex(name)), name]))
  if (role === zeroHash) return 'the admin role (DEFAULT_ADMIN_ROLE)'
  const name = roleNames.get(role)
  return name ? `the role ${name}` : `the role ${shortAddress(role)}`
}

/** Every warning about control of a contract given away by the request, or a proxy's code or admin changed. */
export function contractControlWarnings(result: SimulationResult, calls: Call[], userAccount: Address): Warning[] {
  const events = result.controls
  if (events.length === 0) return []
  // Whose lost role concerns the user: their own, and that of every account acting for them in the request.
  const acting = new Set<string>([userAccount.toLowerCase(), ...calls.map((call) => call.from.toLowerCase())])
  for (const [address, safe] of result.safes) if (safe) acting.add(address)
  const codeSize = (address: Address) => codeSizeBefore(result.reads, address)
  const who = (address: Address) => {
    const yours = address.toLowerCase() === userAccount.toLowerCase()
    if (result.safes.get(address.toLowerCase())) return `${yours ? 'your' : 'the'} Safe ${shortAddress(address)}`
    return yours ? `your account (${shortAddress(address)})` : shortAddress(address)
  }
  /**
   * The new controller, and what it is: a Safe the user is an owner of (a Safe taking control is warned like any
   * other: the user's part in it is said, not assumed), a person, an account delegated to code, or code.
   */
  const gainer = (address: Address) => {
    const safe = result.safes.get(address.toLowerCase())
    if (safe && isSafeOwner(safe, userAccount)) return `the Safe ${shortAddress(address)}, of which you are an owner`
    const size = codeSize(address)
    if (size === undefined) return shortAddress(address)
    if (size === 0n) return `${shortAddress(address)}, a personal account`
    if (size === DELEGATED_CODE_SIZE) return `${shortAddress(address)}, an account delegated to code (EIP-7702)`
    return `${shortAddress(address)}, a contract`
  }
  return events.flatMap((event) => {
    if (!mayGiveAway(event, userAccount)) return []
    if (event.kind === 'roleRevoked' && !acting.has(event.account.toLowerCase())) return []
    // A contract the request itself creates setting up its first owner or code is no change of control.
    if (codeSize(event.contract) === 0n) return []
    return [controlWarning(event, who, gainer)]
  })
}

function controlWarning(
  event: ControlEvent,
  who: (address: Address) => string,
  gainer: (address: Address) => string,
): Warning {
  const contract = shortAddress(event.contract)
  const gains = newController(event)
  const trust = gains ? ` Continue only if you mean to give it to ${shortAddress(gains)}.` : ''
  const message = (() => {
    switch (event.kind) {
      case 'owner':
      case 'pendingOwner': {
        const { title } = event
        const noun = title === 'owner' ? 'ownership of' : 'admin rights over'
        const powers = `every ${title}-only function of ${contract} (${CONTROLLER_POWERS})`
        const giver = event.from ? capital(who(event.from)) : 'This'
        if (event.kind === 'pendingOwner') {
          return (
            `${giver} offers ${noun} ${contract} to ${gainer(event.to)}, which becomes its ${title} the moment it ` +
            `accepts, able to call ${powers}.${trust}`
          )
        }
        if (event.to === zeroAddress) {
          // ds-auth names no previous owner, and there an authority can still call what the owner could.
          return event.from
            ? `${giver} renounces ${noun} ${contract}: no one can ever again call any ${title}-only function of ` +
                `it (${CONTROLLER_POWERS}). This cannot be undone.`
            : `This leaves ${contract} without an owner: from then on only its authority, if it has one, can call ` +
                `its owner-only functions (${CONTROLLER_POWERS}).`
        }
        return (
          `This hands ${noun} ${contract}${event.from ? ` from ${who(event.from)}` : ''} to ` +
          `${gainer(event.to)}. The ${title} of ${contract} can call ${powers}, and only the new ${title} can give ` +
          `it back.${trust}`
        )
      }
      case 'roleGranted':
        return (
          `This grants ${roleName(event.role)} of ${contract} to ${gainer(event.account)}, from ` +
          `${who(event.sender)}. ${
            event.role === zeroHash
              ? 'The admin role grants and revokes every role, so this hands over control of the contract.'
              : 'Whoever holds it can call the functions the role guards.'
          }${trust}`
        )
      case 'roleRevoked':
        return `${capital(who(event.account))} loses ${roleName(event.role)} of ${contract}${
          event.sender.toLowerCase() === event.account.toLowerCase()
            ? ', given up'
            : `, revoked by ${who(event.sender)}`
        }: it can no longer call the functions the role guards${
          event.role === zeroHash ? ', nor grant or revoke any role (if it was the last admin, no one can)' : ''
        }.`
      case 'implementation':
        return (
          `This upgrades ${who(event.contract)} to the code at ${gainer(event.to)}: from then on it (and, if it is a ` +
          'beacon, every proxy that follows it) does whatever that code does, with everything it holds and every ' +
          'approval given to it. Continue only if you know and trust this upgrade.'
        )
      case 'beacon':
        return (
          `This points the proxy ${contract} at the beacon ${gainer(event.to)}: from then on it runs whatever code ` +
          `that beacon names, with everything it holds and every approval given to it.${trust}`
        )
      case 'authority':
        return (
          `This makes ${gainer(event.to)} the authority of ${contract}: it decides who besides the owner may call ` +
          `${contract}'s owner-only functions (${CONTROLLER_POWERS}, or on a DSProxy, running any code as it), ` +
          `itself included.${trust}`
        )
      case 'admin':
        return (
          `The admin of the proxy ${contract} changes from ${who(event.from)} to ${gainer(event.to)}: its admin can ` +
          `upgrade it to any code, and with that take everything it holds.${trust}`
        )
    }
  })()
  return makeWarning('SET_OWNER_AUTHORITY', 'WARNING', message, controlData(event))
}

/** The change in the warning's data: which contract, what changed, from and to whom, which role (lowercase). */
function controlData(event: ControlEvent): Record<string, string | null> {
  const previous = 'from' in event ? event.from : event.kind === 'roleRevoked' ? event.account : null
  return {
    contract: event.contract.toLowerCase(),
    contractControl: event.kind,
    previous: previous?.toLowerCase() ?? null,
    next: newController(event)?.toLowerCase() ?? null,
    role: 'role' in event ? event.role : null,
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
