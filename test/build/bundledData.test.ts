import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { fetchedJsonModule } from '../../build-plugins/bundledData.ts'

const dir = mkdtempSync(join(tmpdir(), 'preflight-bundled-data-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.unstubAllGlobals())

type Fetched = { load(): Promise<void>; default: Record<string, unknown> }

let count = 0
/** Imports the module fetchedJsonModule makes for `keys`, fetching https://data.test/list.json. */
async function load(keys: string[]): Promise<Fetched> {
  const file = join(dir, `data${count++}.mjs`)
  writeFileSync(file, fetchedJsonModule('phishing-list', keys, JSON.stringify('https://data.test/list.json')))
  return import(pathToFileURL(file).href)
}

// The note holds what JS string and template literals treat specially: quotes, `${`, backslashes, non-ASCII.
const data = { tolerance: 2, blacklist: ['a.example', 'b.example'], note: `quotes " ' \` $\{x} \\ ü` }

describe('fetchedJsonModule', () => {
  it('fetches nothing when imported, the file once on load(), and then reads the same data', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(data)))
    vi.stubGlobal('fetch', fetch)
    const module = await load(Object.keys(data))
    expect(fetch).not.toHaveBeenCalled()
    await Promise.all([module.load(), module.load()])
    await module.load()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledWith('https://data.test/list.json')
    expect({ ...module.default }).toEqual(data)
  })

  it('says what is wrong when the data is read before it was fetched', async () => {
    const module = await load(['blacklist'])
    expect(() => module.default.blacklist).toThrow('phishing-list was read before loadBundledData() fetched it')
  })

  it('rejects a failed fetch with a clear error, and fetches again on the next load()', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response('', { status: 404 }))
      .mockResolvedValueOnce(new Response(JSON.stringify(data)))
    vi.stubGlobal('fetch', fetch)
    const module = await load(Object.keys(data))
    await expect(module.load()).rejects.toThrow('Preflight could not read its phishing-list file: status 404')
    await module.load()
    expect(module.default.blacklist).toEqual(data.blacklist)
  })
})
