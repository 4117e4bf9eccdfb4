import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseAbi } from 'viem'
import { build, parseAst, type Rolldown } from 'vite'
import { describe, expect, it } from 'vitest'
import { prebuildAbis, prebuiltAbi } from '../../build-plugins/prebuiltAbi.ts'
import * as abis from '../../src/engine/abi/abis.ts'

/** src/engine/abi/abis.ts as the extension bundles it, imported back. */
async function bundledAbis(): Promise<Record<string, unknown>> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [prebuiltAbi(/[\\/]src[\\/]engine[\\/]/)],
    build: {
      write: false,
      minify: false,
      lib: { entry: join(import.meta.dirname, '../../src/engine/abi/abis.ts'), formats: ['es'], fileName: 'abis' },
      rollupOptions: { external: ['viem'] },
    },
  })
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
  const chunk = output.output.find((item) => item.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error('no bundle')
  expect(chunk.code).not.toMatch(/parseAbi\(/)
  // Inside the project, so the bundle's `import … from 'viem'` resolves as the source's does.
  const file = join(import.meta.dirname, `../../node_modules/.prebuilt-abi-${process.pid}.mjs`)
  writeFileSync(file, chunk.code)
  try {
    return await import(pathToFileURL(file).href)
  } finally {
    rmSync(file, { force: true })
  }
}

describe('prebuiltAbi', () => {
  it('bundles the engine ABIs as the ABIs parseAbi returns in Node', async () => {
    const bundled = await bundledAbis()
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(abis).sort())
    for (const [name, abi] of Object.entries(abis)) expect(bundled[name], name).toEqual(abi)
  })

  it('leaves a call alone unless every signature is a string literal', () => {
    const code = [
      "const a = parseAbi(['function f(uint256 x)'])",
      'const b = parseAbi([signature])',
      "const c = parseAbi(['function g()', ...more])",
      'const d = parseAbi(list)',
    ].join('\n')
    const out = prebuildAbis(code, parseAst(code) as never) ?? ''
    expect(out.split('\n').slice(1)).toEqual(code.split('\n').slice(1))
    const [, literal] = /^const a = JSON\.parse\((".*")\)$/.exec(out.split('\n')[0] ?? '') ?? []
    expect(JSON.parse(JSON.parse(literal ?? '""'))).toEqual(parseAbi(['function f(uint256 x)']))
  })
})
