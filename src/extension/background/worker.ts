// Background service worker: receives intercepted requests from the relays, has them scanned and settles them.
import browser, { type Runtime } from 'webextension-polyfill'
import { RELAY_PORT_NAME } from '../relay/protocol.ts'
import type { DecisionMessage } from '../shared/pending.ts'
import { createPendingStore } from './pendingStore.ts'
import { createRequests } from './requests.ts'
import { createScanner } from './scannerPage.ts'
import { isExtensionPage } from './sender.ts'

const scanner = createScanner({
  isOpen: async () => (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length > 0,
  open: (page) => chrome.offscreen.createDocument(page),
  send: (message) => chrome.runtime.sendMessage(message),
})
const requests = createRequests(browser, createPendingStore(browser.storage.session), scanner)

browser.runtime.onConnect.addListener((port) => {
  if (port.name === RELAY_PORT_NAME) requests.onConnect(port)
})

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  const decision = message as DecisionMessage
  // Decisions count only from the extension's own pages, never from a content script or a web page.
  if (!isExtensionPage(sender, browser.runtime.id, browser.runtime.getURL(''))) return undefined
  // The reply (a DecisionReply) says whether the decision counted and which request the window shows next.
  if (decision?.type === 'preflight/reject-all') return requests.rejectAll()
  if (decision?.type !== 'preflight/decision' || typeof decision.id !== 'string') return undefined
  if (decision.decision !== 'continue' && decision.decision !== 'reject') return undefined
  if (typeof decision.seen !== 'number') return undefined
  return requests.decide(decision.id, decision.decision, decision.seen)
})

// The scanner page outlives the worker but not the browser: opened as the browser starts (or Preflight is installed),
// it has the engine loaded before the first request, which then meets only a stopped worker.
browser.runtime.onStartup.addListener(() => void requests.warm())
browser.runtime.onInstalled.addListener(() => void requests.warm())

browser.windows.onRemoved.addListener((windowId) => {
  void requests.onWindowRemoved(windowId)
})

void requests.recover()
