/**
 * Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`), with no client library between.
 * Playwright attaches to every new page and holds it until its own set-up is done, which adds tens of milliseconds to
 * a window's load; here nothing attaches to a page unless asked, so a window loads as it does for a person.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { type ChromiumOptions, chromiumArgs, findChromium } from '../../src/devnet/chromium.ts'

// biome-ignore lint/suspicious/noExplicitAny: protocol results and events are as varied as the protocol.
type Json = any
type Listener = (params: Json) => void

/** One protocol session: the browser's, or a target's once attached. */
export type CdpSession = {
  send(method: string, params?: object): Promise<Json>
  on(event: string, listener: Listener): void
}

export type TargetInfo = { targetId: string; type: string; url: string }

export type PipeChromium = {
  /** Opens `url` in a new tab and attaches to it. */
  open(url: string): Promise<CdpSession & { targetId: string }>
  /** Whether target `targetId` still exists (a closed page's is destroyed). */
  hasTarget(targetId: string): boolean
  /** Attaches to an existing target (a worker, an offscreen document) without pausing it. */
  attach(targetId: string): Promise<CdpSession>
  /** Brings a tab to the front, as a person switching to it does (the tab in front before is hidden then). */
  activate(targetId: string): Promise<void>
  /** Resolves with the first target `matches` accepts, waiting up to `timeoutMs` for one to appear. */
  waitForTarget(matches: (target: TargetInfo) => boolean, timeoutMs?: number): Promise<TargetInfo>
  close(): Promise<void>
}

/** Launches Chromium (fresh profile, the machine's flags, `options`' extensions) with the protocol on a pipe. */
export async function launchPipeChromium(options: ChromiumOptions): Promise<PipeChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'preflight-cdp-'))
  const child = spawn(
    findChromium(),
    [...chromiumArgs(options), `--user-data-dir=${userDataDir}`, '--remote-debugging-pipe', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  )
  const toBrowser = child.stdio[3] as Writable
  const fromBrowser = child.stdio[4] as Readable
  const waiting = new Map<number, { resolve(value: Json): void; reject(error: Error): void; method: string }>()
  const listeners = new Map<string, Set<Listener>>()
  let nextId = 0
  let buffered = ''

  fromBrowser.setEncoding('utf8')
  fromBrowser.on('data', (chunk: string) => {
    const parts = (buffered + chunk).split('\0')
    buffered = parts.pop() ?? ''
    for (const part of parts) {
      const message = JSON.parse(part)
      const call = waiting.get(message.id)
      if (call) {
        waiting.delete(message.id)
        if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`))
        else call.resolve(message.result)
      } else if (message.method) {
        for (const listener of listeners.get(`${message.sessionId ?? ''}/${message.method}`) ?? []) {
          listener(message.params)
        }
      }
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  void exited.then(() => {
    for (const call of waiting.values()) call.reject(new Error(`${call.method}: the browser exited`))
    waiting.clear()
  })

  const session = (sessionId?: string): CdpSession => ({
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++nextId
        waiting.set(id, { resolve, reject, method })
        toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`)
      }),
    on: (event, listener) => {
      const key = `${sessionId ?? ''}/${event}`
      const set = listeners.get(key) ?? new Set()
      set.add(listener)
      listeners.set(key, set)
    },
  })

  const browser = session()
  const targets = new Map<string, TargetInfo>()
  const track = ({ targetInfo }: { targetInfo: TargetInfo }) => targets.set(targetInfo.targetId, targetInfo)
  browser.on('Target.targetCreated', track)
  browser.on('Target.targetInfoChanged', track)
  browser.on('Target.targetDestroyed', ({ targetId }: { targetId: string }) => targets.delete(targetId))
  try {
    await browser.send('Target.setDiscoverTargets', { discover: true })
  } catch (error) {
    child.kill('SIGKILL')
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10 })
    throw error
  }

  return {
    async open(url) {
      const { targetId } = await browser.send('Target.createTarget', { url })
      // Attached without pausing the target: flatten puts its messages on this pipe under its session id.
      const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true })
      const page = { ...session(sessionId), targetId }
      await navigated(page, url)
      return page
    },
    hasTarget: (targetId) => targets.has(targetId),
    async attach(targetId) {
      const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true })
      return session(sessionId)
    },
    async activate(targetId) {
      await browser.send('Target.activateTarget', { targetId })
    },
    async waitForTarget(matches, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = [...targets.values()].find(matches)
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no such target within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    async close() {
      await Promise.race([browser.send('Browser.close').catch(() => undefined), exited])
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      child.kill('SIGKILL')
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10 })
    },
  }
}

/**
 * Waits until the tab shows `url`: a new tab first holds an empty document, and whatever runs in it before the
 * navigation commits is lost with it ("Execution context was destroyed").
 */
async function navigated(page: CdpSession, url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const href = await page
      .send('Runtime.evaluate', { expression: 'location.href', returnByValue: true })
      .then(({ result }) => (result as { value?: unknown } | undefined)?.value)
      .catch(() => undefined)
    if (href === new URL(url).href) return
    if (Date.now() > deadline) throw new Error(`the tab did not navigate to ${url} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
