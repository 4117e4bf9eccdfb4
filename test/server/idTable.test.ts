import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { idTable } from '../../src/server/idTable.ts'

const run = promisify(execFile)
const CHILD = join(import.meta.dirname, 'fixtures/idTableChurn.ts')
const TSX = join(import.meta.dirname, '../../node_modules/.bin/tsx')

/** Full collections a fresh process took to run requests through `registry` (see the fixture). */
async function fullCollections(registry: 'map' | 'idTable'): Promise<number> {
  const { stdout } = await run(TSX, ['--expose-gc', CHILD, registry])
  return JSON.parse(stdout).full
}

describe('idTable', () => {
  it('keeps, finds, counts and drops entries by id as a Map does', () => {
    const table = idTable<string>()
    table.set(1, 'one')
    table.set(2, 'two')
    table.set(2, 'again')
    expect(table.size).toBe(2)
    expect(table.get(2)).toBe('again')
    expect(table.delete(1)).toBe(true)
    expect(table.delete(1)).toBe(false)
    expect(table.get(1)).toBeUndefined()
    expect(table.size).toBe(1)
    expect(table.values()).toEqual(['again'])
    table.clear()
    expect(table.size).toBe(0)
    expect(table.values()).toEqual([])
  })

  it('takes the largest id it allows and ids that look like Object.prototype members', () => {
    const table = idTable<number>()
    table.set(0x7fff_ffff, 1)
    expect(table.get(0x7fff_ffff)).toBe(1)
    expect(table.get('constructor' as never)).toBeUndefined()
    expect(table.delete('toString' as never)).toBe(false)
    expect(table.size).toBe(1)
  })

  it('hands out ids from 1 on, past those in use', () => {
    const table = idTable<string>()
    table.set(2, 'from another thread')
    expect(table.add('a')).toBe(1)
    expect(table.add('b')).toBe(3)
    table.delete(1)
    // A freed id is not handed out again until the sequence comes round to it.
    expect(table.add('c')).toBe(4)
    expect(table.values()).toEqual(['from another thread', 'b', 'c'])
  })

  // Measured: 12–14 full collections with a Map, none with the table, for the same 200,000 requests of 1.6 kB.
  it('lets what its dropped entries reach die young, where a long-lived Map sends it to the old generation', async () => {
    const [map, table] = await Promise.all([fullCollections('map'), fullCollections('idTable')])
    expect(map).toBeGreaterThanOrEqual(5)
    expect(table).toBeLessThanOrEqual(1)
  }, 60_000)
})
