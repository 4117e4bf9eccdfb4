/**
 * Settings of Safe 1.5.0's ExtensibleFallbackHandler, which it keeps per Safe and which decide how the Safe answers
 * for itself: `setDomainVerifier(domainSeparator, verifier)` lets a contract decide every EIP-1271 signature check of
 * the Safe for one EIP-712 domain (Permit2's, a token's permit, CoW's orders), and `setSafeMethod(selector, method)`
 * (also `addSupportedInterfaceBatch`) routes a call to the Safe to a handler contract that answers it in the Safe's
 * name. The Safe calls itself and its fallback forwards the call to the handler, so none of this shows in the Safe's
 * configuration: it is read from the calldata, and from the handler's ChangedDomainVerifier and ChangedSafeMethod
 * events for the routes the calldata does not show (a module's inner call).
 */
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  parseAbiItem,
  size,
  slice,
  toEventSelector,
  zeroAddress,
} from 'viem'
import { functionDecoder } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import type { Call } from '../safe/index.ts'
import type { SimulatedLog } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * Domain verifiers Preflight knows, by lowercase address (the same on every chain), with what they are: CoW
 * Protocol's ComposableCoW is the one Safe{Wallet} sets for CoW's settlement domain.
 */
const KNOWN_DOMAIN_VERIFIERS: Record<string, string> = {
  '0xfdafc9d1902f4e0b84f65f49f244b32b31013b74': 'CoW Protocol’s ComposableCoW (TWAP and other conditional orders)',
}

/** One setting: a domain's verifier, or the handler of a method (selector), given to `handler` for `safe`. */
type HandlerSetting = { safe: Address; kind: 'verifier' | 'method'; key: Hex; handler: Address }

const setDomainVerifier = functionDecoder(
  parseAbiItem('function setDomainVerifier(bytes32 domainSeparator, address newVerifier)'),
)
const setSafeMethod = functionDecoder(parseAbiItem('function setSafeMethod(bytes4 selector, bytes32 newMethod)'))
const addSupportedInterfaceBatch = functionDecoder(
  parseAbiItem('function addSupportedInterfaceBatch(bytes4 interfaceId, bytes32[] handlerWithSelectors)'),
)

/**
 * A warning for each verifier or method handler the transactions give a Safe, from the calldata and from the events;
 * CRITICAL unless it is a verifier Preflight knows. Removing one (the zero address) hands nothing over.
 */
export function handlerSettingWarnings(calls: Call[], logs: SimulatedLog[]): Warning[] {
  const settings = [...calls.flatMap(settingsOfCall), ...logs.flatMap(settingsOfLog)]
  const seen = new Set<string>()
  const warnings: Warning[] = []
  for (const setting of settings) {
    const id = [setting.safe, setting.kind, setting.key, setting.handler].join(':').toLowerCase()
    if (isAddressEqual(setting.handler, zeroAddress) || seen.has(id)) continue
    seen.add(id)
    warnings.push(settingWarning(setting))
  }
  return warnings
}

/** The settings a Safe's call to itself asks its fallback handler for. */
function settingsOfCall(call: Call): HandlerSetting[] {
  if (!call.to || call.delegate || !isAddressEqual(call.from, call.to)) return []
  const safe = call.to
  try {
    const verifier = setDomainVerifier(call.data)
    if (verifier) return [{ safe, kind: 'verifier', key: verifier[0], handler: verifier[1] }]
    const method = setSafeMethod(call.data)
    if (method) return [{ safe, kind: 'method', key: method[0], handler: methodHandler(method[1]) }]
    const batch = addSupportedInterfaceBatch(call.data)
    // Each entry packs the selector in bytes 1 to 4 and the handler in the last 20 (MarshalLib.encodeWithSelector).
    return (batch?.[1] ?? []).map((entry) => ({
      safe,
      kind: 'method',
      key: slice(entry, 1, 5),
      handler: methodHandler(entry),
    }))
  } catch {
    return []
  }
}

/** The handler's own record of a setting: `ChangedDomainVerifier` or `ChangedSafeMethod`, the Safe indexed. */
function settingsOfLog(log: SimulatedLog): HandlerSetting[] {
  const [topic, safeTopic] = log.topics
  if (!safeTopic || size(log.data) !== 96) return []
  const safe = getAddress(slice(safeTopic, 12))
  const word = (index: number) => slice(log.data, index * 32, index * 32 + 32)
  if (topic === eventTopics().changedDomainVerifier) {
    return [{ safe, kind: 'verifier', key: word(0), handler: getAddress(slice(word(2), 12)) }]
  }
  if (topic === eventTopics().changedSafeMethod) {
    return [{ safe, kind: 'method', key: slice(word(0), 0, 4), handler: methodHandler(word(2)) }]
  }
  return []
}

/** The handler address of an encoded method: its last 20 bytes (MarshalLib). */
function methodHandler(method: Hex): Address {
  return getAddress(slice(method, 12))
}

function settingWarning(setting: HandlerSetting): Warning {
  const { safe, kind, key, handler } = setting
  const who = shortAddress(handler)
  const known = kind === 'verifier' ? KNOWN_DOMAIN_VERIFIERS[handler.toLowerCase()] : undefined
  const what =
    kind === 'verifier'
      ? `makes ${who} the judge of every signature checked in the name of the Safe ${shortAddress(safe)} for the ` +
        `EIP-712 domain ${key}: whatever ${who} approves counts as signed by the Safe (a permit, an order, an ` +
        'approval in that domain), without any owner'
      : `hands the calls to the Safe ${shortAddress(safe)} with the selector ${key} to ${who}, which then answers ` +
        'them in the Safe’s name (signature checks among them), without any owner'
  const message =
    `This Safe transaction ${what}. It is a setting of Safe’s ExtensibleFallbackHandler. ` +
    (known
      ? `${who} is ${known}: only continue if you meant to let it answer for the Safe in that domain.`
      : `${who} is no contract Preflight knows. Do not sign it.`)
  return makeWarning('SET_OWNER_AUTHORITY', known ? 'WARNING' : 'CRITICAL', message, {
    safe: safe.toLowerCase(),
    // The handler's own settings: the panel shows them with the Safe's fallback handler.
    field: 'fallbackHandler',
    ...(kind === 'verifier' ? { domainSeparator: key, domainVerifier: handler.toLowerCase() } : {}),
    ...(kind === 'method' ? { selector: key, methodHandler: handler.toLowerCase() } : {}),
  })
}

let topics: { changedDomainVerifier: Hex; changedSafeMethod: Hex } | undefined
/** Hashed on first use: a starting service worker should not spend its first milliseconds on keccak. */
function eventTopics(): { changedDomainVerifier: Hex; changedSafeMethod: Hex } {
  topics ??= {
    changedDomainVerifier: toEventSelector('ChangedDomainVerifier(address,bytes32,address,address)'),
    changedSafeMethod: toEventSelector('ChangedSafeMethod(address,bytes4,bytes32,bytes32)'),
  }
  return topics
}
