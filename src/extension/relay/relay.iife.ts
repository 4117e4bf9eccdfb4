// ISOLATED-world relay between the page hook and the service worker. Runs at document_start in every frame.
import browser from 'webextension-polyfill'
import { createKeepAlive } from './keepAlive.ts'
import { type HookMessage, PORT_EVENT, READY_EVENT } from './protocol.ts'
import { wakeOnInput } from './wakeOnInput.ts'
import { createWorkerLink } from './workerLink.ts'

const channel = new MessageChannel()
const hookPort = channel.port1

/** Hands the hook its port; true once the hook has taken it (it cancels the event). */
const offer = () => !window.dispatchEvent(new MessageEvent(PORT_EVENT, { ports: [channel.port2], cancelable: true }))

if (!offer()) {
  const onReady = () => {
    if (offer()) window.removeEventListener(READY_EVENT, onReady, true)
  }
  window.addEventListener(READY_EVENT, onReady, true)
}

const link = createWorkerLink(browser, (rid, outcome) => hookPort.postMessage({ type: 'settle', rid, outcome }))
const keepAlive = createKeepAlive(link.keepAlive, document)
wakeOnInput(window, keepAlive.hasUsed, link.prelude)
hookPort.addEventListener('message', (event: MessageEvent<HookMessage>) => {
  const message = event.data
  if (message?.type === 'scan' && typeof message.rid === 'number') link.request(message.rid, message.call)
  else if (message?.type === 'coming') link.coming()
  else if (message?.type === 'prelude') {
    // A hidden page that polls the accounts must not restart a worker Chrome stopped; shown again, it wakes it.
    if (document.visibilityState === 'visible') link.prelude()
  } else return
  keepAlive.used()
})
hookPort.start()
