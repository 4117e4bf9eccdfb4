// ISOLATED-world relay between the page hook and the service worker. Runs at document_start in every frame.
import browser from 'webextension-polyfill'
import type { InterceptedMethod } from '../shared/pending.ts'
import { guardWalletChannels } from './channelGuard.ts'
import { createKeepAlive } from './keepAlive.ts'
import { type HookMessage, type Outcome, PORT_EVENT, READY_EVENT } from './protocol.ts'
import { wakeOnInput } from './wakeOnInput.ts'
import { createAllowances } from './walletChannel.ts'
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

const allowances = createAllowances()
/** The method of each call the hook sent, so what a Continue forwards may pass the wallet's channel once. */
const hookMethods = new Map<number, InterceptedMethod>()
/** Calls the relay took from a wallet's channel itself, under ids below zero (the hook counts up from one). */
const channelCalls = new Map<number, (outcome: Outcome) => void>()
let lastChannelRid = 0

const link = createWorkerLink(browser, (rid, outcome) => {
  const channelCall = channelCalls.get(rid)
  if (channelCall) {
    channelCalls.delete(rid)
    return channelCall(outcome)
  }
  const method = hookMethods.get(rid)
  hookMethods.delete(rid)
  try {
    if (method && outcome.kind === 'forward') allowances.allow(method, outcome.params)
  } catch {
    // Params too large to compare get no allowance (the channel stops their copy, as any it cannot read), but the
    // page's call must still settle.
  }
  hookPort.postMessage({ type: 'settle', rid, outcome })
})
guardWalletChannels({
  win: window,
  allowances,
  announce: () => link.coming(),
  submit(call, settle) {
    const rid = --lastChannelRid
    channelCalls.set(rid, settle)
    link.request(rid, call)
  },
})
// Only the browser's event counts: the page shares this window and can dispatch one of its own.
window.addEventListener(
  'pageshow',
  (event) => {
    if (event.isTrusted && event.persisted) link.restored()
  },
  true,
)
const keepAlive = createKeepAlive(link.keepAlive, document)
wakeOnInput(window, keepAlive.hasUsed, link.prelude)
hookPort.addEventListener('message', (event: MessageEvent<HookMessage>) => {
  const message = event.data
  if (message?.type === 'scan' && typeof message.rid === 'number' && message.rid > 0) {
    hookMethods.set(message.rid, message.call?.method)
    link.request(message.rid, message.call)
  } else if (message?.type === 'coming') link.coming()
  else if (message?.type === 'prelude') {
    // A hidden page that polls the accounts must not restart a worker Chrome stopped; shown again, it wakes it.
    if (document.visibilityState === 'visible') link.prelude()
  } else return
  keepAlive.used()
})
hookPort.start()
