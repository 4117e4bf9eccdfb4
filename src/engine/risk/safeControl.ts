/**
 * Who controls a Safe, judged from the simulation rather than the calldata: the configuration changes the
 * simulation read (singleton, owners, threshold, modules, guards, fallback handler, nonce), delegate calls into code
 * that is not one of Safe's own libraries, and — where the simulation shows no change, e.g. a reverting proposal —
 * what the decoded settings calls would do. New code in control that is not a Safe release is CRITICAL, as is any
 * change the calls shown to the signer do not explain; owner and threshold edits are warnings spelled out in full.
 */
import { type Address, isAddressEqual } from 'viem'
import { decodeKnownFunction } from '../abi/index.ts'
import type { Severity, Warning } from '../api/index.ts'
import { controllerLabel, describeSafeChange, SAFE_FIELD_NAMES, shortAddress } from '../assets/index.ts'
import {
  type Call,
  isExplained,
  isSafeDeployment,
  isUnset,
  type SafeConfigChange,
  type SafeContext,
  safeIntent,
  safeModule,
} from '../safe/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * What enabling a module Safe releases means: it moves assets only by rules the owners set in it (the allowance module
 * behind Safe{Wallet}'s spending limits, the ERC-4337 module), but then without their confirmation.
 */
const RELEASED_MODULE =
  'It then moves the Safe’s assets by the rules the owners set in it (a spending limit, user operations) ' +
  'without their confirmation: only continue if you are setting that up.'

/** What code in control of a Safe can do: said wherever such code is about to take over. */
const TAKEOVER_POWERS =
  'move every asset the Safe holds, refuse every later transaction and answer signature checks in the Safe’s name'

/** Every warning about control of the Safes the calls touch, from the simulated changes and the decoded calls. */
export function safeControlWarnings(
  calls: Call[],
  changes: SafeConfigChange[],
  safes: ReadonlyMap<string, SafeContext | null>,
): Warning[] {
  const changed = new Set(changes.map((change) => change.safe.toLowerCase()))
  return [
    ...calls.flatMap(delegateCallWarning),
    ...changeWarnings(calls, changes, safes),
    // A proposal that reverts here changes nothing in the simulation; its calldata still says what it would do.
    ...calls.filter((call) => !changed.has(call.from.toLowerCase())).flatMap(selfCallWarning),
  ]
}

/**
 * A delegate call runs the callee's code as the Safe, with the power to rewrite its storage. Anything but Safe's own
 * libraries is CRITICAL even when this simulation shows no change: the code may act differently the day it runs.
 */
function delegateCallWarning(call: Call): Warning[] {
  if (call.unread) return [unreadCallWarning(call)]
  if (!call.delegate || !call.to || isSafeDeployment(call.to, 'library')) return []
  const target = shortAddress(call.to)
  return [
    makeWarning(
      'SET_OWNER_AUTHORITY',
      'CRITICAL',
      `This Safe transaction lets ${target} run its own code as the Safe (a delegate call), and ${target} is not one ` +
        `of Safe’s own libraries. That code can replace the Safe’s singleton, add owners or ${TAKEOVER_POWERS}, ` +
        'whatever this simulation shows: it may act differently the day it runs. Do not sign it.',
      { delegateCallTo: call.to.toLowerCase() },
    ),
  ]
}

/**
 * Calls the engine could not read all of (nested too deep, or a MultiSend batch packed so that MultiSend runs bytes
 * the decoder does not): they may hold a delegate call into any code, so they are judged as one, fail closed.
 */
function unreadCallWarning(call: Call): Warning {
  const through = call.to ? ` through ${shortAddress(call.to)}` : ''
  return makeWarning(
    'SET_OWNER_AUTHORITY',
    'CRITICAL',
    `This transaction makes calls${through} that Preflight cannot read in full: they are nested deeper than any ` +
      'ordinary transaction, or sit in a MultiSend batch whose bytes do not decode cleanly yet MultiSend would run. ' +
      `Hidden there may be a delegate call into code that can replace the Safe’s singleton, add owners or ` +
      `${TAKEOVER_POWERS}, whatever this simulation shows. Do not sign it.`,
    call.to ? { unreadCallsIn: call.to.toLowerCase() } : null,
  )
}

