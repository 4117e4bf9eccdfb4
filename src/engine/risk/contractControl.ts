/**
 * Control of a contract given away: the simulation shows an account of this request (the user, a Safe it executes
 * for, any sender on the way) handing ownership or a role to someone else, renouncing it, or a proxy taking other
 * code or another admin. Nothing moves when it happens, so asset changes show nothing; what the new controller can do
 * afterwards (mint, upgrade, withdraw what the contract holds) is the whole risk. Each is a WARNING that says who
 * gains control, and whether that is a person or code.
 */
import { type Address, type Hex, keccak256, stringToHex, zeroAddress, zeroHash } from 'viem'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import {
  type ControlEvent,
  controlEvents,
  newController,
  readKeys,
  type SimulationResult,
} from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** What an owner can do, said wherever ownership changes hands. */
const OWNER_POWERS =
  'every owner-only function of the contract (minting, pausing, upgrades, fees or withdrawals, as it has)'

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

/** Every warning about control of a contract that the request's accounts give away or that changes a proxy's code. */
export function contractControlWarnings(result: SimulationResult, calls: Call[], userAccount: Address): Warning[] {
  const own = new Set<string>([userAccount.toLowerCase(), ...calls.map((call) => call.from.toLowerCase())])
  for (const [address, safe] of result.safes) if (safe) own.add(address)
  const isOwn = (address: Address) => own.has(address.toLowerCase())
  const codeSize = (address: Address) => result.reads.before.get(readKeys.codeSize(address)) as bigint | undefined
  const who = (address: Address) => {
    const yours = address.toLowerCase() === userAccount.toLowerCase()
    if (result.safes.get(address.toLowerCase())) return `${yours ? 'your' : 'the'} Safe ${shortAddress(address)}`
    return yours ? `your account (${shortAddress(address)})` : shortAddress(address)
  }
  /** The new controller, and whether it is a person (no code) or code, when the simulation read it. */
  const gainer = (address: Address) => {
    const size = codeSize(address)
    const kind = size === undefined ? '' : size === 0n ? ', a personal account' : ', a contract'
    return `${shortAddress(address)}${kind}`
  }
  const logs = result.outcomes.flatMap((outcome) => outcome.logs)
  return controlEvents(logs).flatMap((event) => {
    // A contract the request itself creates setting up its first owner or code is no change of control.
    if (codeSize(event.contract) === 0n || !givesAway(event, isOwn)) return []
    return [controlWarning(event, who, gainer)]
  })
}

/** Whether the event takes control from one of the request's accounts, or changes what code a proxy runs. */
function givesAway(event: ControlEvent, isOwn: (address: Address) => boolean): boolean {
  switch (event.kind) {
    case 'owner':
    case 'pendingOwner':
      return isOwn(event.from) && !isOwn(event.to)
    case 'roleGranted':
      return isOwn(event.sender) && !isOwn(event.account)
    case 'roleRevoked':
      return isOwn(event.account)
    case 'admin':
      return event.from.toLowerCase() !== event.to.toLowerCase() && !isOwn(event.to)
    default:
      return true
  }
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
        if (event.to === zeroAddress) {
          return (
            `${capital(who(event.from))} renounces ownership of ${contract}: no one can ever again call ` +
            `${OWNER_POWERS}. This cannot be undone.`
          )
        }
        return (
          `This hands ownership of ${contract} from ${who(event.from)} to ${gainer(event.to)}. Its owner can call ` +
          `${OWNER_POWERS}, and only the new owner can give it back.${trust}`
        )
      case 'pendingOwner':
        return (
          `This offers ownership of ${contract} from ${who(event.from)} to ${gainer(event.to)}, which becomes its ` +
          `owner the moment it accepts, with ${OWNER_POWERS}.${trust}`
        )
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
          `This upgrades the proxy ${contract} to run the code at ${gainer(event.to)}: from then on it does whatever ` +
          'that code does, with everything it holds and every approval given to it. Continue only if you know and ' +
          'trust this upgrade.'
        )
      case 'beacon':
        return (
          `This points the proxy ${contract} at the beacon ${gainer(event.to)}: from then on it runs whatever code ` +
          'that beacon names, with everything it holds and every approval given to it.' +
          trust
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

/** The change in the warning's data: which contract, what changed, from and to whom, which role. */
function controlData(event: ControlEvent): Record<string, string | null> {
  const lower = (address: Address | undefined) => address?.toLowerCase() ?? null
  return {
    contract: lower(event.contract),
    contractControl: event.kind,
    previous: 'from' in event ? lower(event.from) : event.kind === 'roleRevoked' ? lower(event.account) : null,
    next: lower(newController(event) ?? undefined),
    role: 'role' in event ? event.role : null,
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
