import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { lazyJsonModule } from '../../build/lazyJson.ts'

const dir = mkdtempSync(join(tmpdir(), 'preflight-lazy-json-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.restoreAllMocks())

let count = 0
/** Imports the module text lazyJsonModule makes for `data`. */
async function load(data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const file = join(dir, `data${count++}.mjs`)
  writeFileSync(file, lazyJsonModule(data))
  return (await import(pathToFileURL(file).href)).default
}

describe('lazyJsonModule', () => {
  const data = {
    tolerance: 2,
    // Everything a JS string or template literal treats specially: quotes, backslashes, `${`, backticks, non-ASCII.
    name: `lists "quoted" 'quoted' \\ and $\{not a template} \`ticks\` – ünïcode`,
    empty: null,
    blacklist: ['a.example', 'b.example'],
    tokens: [{ chainId: 1, address: '0xabc', name: 'Tether USD', decimals: 6, logoURI: null }],
  }

  it('reads back the same data', async () => {
    const module = await load(data)
    expect({ ...module }).toEqual(data)
    expect(JSON.parse(JSON.stringify(module))).toEqual(data)
  })

  it('parses nothing when imported, then each key once, on its first read', async () => {
    const parse = vi.spyOn(JSON, 'parse')
    const module = await load(data)
    expect(parse).not.toHaveBeenCalled()
    expect(module.tolerance).toBe(2)
    expect(parse).not.toHaveBeenCalled()
    const list = module.blacklist
    expect(parse).toHaveBeenCalledTimes(1)
    expect(module.blacklist).toBe(list)
    expect(parse).toHaveBeenCalledTimes(1)
    expect(module.tokens).toEqual(data.tokens)
    expect(parse).toHaveBeenCalledTimes(2)
  })
})
