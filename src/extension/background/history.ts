/** The last scans, newest first, kept locally for the toolbar popup (chrome.storage.local `history`). */
import type { Storage } from 'webextension-polyfill'
import { type Decision, HISTORY_KEY, HISTORY_LIMIT, type HistoryEntry, type PendingRequest } from '../shared/pending.ts'
import { serially } from './serially.ts'

/** One line saying what the request was about: the first change to the user's assets, else the first warning. */
function summarize(record: PendingRequest): string {
  const scan = record.scan
  if (scan.status === 'ERROR') return `Could not simulate: ${scan.error.message}`
  if (scan.status === 'PENDING') return `${record.method} (decided before the scan finished)`
  const account = record.account.toLowerCase()
  const changes =
    scan.kind === 'transactions'
      ? (scan.response.simulationResults.aggregated.expectedStateChanges[account as `0x${string}`] ??
        Object.values(scan.response.simulationResults.aggregated.expectedStateChanges)[0] ??
        [])
      : scan.response.simulationResults.expectedStateChanges
  return changes[0]?.humanReadableDiff ?? scan.response.warnings[0]?.message ?? `${record.method}: no asset changes`
}

/** The popup's record of a settled request. */
export function historyEntry(record: PendingRequest, decision: Decision | 'closed', at: number): HistoryEntry {
  const action = record.scan.status === 'DONE' ? record.scan.response.action : 'ERROR'
  return {
    id: record.id,
    origin: record.origin,
    ...(record.sandboxed ? { sandboxed: true } : {}),
    method: record.method,
    chainId: record.chainId,
    action,
    decision,
    at,
    summary: summarize(record),
  }
}

/** Appends entries one at a time (newest first, at most HISTORY_LIMIT). */
export function createHistory(area: Storage.StorageArea) {
  const inOrder = serially()
  return {
    add: (entry: HistoryEntry): Promise<void> =>
      inOrder(async () => {
        const stored = (await area.get(HISTORY_KEY))[HISTORY_KEY]
        const list = Array.isArray(stored) ? (stored as HistoryEntry[]) : []
        await area.set({ [HISTORY_KEY]: [entry, ...list].slice(0, HISTORY_LIMIT) })
      }),
  }
}
