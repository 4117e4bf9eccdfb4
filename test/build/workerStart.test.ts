/**
 * The built service worker's start, which Chrome repeats after every idle pause: it must register its listeners
 * without parsing the bundled lists (they are parsed when a scan first needs them). Runs the worker from dist/ in a
 * child Node process, with a stand-in for the extension APIs it calls while starting (the boundary this is not about).
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const dist = join(import.meta.dirname, '../../dist')

const START = `
const listeners = []
const event = (name) => ({ addListener: () => listeners.push(name) })
const area = { get: async () => ({}), set: async () => {}, remove: async () => {} }
globalThis.chrome = globalThis.browser = {
  runtime: { id: 'preflight', onConnect: event('onConnect'), onMessage: event('onMessage'), getURL: (path) => path },
  windows: { onRemoved: event('windows.onRemoved'), get: async () => ({}) },
  storage: { session: area, local: area, onChanged: event('storage.onChanged') },
}
const parse = JSON.parse
const parsed = []
JSON.parse = (text, reviver) => (parsed.push(String(text).length), parse(text, reviver))
await import(process.argv[1])
await new Promise((resolve) => setTimeout(resolve, 50))
process.stdout.write(JSON.stringify({ listeners, largestParse: Math.max(0, ...parsed) }))
`

describe('the built service worker', () => {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'))
  const entry = pathToFileURL(join(dist, manifest.background.service_worker)).href

  it('starts, listening for pages and windows, without parsing a bundled list', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', START, entry], { encoding: 'utf8' })
    const { listeners, largestParse } = JSON.parse(out) as { listeners: string[]; largestParse: number }
    expect(listeners).toEqual(expect.arrayContaining(['onConnect', 'onMessage', 'windows.onRemoved']))
    // The phishing list alone is about 300 kB of JSON; nothing near that is parsed at start.
    expect(largestParse).toBeLessThan(10_000)
  })

  it('bundles the lists as text, not as object literals built while it starts, and the token list without bridges', () => {
    const code = readdirSync(join(dist, 'assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(dist, 'assets', file), 'utf8'))
      .join('\n')
    // Booleans, not the code itself, in the failure message: the bundle is a megabyte.
    expect(code.includes('moonbirds.tv'), 'the phishing list is bundled').toBe(true)
    expect(/\bblacklist"?:\s*\[/.test(code), 'the phishing list is an object literal').toBe(false)
    expect(/\btokens"?:\s*\[/.test(code), 'the token list is an object literal').toBe(false)
    expect(code.includes('bridgeInfo'), 'the token list keeps its bridges').toBe(false)
  })
})
