/**
 * The built service worker's start, which Chrome repeats after every idle pause: the script it loads holds no list,
 * and it registers its listeners without fetching or parsing anything large (the first request to check fetches the
 * lists: files arriving at start would delay the event that woke the worker). Runs the worker from
 * dist/ in a child Node process, with a stand-in for the extension APIs it calls while starting (the boundary this is
 * not about) and a fetch that records what it is asked for.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const dist = join(import.meta.dirname, '../../dist')

/** Starts the worker; with a message as argv[2], a relay then connects and sends it, as a page's relay does. */
const START = `
const listeners = []
const handlers = {}
const event = (name) => ({ addListener: (handler) => (listeners.push(name), (handlers[name] = handler)) })
const area = { get: async () => ({}), set: async () => {}, remove: async () => {} }
globalThis.chrome = globalThis.browser = {
  runtime: { id: 'preflight', onConnect: event('onConnect'), onMessage: event('onMessage'), getURL: (path) => path },
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
if (process.argv[2]) {
  const port = { name: 'preflight-relay', sender: { tab: { id: 1 } }, onMessage: event('port.onMessage'), onDisconnect: event('port.onDisconnect'), postMessage: () => {} }
  handlers.onConnect(port)
  handlers['port.onMessage'](JSON.parse(process.argv[2]))
  await new Promise((resolve) => setTimeout(resolve, 50))
}
process.stdout.write(JSON.stringify({ listeners, fetched, largestParse: Math.max(0, ...parsed) }))
`

const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'))
const assets = readdirSync(join(dist, 'assets'))
const read = (file: string) => readFileSync(join(dist, 'assets', file), 'utf8')

describe('the built service worker', () => {
  it('starts listening for pages and windows without fetching its lists or parsing anything large', () => {
    const entry = pathToFileURL(join(dist, manifest.background.service_worker)).href
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', START, entry], { encoding: 'utf8' })
    const { listeners, fetched, largestParse } = JSON.parse(out) as {
      listeners: string[]
      fetched: string[]
      largestParse: number
    }
    expect(listeners).toEqual(expect.arrayContaining(['onConnect', 'onMessage', 'windows.onRemoved']))
    expect(fetched).toEqual([])
    expect(largestParse).toBeLessThan(10_000)
  })

  it('fetches its lists when a page in use tells it so (a prelude, or the keep-alive that woke it)', () => {
    const entry = pathToFileURL(join(dist, manifest.background.service_worker)).href
    const fetchedAfter = (message: object) => {
      const args = ['--input-type=module', '-e', START, entry, JSON.stringify(message)]
      return (JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as { fetched: string[] }).fetched
    }
    for (const type of ['prelude', 'keepalive']) {
      expect(fetchedAfter({ type })).toEqual(
        expect.arrayContaining([expect.stringMatching(/phishing-list-/), expect.stringMatching(/token-list-/)]),
      )
    }
    expect(fetchedAfter({ type: 'resume', ids: [] })).toEqual([])
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
