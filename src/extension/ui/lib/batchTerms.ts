/**
 * What a wallet_sendCalls batch asks of its wallet beyond the calls, in words: EIP-5792's `atomicRequired`, and the
 * capabilities of the batch and of each call (ERC-7677's paymaster, auxiliary funds, and those Preflight does not know).
 * The simulation runs the calls together, as sent, and acts on none of these, so the window says what each one means.
 */
import { isRecord } from '../../../engine/index.ts'
import type { PendingRequest } from '../../shared/pending.ts'
import { urlHost } from '../../shared/urlHost.ts'

export type BatchTerm = {
  /** As the request names it: "atomicRequired", "paymasterService", … */
  name: string
  /** The call (from 1) whose own capability it is; null for the batch's. */
  call: number | null
  text: string
  /** Whether it changes what happens in a way the simulation does not show. */
  unsimulated: boolean
  /** A capability marked `optional`, which the wallet may go without (EIP-5792). */
  optional: boolean
}

/** The host a URL names, or what it is when it names none: the rest of it is in the raw request. */
function hostOf(url: unknown): string {
  if (typeof url !== 'string') return 'no URL'
  return urlHost(url) ?? 'an unreadable URL'
}

/** The words for one capability, by its name. */
function capabilityText(name: string, value: unknown): { text: string; unsimulated: boolean } {
  switch (name) {
    case 'paymasterService': {
      const host = hostOf(isRecord(value) ? value.url : undefined)
      return {
        text: `A paymaster the site chose pays the gas (${host}). What it charges for that is not simulated: a token paymaster takes tokens from the account.`,
        unsimulated: true,
      }
    }
    case 'auxiliaryFunds':
      return {
        text: 'The site counts on the wallet drawing funds from elsewhere; the simulation sees only what the account holds.',
        unsimulated: true,
      }
    default:
      return {
        text: 'Preflight does not know this capability, and the wallet acts on it as it sees fit; its value is in the raw request.',
        unsimulated: true,
      }
  }
}

function capabilityTerms(capabilities: unknown, call: number | null): BatchTerm[] {
  if (!isRecord(capabilities)) return []
  return Object.entries(capabilities).map(([name, value]) => ({
    name,
    call,
    ...capabilityText(name, value),
    optional: isRecord(value) && value.optional === true,
  }))
}

/** The terms of a batch, the batch's own first and then each call's; null for any other request. */
export function batchTerms(request: Pick<PendingRequest, 'method' | 'params'>): BatchTerm[] | null {
  const batch = request.params[0]
  if (request.method !== 'wallet_sendCalls' || !isRecord(batch)) return null
  const terms: BatchTerm[] = []
  if (typeof batch.atomicRequired === 'boolean') {
    terms.push({
      name: 'atomicRequired',
      call: null,
      optional: false,
      ...(batch.atomicRequired
        ? { text: 'All or nothing: the wallet must run every call together, or none of them.', unsimulated: false }
        : {
            text: 'The wallet may run the calls one at a time: one that fails leaves those before it done, and others can act in between. The simulation ran them together.',
            unsimulated: true,
          }),
    })
  }
  terms.push(...capabilityTerms(batch.capabilities, null))
  const calls = Array.isArray(batch.calls) ? batch.calls : []
  calls.forEach((call, index) => {
    if (isRecord(call)) terms.push(...capabilityTerms(call.capabilities, index + 1))
  })
  return terms
}
