import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SCANNER_PAGE } from '../../src/extension/scanner/protocol.ts'
import { extensionIdOf } from '../e2e/support/walletExtension.ts'

// `npm test` builds before running vitest; this checks what the build produced, as Chrome will read it.
const dist = join(import.meta.dirname, '../../dist')

type ContentScript = {
  js: string[]
  matches: string[]
  run_at?: string
  all_frames?: boolean
  match_origin_as_fallback?: boolean
  world?: string
}

describe('built extension (dist/)', () => {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'))
  const inDist = (path: string) => existsSync(join(dist, path))

  it('is Manifest V3 with a module service worker that exists', () => {
    expect(manifest.manifest_version).toBe(3)
    expect(manifest.background.type).toBe('module')
    expect(inDist(manifest.background.service_worker)).toBe(true)
  })

  it('injects a MAIN-world hook at document_start in every frame, and an ISOLATED relay', () => {
    const scripts = manifest.content_scripts as ContentScript[]
    const main = scripts.find((s) => s.world === 'MAIN')
    const relay = scripts.find((s) => s.world === undefined || s.world === 'ISOLATED')
    for (const script of [main, relay]) {
      expect(script).toMatchObject({
        run_at: 'document_start',
        all_frames: true,
        match_origin_as_fallback: true,
        matches: ['<all_urls>'],
      })
      for (const file of script?.js ?? []) {
        expect(inDist(file)).toBe(true)
        // Content scripts must run synchronously at document_start: no module loader, no import statements.
        expect(readFileSync(join(dist, file), 'utf8')).not.toMatch(/^\s*import[\s{]/m)
      }
    }
  })

  it('keeps the page hook free of extension APIs: it runs in the page, so only the relay may talk to the worker', () => {
    const main = (manifest.content_scripts as ContentScript[]).find((s) => s.world === 'MAIN')
    for (const file of main?.js ?? []) {
      expect(readFileSync(join(dist, file), 'utf8')).not.toMatch(
        /chrome\.runtime|browser\.runtime|webextension-polyfill/,
      )
    }
  })

  it("has a fixed ID that sorts before wallets' IDs, so its relay watches their message channels before they do", () => {
    // Chrome starts different extensions' document_start scripts in the order of their IDs (measured in Chromium 156).
    const wallets = {
      MetaMask: 'nkbihfbeogaeaoehlefnkodbefgpgknn',
      Rabby: 'acmacodkjbdgmoleebolmdjonilkdbch',
      'Coinbase Wallet': 'hnfanknocfeofbddgcijnmhnfnkdnaad',
      Phantom: 'bfnaelmomeimhlpmgjnjophhpkkoljpa',
    }
    const id = extensionIdOf(dist)
    expect(id).toBe('aaedbkfijghafgncnnikjmjngbkjchlo')
    for (const [wallet, walletId] of Object.entries(wallets)) expect(id < walletId, wallet).toBe(true)
  })

  it('has the confirmation page, the scanner page, the toolbar popup and the options page', () => {
    expect(inDist('src/extension/ui/confirm.html')).toBe(true)
    expect(inDist(SCANNER_PAGE)).toBe(true)
    expect(inDist(manifest.action.default_popup)).toBe(true)
    expect(inDist(manifest.options_page)).toBe(true)
    for (const icon of Object.values(manifest.icons) as string[]) expect(inDist(icon)).toBe(true)
  })

  it('carries the styles inside each page, so no stylesheet request holds its scripts back', () => {
    const styles = readFileSync(join(import.meta.dirname, '../../src/extension/ui/styles.css'), 'utf8')
    // A custom property the stylesheet defines, which the minifier keeps as written.
    expect(styles).toContain('--accent:')
    for (const page of ['src/extension/ui/confirm.html', manifest.action.default_popup, manifest.options_page]) {
      const html = readFileSync(join(dist, page), 'utf8')
      expect(html).not.toContain('rel="stylesheet"')
      expect(/<style>([\s\S]*?)<\/style>/.exec(html)?.[1]).toContain('--accent:')
    }
    expect(readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.css'))).toEqual([])
  })

  it('loads the confirmation window from one script that imports nothing', () => {
    const html = readFileSync(join(dist, 'src/extension/ui/confirm.html'), 'utf8')
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="\/([^"]+)"/g)].map((match) => match[1] as string)
    expect(scripts).toHaveLength(1)
    expect(html).not.toContain('modulepreload')
    const code = readFileSync(join(dist, scripts[0] as string), 'utf8')
    expect(code).toContain('createRoot')
    // Minified imports read `import{a as b}from"./chunk.js"` or `import("./chunk.js")`.
    expect(code).not.toMatch(/\bfrom\s*["']\.{0,2}\/|\bimport\s*\(/)
  })

  it('writes every script in ASCII, which Chromium reads without widening it to two-byte text', () => {
    const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(5)
    const wide = scripts.filter((file) => readFileSync(join(dist, file)).some((byte) => byte > 0x7f))
    expect(wide).toEqual([])
  })

  it('asks only for the permissions it uses and loads no remote code', () => {
    // offscreen: the scanner page, where the engine stays loaded while Chrome stops the idle worker.
    expect(manifest.permissions).toEqual(['storage', 'offscreen'])
    expect(JSON.stringify(manifest)).not.toMatch(/unsafe-eval|https?:\/\/(?!\*)/)
  })
})
