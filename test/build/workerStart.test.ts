/**
 * The built service worker's start, which Chrome repeats after every idle pause: the scripts it loads hold neither the
 * engine nor a list (the scanner page holds both, and outlives the worker), and it registers its listeners without
 * fetching, parsing anything large or opening the scanner page (a page in use, or the first request, opens it: work at
 * start would delay the event that woke the worker). Runs the worker from dist/ in a child Node process, with a
 * stand-in for the extension APIs it calls while starting (the boundary this is not about) and a fetch that records
 * what it is asked for.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SCANNER_PAGE } from '../../src/extension/scanner/protocol.ts'

const dist = join(import.meta.dirname, '../../dist')

/** Starts the worker; with a message as argv[2], a relay then connects and sends it, as a page's relay does. */
const START = `
const listeners = []
const handlers = {}
const event = (name) => ({ addListener: (handler) => (listeners.push(name), (handlers[name] = handler)) })
const area = { get: async () => ({}), set: async () => {}, remove: async () => {} }
const opened = []
const sent = []
globalThis.chrome = globalThis.browser = {
  runtime: {
    id: 'preflight', onConnect: event('onConnect'), onMessage: event('onMessage'), getURL: (path) => path,
    onStartup: event('onStartup'), onInstalled: event('onInstalled'),
    getContexts: async () => [], sendMessage: async (message) => (sent.push(message), true),
  },
  offscreen: { createDocument: async (page) => { opened.push(page.url) } },
  windows: { onRemoved: event('windows.onRemoved'), get: async () => ({}) },
  storage: { session: area, local: area, onChanged: event('storage.onChanged') },
}
const fetched = []
globalThis.fetch = async (url) => (fetched.push(String(url)), new Response('{}'))
const parse = JSON.parse
const parsed = []
JSON.parse = (text, reviver) => (parsed.push(String(text).length), parse(text, reviver))
await import(process.argv[1])
await new Promise((resolve) => setTimeout(resolve, 50))
if (process.argv[2] === 'onStartup') {
  handlers.onStartup()
  await new Promise((resolve) => setTimeout(resolve, 50))
} else if (process.argv[2]) {
  const port = { name: 'preflight-relay', sender: { tab: { id: 1 } }, onMessage: event('port.onMessage'), onDisconnect: event('port.onDisconnect'), postMessage: () => {} }
  handlers.onConnect(port)
  handlers['port.onMessage'](JSON.parse(process.argv[2]))
  await new Promise((resolve) => setTimeout(resolve, 50))
}
process.stdout.write(JSON.stringify({ listeners, fetched, largestParse: Math.max(0, ...parsed), opened, sent }))
`

const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'))
const assets = readdirSync(join(dist, 'assets'))
const read = (file: string) => readFileSync(join(dist, 'assets', file), 'utf8')

type Started = { listeners: string[]; fetched: string[]; largestParse: number; opened: string[]; sent: unknown[] }

/** Starts the built worker (and, given one, has a relay send it `message`, or the browser fire onStartup), and says what it did. */
function start(message?: object | 'onStartup'): Started {
  const entry = pathToFileURL(join(dist, manifest.background.service_worker)).href
  const event = typeof message === 'string' ? message : JSON.stringify(message)
  const args = ['--input-type=module', '-e', START, entry, ...(message ? [event] : [])]
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as Started
}

/** A script's path in dist/ from a reference in `from` (relative to it, or to the extension's root). */
const resolveIn = (from: string, path: string) => (path.startsWith('/') ? path.slice(1) : join(dirname(from), path))

/** The scripts a script in dist/ loads: itself, its static imports and the workers it starts (`new URL`), each once. */
function loadedScripts(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return []
  seen.add(file)
  const code = readFileSync(join(dist, file), 'utf8')
  const references = /(?:from|import|new URL\()\s*["'`]([^"'`]+\.js)["'`]/g
  for (const [, path] of code.matchAll(references)) loadedScripts(resolveIn(file, path as string), seen)
  return [...seen]
}

describe('the built service worker', () => {
  it('starts listening for pages and windows without fetching, parsing anything large or opening the scanner', () => {
    const { listeners, fetched, largestParse, opened } = start()
    expect(listeners).toEqual(expect.arrayContaining(['onConnect', 'onMessage', 'windows.onRemoved']))
    expect(fetched).toEqual([])
    expect(largestParse).toBeLessThan(10_000)
    expect(opened).toEqual([])
  })

  it('opens the scanner page and has it load its lists when a page in use tells it so (a prelude, a keep-alive)', () => {
    for (const type of ['prelude', 'keepalive']) {
      const { opened, sent, fetched } = start({ type })
      expect(opened).toEqual([SCANNER_PAGE])
      expect(sent).toEqual([{ type: 'preflight/warm', local: true }])
      expect(fetched).toEqual([])
    }
    expect(start({ type: 'resume', ids: [] })).toMatchObject({ opened: [], sent: [] })
  })

  it('opens the scanner page as the browser starts, so the first request finds the engine loaded', () => {
    expect(start('onStartup')).toMatchObject({
      opened: [SCANNER_PAGE],
      sent: [{ type: 'preflight/warm', local: true }],
      fetched: [],
    })
    expect(start().listeners).toEqual(expect.arrayContaining(['onStartup', 'onInstalled']))
  })

  it('loads scripts without the engine or the curve; the scanner page starts a worker that holds both', () => {
    const holds = (entry: string, text: string) =>
      loadedScripts(entry).some((file) => readFileSync(join(dist, file), 'utf8').includes(text))
    const scannerEntry = resolveIn(
      SCANNER_PAGE,
      /src="([^"]+)"/.exec(readFileSync(join(dist, SCANNER_PAGE), 'utf8'))?.[1] ?? '',
    )
    // The engine names eth_simulateV1; secp256k1's group order stands for the curve that recovers who signed a
    // transaction (the scanner page decodes eth_sendRawTransaction for the worker).
    for (const text of ['eth_simulateV1', 'baaedce6af48a03bbfd25e8cd0364141']) {
      expect(holds(scannerEntry, text)).toBe(true)
      expect(holds(manifest.background.service_worker, text)).toBe(false)
    }
  })

  it('loads scripts that hold neither list; the list files hold them, the token list without its bridges', () => {
    // Booleans, not the text itself, in failure messages: the files are hundreds of kilobytes.
    const scripts = assets.filter((file) => file.endsWith('.js')).map(read)
    expect(
      scripts.some((code) => code.includes('moonbirds.tv')),
      'a script holds the phishing list',
    ).toBe(false)
    const phishing = assets.find((file) => file.startsWith('phishing-list-') && file.endsWith('.json')) ?? ''
    const tokens = assets.find((file) => file.startsWith('token-list-') && file.endsWith('.json')) ?? ''
    expect(JSON.parse(read(phishing)).blacklist).toContain('moonbirds.tv')
    const list = JSON.parse(read(tokens)).tokens as Record<string, unknown>[]
    expect(list.length).toBeGreaterThan(1000)
    expect(
      list.some((token) => 'extensions' in token),
      'the token list keeps its bridges',
    ).toBe(false)
  })
})
