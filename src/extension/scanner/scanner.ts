// The scanner page: an offscreen document that hands the worker's orders to the engine's own thread (protocol.ts says
// why it is a page).
import browser, { type Runtime } from 'webextension-polyfill'
import { isExtensionPage } from '../background/sender.ts'
import { closeWhenIdle } from './idleClose.ts'
import {
  type DecodeOrder,
  type EngineReply,
  type EngineTask,
  SCANNER_IDLE_MS,
  type ScanOrder,
  scanFailed,
  type WarmOrder,
} from './protocol.ts'

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
  // A thread that failed to load or died ends what waited on it; the next order starts another.
  const fail = (why: string) => {
    engine = undefined
    started.terminate()
    for (const settle of waiting.values()) settle(scanFailed(new Error(why)))
    waiting.clear()
  }
  started.addEventListener('error', (event) => fail(event.message || "the engine's thread could not start"))
  started.addEventListener('messageerror', () => fail("the engine's answer could not be read"))
  engine = started
  return started
}

const ask = (order: EngineTask['order']) =>
  new Promise<unknown>((resolve) => {
    const id = nextId++
    waiting.set(id, resolve)
    engineWorker().postMessage({ id, order } satisfies EngineTask)
  })

// The page opens only when a scan is expected: its engine starts loading at once, while the worker sends the order.
engineWorker()
const idle = closeWhenIdle(
  SCANNER_IDLE_MS,
  () => waiting.size > 0,
  () => window.close(),
)

/** The order a message stands for, rebuilt from the fields each kind uses; undefined for anything else. */
function orderOf(message: unknown): EngineTask['order'] | undefined {
  const order = message as ScanOrder | WarmOrder | DecodeOrder
  if (order?.type === 'preflight/scan' && typeof order.call === 'object' && typeof order.settings === 'object') {
    return order
  }
  if (order?.type === 'preflight/decode-signed') return { type: order.type, raw: order.raw }
  if (order?.type === 'preflight/warm') return { type: order.type, local: order.local === true }
  return undefined
}

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // Orders count only from the extension's own contexts outside any tab (its worker; its toolbar popup could, and has
  // no reason to). Content scripts and the extension's windows, which live in tabs, get no answer.
  if (sender.tab || !isExtensionPage(sender, browser.runtime.id, browser.runtime.getURL(''))) return undefined
  const order = orderOf(message)
  if (!order) return undefined
  idle.touch()
  return ask(order)
})