function changeWarnings(
  calls: Call[],
  changes: SafeConfigChange[],
  safes: ReadonlyMap<string, SafeContext | null>,
): Warning[] {
  const warnings: Warning[] = []
  for (const safe of new Set(changes.map((change) => change.safe))) {
    const mine = changes.filter((change) => isAddressEqual(change.safe, safe))
    const intent = safeIntent(calls, safe)
    for (const change of mine) {
      if (!isExplained(change, intent)) warnings.push(unexplainedWarning(change))
      else warnings.push(...authorityWarnings(change))
    }
    const control = ownerWarning(mine, safes.get(safe.toLowerCase()) ?? null)
    if (control && mine.every((change) => isExplainedOrNotOwners(change, intent))) warnings.push(control)
  }
  return warnings
}

function isExplainedOrNotOwners(change: SafeConfigChange, intent: ReturnType<typeof safeIntent>): boolean {
  return (change.field !== 'owners' && change.field !== 'threshold') || isExplained(change, intent)
}

/** A change no call shown to the signer asks for: code nobody showed them made it. */
function unexplainedWarning(change: SafeConfigChange): Warning {
  const owners = change.field === 'owners' || change.field === 'threshold'
  return makeWarning(
    owners ? 'USER_ACCOUNT_OWNER_CHANGE' : 'SET_OWNER_AUTHORITY',
    'CRITICAL',
    `The Safe ${shortAddress(change.safe)} would change its ${SAFE_FIELD_NAMES[change.field].toLowerCase()} ` +
      `(${describeSafeChange(change)}), yet no call in this transaction asks for that: code run by a delegate call, ` +
      `a module or a hidden inner call makes the change. ${powersOf(change)} Do not sign it.`,
    { safe: change.safe.toLowerCase(), field: change.field },
  )
}

/** What the changed field gives its new holder, in words. */
function powersOf(change: SafeConfigChange): string {
  switch (change.field) {
    case 'singleton':
      return `The new code runs the Safe: it can ${TAKEOVER_POWERS}.`
    case 'modules':
      return 'A module can move every asset without any owner’s confirmation.'
    case 'guard':
    case 'moduleGuard':
      return 'A guard can refuse every later transaction and lock the Safe.'
    case 'fallbackHandler':
      return 'The fallback handler answers signature checks in the Safe’s name and every call the Safe does not know.'
    case 'nonce':
      return 'Every Safe transaction already signed for the skipped nonces can never execute.'
    case 'owners':
    case 'threshold':
      return 'Owners decide what the Safe does with its assets.'
  }
}

