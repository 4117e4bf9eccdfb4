/** What the scanner page does with one order from the worker. */
import { embeddingPageWarnings } from '../../engine/index.ts'
import type { ScanState } from '../shared/pending.ts'
import { withWarnings } from '../shared/scanWarnings.ts'
import { type ScanOrder, scanFailed } from './protocol.ts'
import { runScan } from './scan.ts'
import { buildScanRequest } from './scanRequest.ts'

/**
 * The scan of an ordered request, after `engineData` (the lists a local scan reads) has arrived, with the warnings
 * for the page around a framed request; never throws, so the worker always gets a state to store and the window
 * always leaves its wait.
 */
export async function scanOrdered(order: ScanOrder, engineData: () => Promise<void>): Promise<ScanState> {
  const { call, settings, probeEnvironment = false } = order
  try {
    const request = await buildScanRequest(call.method, call.params, call.account, call.origin)
    // A scan API judges only the origin the seed's request carries; the page around a frame is judged here, from the
    // same lists, whichever backend scans.
    if (settings.backend.kind === 'local' || call.topOrigin !== undefined) await engineData()
    const state = await runScan(request, call.chainId, settings, { probeEnvironment })
    return call.topOrigin === undefined
      ? state
      : withWarnings(state, embeddingPageWarnings(call.topOrigin, call.origin))
  } catch (error) {
    return scanFailed(error)
  }
}
