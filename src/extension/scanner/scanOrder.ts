/** What the scanner page does with one order from the worker. */
import type { ScanState } from '../shared/pending.ts'
import { type ScanOrder, scanFailed } from './protocol.ts'
import { runScan } from './scan.ts'
import { buildScanRequest } from './scanRequest.ts'

/**
 * The scan of an ordered request, after `engineData` (the lists a local scan reads) has arrived; never throws, so the
 * worker always gets a state to store and the window always leaves its wait.
 */
export async function scanOrdered(order: ScanOrder, engineData: () => Promise<void>): Promise<ScanState> {
  const { call, settings } = order
  try {
    const request = await buildScanRequest(call.method, call.params, call.account, call.origin)
    if (settings.backend.kind === 'local') await engineData()
    return await runScan(request, call.chainId, settings)
  } catch (error) {
    return scanFailed(error)
  }
}