/** A change the calls announce: who or what gains control, judged by whether it is one of Safe's own contracts. */
function authorityWarnings(change: SafeConfigChange): Warning[] {
  const safe = shortAddress(change.safe)
  const warn = (severity: Severity, message: string) =>
    makeWarning('SET_OWNER_AUTHORITY', severity, message, { safe: change.safe.toLowerCase(), field: change.field })
  switch (change.field) {
    case 'singleton':
      return isSafeDeployment(change.after, 'singleton')
        ? [
            warn(
              'WARNING',
              `This transaction moves the Safe ${safe} to another Safe release, ${controllerLabel(change.after)}. ` +
                'Only continue if you planned this upgrade.',
            ),
          ]
        : [
            warn(
              'CRITICAL',
              `This transaction replaces the code that runs the Safe ${safe} with ${shortAddress(change.after)}, ` +
                `which is not a Safe release. That code can ${TAKEOVER_POWERS}; the owners’ signatures would no ` +
                'longer protect anything. Do not sign it.',
            ),
          ]
    case 'modules':
      return [
        ...change.added.map((module) => {
          const released = safeModule(module)
          return released
            ? warn(
                'WARNING',
                `This transaction enables ${released.name} ${released.version} (${shortAddress(module)}), a module ` +
                  `Safe releases, on the Safe ${safe}. ${RELEASED_MODULE}`,
              )
            : warn(
                'CRITICAL',
                `This transaction enables ${shortAddress(module)} as a module of the Safe ${safe}. It is not a Safe ` +
                  'deployment, and a module can move every asset without any owner’s confirmation. Do not sign it.',
              )
        }),
        ...change.removed.map((module) =>
          warn('WARNING', `This transaction disables the module ${controllerLabel(module)} of the Safe ${safe}.`),
        ),
      ]
    case 'guard':
    case 'moduleGuard': {
      const what = change.field === 'guard' ? 'transaction guard' : 'module guard'
      if (isUnset(change.after)) {
        return [warn('WARNING', `This transaction removes the ${what} of the Safe ${safe}, a check it relied on.`)]
      }
      return [
        warn(
          'CRITICAL',
          `This transaction sets ${shortAddress(change.after)} as the ${what} of the Safe ${safe}. It is not a Safe ` +
            `deployment, and a guard can refuse every later ${change.field === 'guard' ? 'transaction' : 'module transaction'}, locking the Safe and everything in it. Do not sign it.`,
        ),
      ]
    }
    case 'fallbackHandler':
      return isUnset(change.after) || isSafeDeployment(change.after, 'fallbackHandler')
        ? [
            warn(
              'WARNING',
              `This transaction sets the fallback handler of the Safe ${safe} to ${controllerLabel(change.after)}.`,
            ),
          ]
        : [
            warn(
              'CRITICAL',
              `This transaction sets ${shortAddress(change.after)} as the fallback handler of the Safe ${safe}. It is ` +
                'not a Safe deployment, and the fallback handler answers signature checks in the Safe’s name (so it ' +
                'can approve orders and permits for everything the Safe holds) and every call the Safe does not ' +
                'know. Do not sign it.',
            ),
          ]
    default:
      // Owners and threshold are judged together (ownerWarning); the nonce is never explained by a call.
      return []
  }
}

/**
 * One warning per Safe for its owners and threshold, with the new owners and threshold spelled out: CRITICAL when
 * accounts that are not owners now reach the threshold by themselves (a non-owner added with threshold 1, every
 * owner swapped out), since the current owners then lose the Safe; WARNING otherwise.
 */
function ownerWarning(changes: SafeConfigChange[], context: SafeContext | null): Warning | null {
  const owners = changes.find((change) => change.field === 'owners')
  const threshold = changes.find((change) => change.field === 'threshold')
  if (!owners && !threshold) return null
  const safe = (owners ?? threshold)?.safe as Address
  const before = owners?.field === 'owners' ? owners.before : (context?.owners ?? [])
  const after = owners?.field === 'owners' ? owners.after : (context?.owners ?? [])
  const needed = threshold?.field === 'threshold' ? threshold.after : BigInt(context?.threshold ?? after.length)
  const newcomers = after.filter((owner) => !before.some((known) => isAddressEqual(known, owner)))
  const takenOver = newcomers.length > 0 && BigInt(newcomers.length) >= needed
  const parts = [
    ...(owners?.field === 'owners' ? [`owners ${describeOwners(owners.added, owners.removed)}`] : []),
    ...(threshold?.field === 'threshold' ? [`threshold ${threshold.before} → ${threshold.after}`] : []),
  ]
  const rule =
    needed === 1n
      ? 'any single one of them alone would control the Safe and everything in it'
      : `${needed} of them would have to confirm every transaction`
  const verdict = !takenOver
    ? 'Only continue if you expected this change.'
    : `${newcomers.length === after.length ? 'None of its current owners would remain: ' : ''}` +
      `${newcomers.map(shortAddress).join(', ')}, not owners today, would reach the threshold without any current ` +
      'owner and control the Safe and everything in it. Do not sign it unless every one of them is a key you hold.'
  return makeWarning(
    'USER_ACCOUNT_OWNER_CHANGE',
    takenOver ? 'CRITICAL' : 'WARNING',
    `This transaction changes who controls the Safe ${shortAddress(safe)} (${parts.join('; ')}). Its owners would ` +
      `then be ${after.map(shortAddress).join(', ')}, and ${rule}. ${verdict}`,
    {
      safe: safe.toLowerCase(),
      owners: after.map((owner) => owner.toLowerCase()).join(','),
      threshold: needed.toString(),
    },
  )
}

