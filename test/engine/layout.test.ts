/**
 * The engine's layout, read from every import in src/ and test/: outside the engine, code uses its one door
 * (src/engine/index.ts); inside, a folder reaches another only through that folder's index.ts; and no folders import
 * each other in a ring, where an index.ts could be read before it has finished loading. Only the engine's own tests
 * (test/engine) may import deeper, to test a module on its own.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const ENGINE = join(ROOT, 'src', 'engine')
const DOOR = join(ENGINE, 'index.ts')
const ENGINE_TESTS = join(ROOT, 'test', 'engine')
/** Tests of how the build bundles particular engine modules: they name the module they bundle. */
const BUILD_TESTS = join(ROOT, 'test', 'build')

type Import = { file: string; specifier: string; target: string }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Every relative import, re-export and dynamic import, with the file it resolves to. */
function relativeImports(file: string): Import[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => ({ file, specifier: fileName, target: resolve(dirname(file), fileName) }))
}

const within = (dir: string, path: string) => path.startsWith(dir + sep)
const shown = (path: string) => relative(ROOT, path).split(sep).join('/')
const describeImport = ({ file, specifier }: Import) => `${shown(file)} imports '${specifier}'`

/** The engine folder a path is in, or '' for a file directly in src/engine. */
function folderOf(path: string): string {
  const parts = relative(ENGINE, path).split(sep)
  return parts.length === 1 ? '' : (parts[0] as string)
}

const imports = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'test'))].flatMap(relativeImports)
const engineImports = imports.filter(({ target }) => within(ENGINE, target))

describe('the engine layout', () => {
  it('outside the engine, code imports src/engine/index.ts and nothing deeper', () => {
    const deep = engineImports.filter(
      ({ file, target }) =>
        !within(ENGINE, file) && !within(ENGINE_TESTS, file) && !within(BUILD_TESTS, file) && target !== DOOR,
    )
    expect(deep.map((entry) => `${describeImport(entry)}: import src/engine/index.ts instead`)).toEqual([])
  })

  it('src/engine holds its door and folders, and each folder reaches another only through its index.ts', () => {
    const loose = sourceFiles(ENGINE)
      .filter((file) => folderOf(file) === '' && file !== DOOR)
      .map((file) => `${shown(file)}: put it in the folder of its work`)
    const wrong = engineImports.flatMap((entry) => {
      if (!within(ENGINE, entry.file)) return []
      const from = folderOf(entry.file)
      const to = folderOf(entry.target)
      const entryModule = join(ENGINE, to, 'index.ts')
      if (from !== to && to !== '' && entry.target !== entryModule) {
        return [`${describeImport(entry)}: import ${shown(entryModule)} instead`]
      }
      if (from === to && from !== '' && entry.target === entryModule) {
        return [`${describeImport(entry)}: inside ${to}/, import the file itself, not the folder's index.ts`]
      }
      if (from !== '' && to === '') return [`${describeImport(entry)}: the door is for code outside the engine`]
      return []
    })
    expect([...loose, ...wrong]).toEqual([])
  })

  it('no engine folders import each other in a ring', () => {
    const uses = new Map<string, Map<string, Import>>()
    for (const entry of engineImports) {
      if (!within(ENGINE, entry.file)) continue
      const from = folderOf(entry.file)
      const to = folderOf(entry.target)
      if (from === '' || to === '' || from === to) continue
      const targets = uses.get(from) ?? new Map<string, Import>()
      if (!targets.has(to)) targets.set(to, entry)
      uses.set(from, targets)
    }
    expect(rings(uses)).toEqual([])
  })
})

/** Each ring of folders as the imports that close it, found by walking the folder graph depth first. */
function rings(uses: Map<string, Map<string, Import>>): string[] {
  const found: string[] = []
  const done = new Set<string>()
  const walk = (folder: string, path: string[]) => {
    if (done.has(folder)) return
    const start = path.indexOf(folder)
    if (start !== -1) {
      const ring = [...path.slice(start), folder]
      const edges = ring.slice(1).map((to, index) => uses.get(ring[index] as string)?.get(to) as Import)
      found.push(`${ring.join(' → ')}: ${edges.map(describeImport).join('; ')}`)
      return
    }
    for (const to of uses.get(folder)?.keys() ?? []) walk(to, [...path, folder])
    done.add(folder)
  }
  for (const folder of [...uses.keys()].sort()) walk(folder, [])
  return found
}
