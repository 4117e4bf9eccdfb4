/** What the scanner page does with one order from the worker. */
import { embeddingPageWarnings, originWarnings, sandboxedOrigin, type Warning } from '../../engine/index.ts'
import type { ScanState } from '../shared/pending.ts'
import { withWarnings } from '../shared/scanWarnings.ts'
import { type ScanOrder, scanFailed } from './protocol.ts'
import { runScan } from './scan.ts'
import { buildScanRequest } from './scanRequest.ts'
import { siteNonceWarnings } from './siteNonce.ts'

/**
 * The scan of an ordered request, after `engineData` (the lists a local scan reads) has arrived, with the warnings
 * for the page around a framed request, for the site that served a sandboxed one and for a nonce the site fixed (read
 * from the chain's node beside the scan); never throws, so the worker always gets a state to store and the window
 * always leaves its wait.
 */
export async function scanOrdered(order: ScanOrder, engineData: () => Promise<void>): Promise<ScanState> {
  const { call, settings, probeEnvironment = false } = order
  try {
    const asking = call.sandboxed ? sandboxedOrigin(call.origin) : call.origin
    const request = await buildScanRequest(call.method, call.params, call.account, asking)
    const judged = call.topOrigin !== undefined || call.sandboxed
    // A scan API judges only the origin the seed's request carries; the page around a frame, and the site that served
    // a sandboxed document, are judged here, from the same lists, whichever backend scans.
    if (settings.backend.kind === 'local' || judged) await engineData()
    const [state, nonce] = await Promise.all([
      runScan(request, call.chainId, settings, { probeEnvironment }),
      siteNonceWarnings(request.kind === 'transactions' ? request.transaction : undefined, call.chainId, settings),
    ])
    const warnings: Warning[] = [
      ...(call.topOrigin === undefined ? [] : embeddingPageWarnings(call.topOrigin, call.origin)),
      ...(call.sandboxed ? originWarnings(call.origin) : []),
      ...nonce,
    ]
    return withWarnings(state, warnings)
  } catch (error) {
    return scanFailed(error)
  }
}
