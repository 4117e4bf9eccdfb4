/**
 * The browser around the worker's request handling, for tests of its bookkeeping: storage areas in memory, windows
 * that take a set time to open, messages to tabs recorded, and relay ports a test drives and disconnects. The browser
 * is the boundary here; what the tests are about is createRequests and the queue and store it runs on.
 */
import type { Browser, Runtime } from 'webextension-polyfill'
import type { Scanner } from '../../../../src/extension/background/scannerPage.ts'
import { memoryArea } from './memoryArea.ts'

/** A relay's port into the worker: `send` delivers a message as the relay would, `received` is what came back. */
export type RelayPort = Runtime.Port & { received: unknown[]; send(message: unknown): void; disconnect(): void }

export function relayPort(tabId: number, origin: string): RelayPort {
  const listeners: ((message: unknown) => void)[] = []
  const disconnects: (() => void)[] = []
  const received: unknown[] = []
  let connected = true
  const port = {
    name: 'preflight-relay',
    sender: { tab: { id: tabId, url: `${origin}/` }, frameId: 0, url: `${origin}/`, origin, id: 'preflight' },
    received,
    onMessage: { addListener: (listener: (message: unknown) => void) => listeners.push(listener) },
    onDisconnect: { addListener: (listener: () => void) => disconnects.push(listener) },
    postMessage: (message: unknown) => {
      if (!connected) throw new Error('the port is disconnected')
      received.push(message)
    },
    send: (message: unknown) => {
      for (const listener of listeners) listener(structuredClone(message))
    },
    disconnect: () => {
      connected = false
      for (const listener of disconnects) listener()
    },
  }
  return port as unknown as RelayPort
}

/**
 * A browser whose windows take `opensMs` to open and `lookupMs` to look up (as Chrome's, slower under load); `toTabs`
 * records every message sent to a tab, and `closeWindow` closes one as its user would.
 */
export function workerBrowser({ opensMs = 1, lookupMs = 0 }: { opensMs?: number; lookupMs?: number } = {}) {
  const toTabs: { tabId: number; message: unknown }[] = []
  const open = new Set<number>()
  let nextWindow = 100
  const browser = {
    runtime: { getURL: (path: string) => `chrome-extension://preflight/${path}`, id: 'preflight' },
    storage: { local: memoryArea(), session: memoryArea() },
    tabs: {
      sendMessage: async (tabId: number, message: unknown) => {
        toTabs.push({ tabId, message })
      },
    },
    windows: {
      create: async () => {
        await new Promise((resolve) => setTimeout(resolve, opensMs))
        const id = nextWindow++
        open.add(id)
        return { id }
      },
      get: async (id: number) => {
        await new Promise((resolve) => setTimeout(resolve, lookupMs))
        if (!open.has(id)) throw new Error(`no window ${id}`)
        return { id }
      },
      remove: async (id: number) => {
        open.delete(id)
      },
    },
  }
  return { browser: browser as unknown as Browser, toTabs, closeWindow: (id: number) => open.delete(id) }
}

/** A scanner that finishes every scan at once with a backend error (what the window shows is not the point here). */
export const failingScanner: Scanner = {
  scan: async () => ({ status: 'ERROR', error: { kind: 'BACKEND_ERROR', message: 'no scanner in this test' } }),
  warm: () => undefined,
  decodeSigned: async () => {
    throw new Error('no scanner in this test')
  },
}
