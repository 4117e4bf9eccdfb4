/** Renders public/icons/icon.svg to the PNG sizes the manifest names. Run: npx tsx test/tools/render-icons.ts */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchChromium } from '../../src/devnet/chromium.ts'

const dir = join(import.meta.dirname, '../../public/icons')
const svg = readFileSync(join(dir, 'icon.svg'), 'utf8')
const browser = await launchChromium()
const page = await browser.context.newPage()
for (const size of [16, 32, 48, 128]) {
  await page.setViewportSize({ width: size, height: size })
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  )
  await page.screenshot({ path: join(dir, `icon-${size}.png`), omitBackground: true })
}
await browser.close()
console.log('icons written to', dir)
