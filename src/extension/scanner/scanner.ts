// The scanner page: an offscreen document that hands the worker's orders to the engine's own thread (protocol.ts says
// why it is a page).
import browser, { type Runtime } from 'webextension-polyfill'
import { isExtensionPage } from '../background/sender.ts'
import type { EngineReply, EngineTask, ScanOrder, WarmOrder } from './protocol.ts'

let engine: Worker | undefined
let nextId = 0
const waiting = new Map<number, (answer: unknown) => void>()

/** The engine's worker, started again after it failed; a failure ends what waited on it, so the worker reports it. */
function engineWorker(): Worker {
  if (engine) return engine
  const started = new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module' })
  started.addEventListener('message', ({ data }: MessageEvent<EngineReply>) => {
    waiting.get(data.id)?.(data.answer)
    waiting.delete(data.id)
  })
  started.addEventListener('error', (event) => {
    engine = undefined
    started.terminate()
    const failed = { status: 'ERROR', error: { kind: 'BACKEND_ERROR', message: `The scan failed: ${event.message}` } }
    for (const settle of waiting.values()) settle(failed)
    waiting.clear()
  })
  engine = started
  return started
}

const ask = (order: EngineTask['order']) =>
  new Promise<unknown>((resolve) => {
    const id = nextId++
    waiting.set(id, resolve)
    engineWorker().postMessage({ id, order } satisfies EngineTask)
  })

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // Orders count only from the extension itself outside any tab: its worker. Content scripts and pages get no answer.
  if (sender.tab || !isExtensionPage(sender, browser.runtime.id, browser.runtime.getURL(''))) return undefined
  const order = message as ScanOrder | WarmOrder
  if (order?.type === 'preflight/scan' && typeof order.call === 'object' && typeof order.settings === 'object') {
    return ask(order)
  }
  if (order?.type === 'preflight/warm') return ask({ type: order.type, local: order.local === true })
  return undefined
})
