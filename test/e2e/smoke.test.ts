import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../support/chromium.ts'

const dist = join(import.meta.dirname, '../../dist')

describe('the built extension in Chromium', () => {
  let context: BrowserContext
  let server: Server
  let pageUrl: string

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>dapp</title><iframe src="/frame"></iframe>')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    pageUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}/`
    ;({ context } = await launchChromium({ extensionDir: dist }))
  })
  afterAll(async () => {
    await context?.close()
    server?.close()
  })

  it('starts the service worker', async () => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    expect(worker.url()).toMatch(/^chrome-extension:\/\/[a-p]{32}\/service-worker-loader\.js$/)
  })

  it('runs the MAIN-world hook and the relay on a localhost page', async () => {
    const page = await context.newPage()
    await page.goto(pageUrl)
    await expect.poll(() => page.evaluate(() => 'ethereum' in window || '__preflightHook' in window)).toBe(true)
    const relay = await page.evaluate(() => document.documentElement.getAttribute('data-preflight-relay'))
    expect(relay).toBe('ready')
  })
})