function describeOwners(added: Address[], removed: Address[]): string {
  return [
    ...(added.length ? [`adds ${added.map(shortAddress).join(', ')}`] : []),
    ...(removed.length ? [`removes ${removed.map(shortAddress).join(', ')}`] : []),
  ].join(', ')
}

/** What a settings call the Safe makes to itself would do, from its calldata alone (nothing was simulated). */
function selfCallWarning(call: Call): Warning[] {
  if (call.depth === 0 || !call.to || !isAddressEqual(call.from, call.to)) return []
  const decoded = decodeKnownFunction(call.data)
  if (!decoded) return []
  const args = decoded.args
  const address = (index: number) => args[index] as Address
  const who = (index: number) => shortAddress(address(index))
  const needs = (index: number) => confirmations(args[index] as bigint)
  const unknown = (index: number, role: 'fallbackHandler' | 'singleton') =>
    !isUnset(address(index)) && !isSafeDeployment(address(index), role)
  switch (decoded.functionName) {
    case 'addOwnerWithThreshold':
      // Threshold 1: the account added, not an owner until now, alone controls the Safe.
      return [ownerChange(`adds ${who(0)} as an owner and then ${needs(1)}`, args[1] === 1n ? 'CRITICAL' : 'WARNING')]
    case 'removeOwner':
      return [ownerChange(`removes the owner ${who(1)} and then ${needs(2)}`)]
    case 'swapOwner':
      return [ownerChange(`replaces the owner ${who(1)} with ${who(2)}`)]
    case 'changeThreshold':
      return [ownerChange(`changes the rule for approving transactions: it then ${needs(0)}`)]
    case 'enableModule': {
      const released = safeModule(address(0))
      return [
        released
          ? authority(
              'WARNING',
              `enables ${released.name} ${released.version} (${who(0)}), a module Safe releases, which then moves ` +
                'the Safe’s assets by the rules the owners set in it, without their confirmation',
            )
          : authority(
              'CRITICAL',
              `enables ${who(0)} as a module. A module can move everything in the Safe without any owner’s confirmation`,
            ),
      ]
    }
    case 'setGuard':
    case 'setModuleGuard':
      return [
        authority(
          isUnset(address(0)) ? 'WARNING' : 'CRITICAL',
          `sets ${who(0)} as the ${decoded.functionName === 'setGuard' ? 'transaction' : 'module'} guard. A guard ` +
            'can refuse every later transaction and lock the Safe',
        ),
      ]
    case 'setFallbackHandler':
      return [
        authority(
          unknown(0, 'fallbackHandler') ? 'CRITICAL' : 'WARNING',
          `sets ${who(0)} as the fallback handler. It answers the calls the Safe does not know itself, including ` +
            'checks of signatures made in the Safe’s name',
        ),
      ]
    case 'changeMasterCopy':
      return [
        authority(
          unknown(0, 'singleton') ? 'CRITICAL' : 'WARNING',
          `replaces the code that runs the Safe with ${who(0)}. Code that is not a Safe release can ${TAKEOVER_POWERS}`,
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

function ownerChange(change: string, severity: Severity = 'WARNING'): Warning {
  return makeWarning(
    'USER_ACCOUNT_OWNER_CHANGE',
    severity,
    `This Safe transaction ${change}. Owners decide what the Safe does with its assets: ` +
      (severity === 'CRITICAL'
        ? 'do not sign it unless that account is yours.'
        : 'only continue if you expected this change.'),
  )
}

function authority(severity: Severity, change: string): Warning {
  return makeWarning(
    'SET_OWNER_AUTHORITY',
    severity,
    `This Safe transaction ${change}. ${severity === 'CRITICAL' ? 'It is not a Safe deployment: do not sign it.' : 'Only continue if you know and trust this address.'}`,
  )
}
