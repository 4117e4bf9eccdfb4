/**
 * What got worse between the scan a window showed and a fresh one made as the user continued. A contract can read
 * state its owner changes at will, so it can pay the user back while the window is open and take everything once the
 * owner flips a switch (simulation spoofing, seen draining real wallets): the window's result is only as old as its
 * scan. Only what is worse for the user counts: a swap that pays a little less a block later is not news.
 */
import { type Action, pastTolerance, type ScanTransactionsResponse, type StateChange } from '../../engine/index.ts'

const SEVERITY: Record<Action, number> = { NONE: 0, WARN: 1, BLOCK: 2 }

type Entry = { change: StateChange; value: bigint | string; fungible: boolean; approval: boolean }

/** Lines saying what is worse now, in words a person can check against the window; empty when nothing is. */
export function outcomeDrift(shown: ScanTransactionsResponse, now: ScanTransactionsResponse): string[] {
  const lines: string[] = []
  const failure = now.simulationResults.aggregated.error
  if (failure && !shown.simulationResults.aggregated.error) {
    lines.push(`It would now fail: ${failure.humanReadableError}`)
  }
  const before = entriesOf(shown)
  const after = entriesOf(now)
  for (const [key, current] of after) {
    const previous = before.get(key)
    if (isWorse(previous, current)) {
      lines.push(
        previous
          ? `Now: ${current.change.humanReadableDiff} (it showed: ${previous.change.humanReadableDiff})`
          : `Now: ${current.change.humanReadableDiff} (it showed nothing of this)`,
      )
    }
  }
  for (const [key, previous] of before) {
    if (after.has(key) || previous.approval || typeof previous.value !== 'bigint' || previous.value <= 0n) continue
    lines.push(`No longer: ${previous.change.humanReadableDiff}`)
  }
  const shownKinds = new Set(shown.warnings.map((warning) => warning.kind))
  const fresh = now.warnings.filter((warning) => !shownKinds.has(warning.kind))
  for (const warning of fresh) lines.push(`New warning: ${warning.message}`)
  if (fresh.length === 0 && SEVERITY[now.action] > SEVERITY[shown.action]) {
    lines.push(`Preflight's advice is now ${now.action}, where it was ${shown.action}.`)
  }
  return lines
}

/** Whether `current` leaves the user worse off than `previous` did (none: nothing of it was shown). */
function isWorse(previous: Entry | undefined, current: Entry): boolean {
  if (typeof current.value === 'string' || typeof previous?.value === 'string') {
    return previous?.value !== current.value
  }
  const was = previous ? (previous.value as bigint) : 0n
  // An approval grants more; a transfer leaves less with the account.
  const loss = current.approval ? current.value - was : was - current.value
  if (loss <= 0n) return false
  if (!current.fungible) return true
  // A fungible amount may move a little (an AMM between blocks, within a dapp's slippage bound).
  return pastTolerance(loss, was, current.value)
}

/** Every account's state changes by what they are about: an asset (and spender) of an account, or a Safe's field. */
function entriesOf(response: ScanTransactionsResponse): Map<string, Entry> {
  const entries = new Map<string, Entry>()
  for (const [account, changes] of Object.entries(response.simulationResults.aggregated.expectedStateChanges)) {
    for (const change of changes) {
      const { key, entry } = entryOf(change)
      const at = `${account.toLowerCase()}|${key}`
      const counted = entries.get(at)?.value
      // Items of one collection coming in add up (entryOf); nothing else shares a key.
      if (typeof counted === 'bigint' && typeof entry.value === 'bigint') entry.value += counted
      entries.set(at, entry)
    }
  }
  return entries
}

function entryOf(change: StateChange): { key: string; entry: Entry } {
  const raw = change.rawInfo
  const of = (key: string, value: bigint | string, fungible: boolean, approval: boolean) => ({
    key: `${raw.kind}:${key.toLowerCase()}`,
    entry: { change, value, fungible, approval },
  })
  switch (raw.kind) {
    case 'NATIVE_ASSET_TRANSFER':
    case 'ERC20_TRANSFER':
      return of(raw.data.asset.address, delta(raw.data.amount), true, false)
    case 'ERC1155_TRANSFER':
    case 'ERC721_TRANSFER': {
      // A mint picks its item as it runs (the next id, or one drawn from the block's randomness, which every scan
      // draws afresh: a loot box's ERC-1155 item as much as a drop's ERC-721), so what comes in is counted per
      // collection; what leaves is the very item.
      const fungible = raw.kind === 'ERC1155_TRANSFER'
      const moved = delta(raw.data.amount)
      if (typeof moved === 'bigint' && moved > 0n)
        return of(`${raw.data.asset.address}:received`, moved, fungible, false)
      return of(`${raw.data.asset.address}:${raw.data.tokenId}`, moved, fungible, false)
    }
    case 'ERC20_APPROVAL':
      return of(`${raw.data.asset.address}:${raw.data.spender.address}`, amount(raw.data.amount.after), true, true)
    case 'ERC20_PERMIT':
      return of(`${raw.data.asset.address}:${raw.data.spender.address}`, amount(raw.data.amount), true, true)
    case 'ERC721_APPROVAL':
      return of(
        `${raw.data.asset.address}:${raw.data.tokenId}:${raw.data.spender.address}`,
        amount(raw.data.amount.after),
        false,
        true,
      )
    case 'ERC721_APPROVAL_FOR_ALL':
    case 'ERC1155_APPROVAL_FOR_ALL':
      return of(`${raw.data.asset.address}:${raw.data.spender.address}`, amount(raw.data.amount.after), false, true)
    case 'SAFE_CONFIGURATION_CHANGE':
      return of(`${raw.data.contract.address}:${raw.data.field}`, JSON.stringify(raw.data.after), false, false)
  }
}

const INTEGER = /^-?\d+$/

/**
 * A whole number of base units; anything else (a scan API's answer is not Preflight's own) stays text, compared by
 * equality, so an amount that cannot be read cannot hide a change either.
 */
function amount(text: string): bigint | string {
  return INTEGER.test(text) ? BigInt(text) : text
}

function delta(value: { before: string; after: string }): bigint | string {
  const before = amount(value.before)
  const after = amount(value.after)
  return typeof before === 'bigint' && typeof after === 'bigint' ? after - before : `${before} → ${after}`
}
