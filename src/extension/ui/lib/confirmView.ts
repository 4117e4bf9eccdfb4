/** Derives everything the confirmation window shows from a pending request: computed on render, never stored. */
import {
  type DecodedCalldata,
  handsOverControl,
  type MultisigContext,
  type SafeMessageContext,
  type SerializedValue,
  type StateChange,
  signsByHash,
  type Warning,
} from '../../../engine/index.ts'
import type { InterceptedMethod, PendingRequest } from '../../shared/pending.ts'
import { type ControlChange, controlChanges, isControlChange } from './controlView.ts'
import { type AccountGroup, describeChange, groupByAccount, lossesFirst } from './stateChangeView.ts'

export type ShownAction = 'PENDING' | 'ERROR' | 'NONE' | 'WARN' | 'BLOCK'

export type DecodedField = { name: string; type: string; value: SerializedValue }

export type ConfirmView = {
  action: ShownAction
  /** Why the scan failed (ERROR), in the engine's or the worker's words. */
  failure: string | null
  warnings: Warning[]
  /** What changes in who controls a Safe (SAFE_CONFIGURATION_CHANGE), shown before any asset. */
  control: ControlChange[]
  /** Asset changes by account. */
  groups: AccountGroup[]
  /** Simulation problems that did not stop the scan, e.g. "the transaction reverts". */
  simulationErrors: string[]
  /** A transaction of the request fails when simulated: it would move nothing and still cost its fee. */
  reverts: boolean
  multisig: MultisigContext | null
  /** What a Safe would sign in its own name, for a Safe message. */
  safeMessage: SafeMessageContext | null
  calls: NonNullable<DecodedCalldata>['data'][]
  message: { primaryType: string; fields: DecodedField[] } | null
  /**
   * What a raw message (personal_sign, eth_sign) asks to sign: its text, or its bytes in hex when they are no readable
   * text (`bytes`). Shown in full, not folded away: it is all there is to read before signing.
   */
  signedMessage: { text: string; bytes: boolean } | null
}

/** The primary types the engine gives a raw message's decoded form (decodeRawMessage). */
const RAW_MESSAGE_KINDS = new Set(['PERSONAL_SIGN', 'SIGN_MESSAGE'])

/** The raw message's text or bytes from the engine's decoded message; null for typed data. */
function signedMessageOf(decoded: ConfirmView['message']): ConfirmView['signedMessage'] {
  if (!decoded || !RAW_MESSAGE_KINDS.has(decoded.primaryType)) return null
  const field = decoded.fields[0]
  if (!field || typeof field.value !== 'string') return null
  return { text: field.value, bytes: field.type !== 'string' }
}

/** A blind Safe message moves nothing itself; what it signs can, and "no asset changes" must not read as "harmless". */
const SAFE_MESSAGE_CHANGES =
  'Signing moves no assets by itself. What the Safe signs can, once enough owners have signed: see the Safe message above.'
/** A transaction that signs or approves something by its hash (approveHash, SignMessageLib, a CoW pre-signature). */
const SIGNED_BY_HASH_CHANGES =
  'Nothing moves in this transaction itself. What it signs can, later: see the warning above.'

/**
 * A raw message (personal_sign, eth_sign) that is, or may be, a 32-byte hash: a Safe's safeTxHash, a permit's or an
 * order's digest. Signing it moves nothing here, and the signature can move everything the hash stands for.
 */
const RAW_HASH_CHANGES =
  'Signing moves no assets by itself. What the hash stands for can, and it cannot be read here: see the warning above.'

/** A transaction that hands over a contract (its ownership, a role, a proxy's code or admin). */
const CONTROL_CHANGES =
  'Nothing moves in this transaction itself. It changes who controls a contract: see the warning above.'

/** A transaction that fails: "no asset changes" is true, but the fee is still paid if it is sent. */
const REVERTS_CHANGES =
  'Nothing would change: the transaction fails (see Simulation above). Sent anyway, it would still cost the fee.'

/** A request the scan could not fully work out (a message it could not read): no rows is no evidence of no changes. */
const UNKNOWN_CHANGES =
  'Not known: the scan reported a problem (see Simulation above), so it could not work out what this request moves.'

/**
 * What the changes section says when no asset moves, when the default "no asset changes" would read as harmless: the
 * request signs something by its hash (a Safe's signature, an approved hash, a CoW order pre-signed by its ID, a raw
 * hash signed as a message), hands over control of a contract, fails, or could not be worked out.
 */
export function noChangesText(
  view: Pick<ConfirmView, 'warnings' | 'safeMessage' | 'simulationErrors' | 'reverts'>,
): string | undefined {
  if (view.warnings.some(signsByHash)) return view.safeMessage ? SAFE_MESSAGE_CHANGES : SIGNED_BY_HASH_CHANGES
  if (view.warnings.some((warning) => warning.kind === 'ETH_SIGN_TX_HASH')) return RAW_HASH_CHANGES
  if (view.warnings.some(handsOverControl)) return CONTROL_CHANGES
  if (view.reverts) return REVERTS_CHANGES
  return view.simulationErrors.length > 0 ? UNKNOWN_CHANGES : undefined
}

