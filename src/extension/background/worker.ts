// Background service worker: receives intercepted requests from the relays, scans them and settles them.
import { loadBundledData } from 'virtual:bundled-data'
import browser, { type Runtime } from 'webextension-polyfill'
import { RELAY_PORT_NAME } from '../relay/protocol.ts'
import type { DecisionMessage } from '../shared/pending.ts'
import { createPendingStore } from './pendingStore.ts'
import { createRequests } from './requests.ts'
import { isExtensionPage } from './sender.ts'

const requests = createRequests(browser, createPendingStore(browser.storage.session), loadBundledData)

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
  return requests.decide(decision.id, decision.decision)
})

browser.windows.onRemoved.addListener((windowId) => {
  void requests.onWindowRemoved(windowId)
})

void requests.recover()
