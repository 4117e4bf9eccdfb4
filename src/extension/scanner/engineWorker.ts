// The engine's thread: a dedicated worker of the scanner page, so scans never hold up a page's main thread (the
// confirmation window shares its process with the scanner page).
import { loadBundledData } from 'virtual:bundled-data'
import { decodeAnswer } from '../shared/signedTx.ts'
import { type EngineReply, type EngineTask, scanFailed } from './protocol.ts'
import { scanOrdered } from './scanOrder.ts'

const answer = async (order: EngineTask['order']): Promise<unknown> => {
  if (order.type === 'preflight/scan') return scanOrdered(order, loadBundledData)
  if (order.type === 'preflight/decode-signed') return decodeAnswer(order.raw)
  return (order.local ? loadBundledData() : Promise.resolve()).then(
    () => true,
    () => false,
  )
}

self.addEventListener('message', async (event: MessageEvent<EngineTask>) => {
  const { id, order } = event.data
  // Every task gets an answer, so nothing waits on the page: an answer that cannot be sent is sent as the failure.
  try {
    self.postMessage({ id, answer: await answer(order) } satisfies EngineReply)
  } catch (error) {
    self.postMessage({ id, answer: scanFailed(error) } satisfies EngineReply)
  }
})
