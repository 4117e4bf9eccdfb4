/**
 * The addresses the user chose to send assets to, kept on this device only (chrome.storage.local `counterparties`,
 * newest first, at most COUNTERPARTIES_LIMIT), so a later request that sends to a lookalike of one is flagged as
 * address poisoning (engine/risk/poisoning.ts). An address is remembered once the user continued a request whose scan
 * showed assets going to it.
 */
import type { Storage } from 'webextension-polyfill'
import { type Address, poisonedAddressWarnings, recipientsOf, type StateChange } from '../../engine/index.ts'
import type { ScanState } from '../shared/pending.ts'
import { withWarnings } from '../shared/scanWarnings.ts'
import { serially } from './serially.ts'

export const COUNTERPARTIES_KEY = 'counterparties'
export const COUNTERPARTIES_LIMIT = 1_000
/**
 * At most this many recipients are remembered from one request: a payout to a list is rare, and a token that emits
 * fake transfers from the user must not be able to push every real payee out of the list.
 */
export const REMEMBERED_PER_REQUEST = 20

const ADDRESS = /^0x[0-9a-f]{40}$/

/**
 * The state changes of the one whose assets the request moves: the signer's for transactions (not the pools and
 * routers a swap passes through), and the message's own for a signature (a Safe's, for a Safe transaction).
 */
function changesOf(scan: ScanState, account: string): StateChange[] {
  if (scan.status !== 'DONE') return []
  if (scan.kind === 'message') return scan.response.simulationResults.expectedStateChanges ?? []
  const byAccount = scan.response.simulationResults?.aggregated?.expectedStateChanges ?? {}
  return byAccount[account.toLowerCase() as Address] ?? []
}

/** The addresses a finished scan shows the request sending `account`'s assets to, as many as one request may add. */
export function scanRecipients(scan: ScanState, account: string): Address[] {
  return recipientsOf(changesOf(scan, account)).slice(0, REMEMBERED_PER_REQUEST)
}

/**
 * The scan with a POISONED_ADDRESS warning for each recipient that mimics an address in `known` or the signing
 * `account`, and its action decided again from all its warnings; unchanged when there is none.
 */
export function withPoisonedAddressWarnings(scan: ScanState, account: string, known: ReadonlySet<Address>): ScanState {
  const payees = new Set([...known, account.toLowerCase() as Address])
  return withWarnings(scan, poisonedAddressWarnings(changesOf(scan, account), payees))
}

/** The remembered addresses, read from and written to `area` one step at a time. */
export function createCounterparties(area: Storage.StorageArea) {
  const inOrder = serially()
  const read = async (): Promise<Address[]> => {
    const stored = (await area.get(COUNTERPARTIES_KEY))[COUNTERPARTIES_KEY]
    return Array.isArray(stored) ? stored.filter((entry): entry is Address => ADDRESS.test(String(entry))) : []
  }
  return {
    known: async (): Promise<Set<Address>> => new Set(await read()),
    /** Puts `addresses` first (an address already kept moves up), dropping the oldest beyond the limit. */
    remember: (addresses: Address[]): Promise<void> =>
      inOrder(async () => {
        if (addresses.length === 0) return
        const fresh = new Set(addresses.map((address) => address.toLowerCase() as Address))
        const kept = (await read()).filter((address) => !fresh.has(address))
        await area.set({ [COUNTERPARTIES_KEY]: [...fresh, ...kept].slice(0, COUNTERPARTIES_LIMIT) })
      }),
  }
}