const METHOD_WORDS: Record<InterceptedMethod, string> = {
  eth_sendTransaction: 'Send a transaction',
  wallet_sendTransaction: 'Send a transaction',
  eth_signTransaction: 'Sign a transaction (to be sent later)',
  eth_sendRawTransaction: 'Send a signed transaction',
  eth_sendRawTransactionSync: 'Send a signed transaction',
  wallet_sendCalls: 'Send a batch of calls',
  eth_signTypedData_v4: 'Sign typed data',
  eth_signTypedData_v3: 'Sign typed data (v3)',
  eth_signTypedData_v1: 'Sign legacy typed data (v1)',
  eth_signTypedData: 'Sign typed data (eth_signTypedData)',
  eth_sign: 'Sign a raw hash (eth_sign)',
  personal_sign: 'Sign a message',
  wallet_grantPermissions: 'Grant this site permissions (ERC-7715)',
  wallet_requestExecutionPermissions: 'Grant this site permissions (ERC-7715)',
}

/** The request's method in words, e.g. "Send a transaction". */
export function methodWords(method: InterceptedMethod): string {
  return METHOD_WORDS[method] ?? method
}

/**
 * The action the banner's colour and the decision buttons follow: a NONE whose scan reported a problem (a revert, a
 * message it could not read) is not "nothing found", so it gets WARN's defaults: Reject focused, Continue not primary.
 */
export function decisionAction(view: Pick<ConfirmView, 'action' | 'simulationErrors'>): ShownAction {
  return view.action === 'NONE' && view.simulationErrors.length > 0 ? 'WARN' : view.action
}

/** Builds the view of a pending request in any scan state. */
export function confirmView(request: PendingRequest): ConfirmView {
  const empty: ConfirmView = {
    action: 'PENDING',
    failure: null,
    warnings: [],
    control: [],
    groups: [],
    simulationErrors: [],
    reverts: false,
    multisig: null,
    safeMessage: null,
    calls: [],
    message: null,
    signedMessage: null,
  }
  const scan = request.scan
  if (scan.status === 'PENDING') return empty
  if (scan.status === 'ERROR') {
    const error = scan.error
    const field = 'field' in error ? ` (field ${error.field})` : ''
    return { ...empty, action: 'ERROR', failure: `${error.message}${field}` }
  }
  const { response } = scan
  if (scan.kind === 'transactions') {
    const results = scan.response.simulationResults
    const perTx = results.perTransaction
    const calls = perTx.flatMap((tx) => (tx.decodedCalldata ? [tx.decodedCalldata.data] : []))
    const safes = calls.filter((call) => call.functionName === 'execTransaction').map((call) => call.contract)
    const byAccount = results.aggregated.expectedStateChanges
    return {
      ...empty,
      action: response.action,
      warnings: response.warnings,
      control: controlChanges(Object.values(byAccount).flat(), response.warnings),
      groups: groupByAccount(withoutControl(byAccount), results.aggregated.userAccount, safes),
      simulationErrors: [
        ...(results.aggregated.error ? [results.aggregated.error.humanReadableError] : []),
        ...perTx.flatMap((tx) => (tx.error ? [tx.error.humanReadableError] : [])),
      ].filter((text, index, all) => all.indexOf(text) === index),
      reverts: perTx.some((tx) => tx.error !== null),
      calls,
    }
  }
  const results = scan.response.simulationResults
  const multisig = results.multisig ?? null
  // A user operation's changes are its smart account's, a relayed request's its sender's: named as such.
  const subject = multisig?.wallet ?? results.account ?? request.account
  const assets = results.expectedStateChanges.filter((change) => !isControlChange(change))
  return {
    ...empty,
    action: response.action,
    warnings: response.warnings,
    control: controlChanges(results.expectedStateChanges, response.warnings),
    groups: assets.length
      ? [
          {
            account: subject,
            isUser: true,
            label: multisig ? 'Safe' : results.account ? 'Account' : 'You',
            // Outside a Safe transaction, a signed message moves assets only when someone fills it as an order.
            rows: lossesFirst(assets.map((change) => describeChange(change, multisig ? null : ORDER_TAKER))),
          },
        ]
      : [],
    simulationErrors: results.error ? [results.error.humanReadableError] : [],
    multisig,
    safeMessage: results.safeMessage ?? null,
    calls: (results.perTransaction ?? []).flatMap((tx) => (tx.decodedCalldata ? [tx.decodedCalldata.data] : [])),
    message: results.decodedMessage ?? null,
    signedMessage: signedMessageOf(results.decodedMessage ?? null),
  }
}

/** Who an order's assets go to and come from: not known until someone fills it. */
const ORDER_TAKER = 'whoever fills the order'

/** The asset changes of each account, without the Safe configuration changes the Safe panel shows. */
function withoutControl(byAccount: Record<string, StateChange[]>): Record<string, StateChange[]> {
  const assets: Record<string, StateChange[]> = {}
  for (const [account, changes] of Object.entries(byAccount)) {
    const rest = changes.filter((change) => !isControlChange(change))
    if (rest.length) assets[account] = rest
  }
  return assets
}
