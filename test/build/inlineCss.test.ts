/** The build step that puts each page's stylesheet into the page. */
import type { Rolldown } from 'vite'
import { describe, expect, it } from 'vitest'
import { inlineStylesheets } from '../../build-plugins/inlineCss.ts'

const asset = (fileName: string, source: string) =>
  ({ type: 'asset', fileName, source, names: [], originalFileNames: [] }) as unknown as Rolldown.OutputAsset

describe('inlineStylesheets', () => {
  const bundle = { 'assets/page.css': asset('assets/page.css', 'body{color:red}') } as Rolldown.OutputBundle

  it('replaces a linked stylesheet of the bundle by a <style> with its text, and leaves the rest of the page', () => {
    const html =
      '<head><link rel="modulepreload" href="/assets/a.js"><link rel="stylesheet" crossorigin href="/assets/page.css"></head>'
    expect(inlineStylesheets(html, bundle)).toBe(
      '<head><link rel="modulepreload" href="/assets/a.js"><style>body{color:red}</style></head>',
    )
  })

  it('leaves a link to a file the bundle does not hold as it is', () => {
    const html = '<link rel="stylesheet" href="/vendor/other.css">'
    expect(inlineStylesheets(html, bundle)).toBe(html)
  })

  it('cannot be closed early by the text of the stylesheet', () => {
    const hostile = { 'x.css': asset('x.css', 'a::after{content:"</style><script>"}') } as Rolldown.OutputBundle
    const out = inlineStylesheets('<link rel="stylesheet" href="/x.css">', hostile)
    expect(out.match(/<\/style/g)).toHaveLength(1)
    expect(out.endsWith('</style>')).toBe(true)
  })
})
