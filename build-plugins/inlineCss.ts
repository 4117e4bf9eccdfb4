/**
 * A Vite plugin that puts each extension page's stylesheets into the page itself. Module scripts wait for the
 * stylesheets linked before them: in a traced cold confirmation window, the 7.5 kB stylesheet finished loading 15 ms
 * after the 300 kB of scripts, which ran only then. Inline, no request stands between a page and its scripts. (Benches
 * side by side could not tell the builds apart: the machine moves cold figures by ±20 ms.) The pages' default content
 * security policy restricts scripts, not styles, so inline styles apply.
 */
import type { Plugin, Rolldown } from 'vite'

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)"[^>]*>/g

/** The page with each linked stylesheet found in `bundle` replaced by a <style> holding its text. */
export function inlineStylesheets(html: string, bundle: Rolldown.OutputBundle): string {
  return html.replace(STYLESHEET_LINK, (link, fileName: string) => {
    const asset = bundle[fileName]
    if (asset?.type !== 'asset') return link
    // A "</style" inside the CSS would end the element early; no stylesheet needs it, so it is escaped.
    return `<style>${String(asset.source).replaceAll('</style', '<\\/style')}</style>`
  })
}

/** The plugin: inlines the stylesheets, then drops the CSS files no page or script names any more. */
export function inlineCss(): Plugin {
  return {
    name: 'preflight:inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => (context.bundle ? inlineStylesheets(html, context.bundle) : html),
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const texts = Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [item.code] : item.fileName.endsWith('.html') ? [String(item.source)] : [],
        )
        for (const [fileName, item] of Object.entries(bundle)) {
          const named = texts.some((text) => text.includes(fileName.split('/').pop() as string))
          if (item.type === 'asset' && fileName.endsWith('.css') && !named) delete bundle[fileName]
        }
      },
    },
  }
}
