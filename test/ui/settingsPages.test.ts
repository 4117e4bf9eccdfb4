/**
 * The toolbar popup and the options page of the built extension in Chromium, against real chrome.storage.local.
 * Uses dist/ (built by `npm test` before vitest), or PREFLIGHT_EXTENSION_DIR.
 */
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedChromium, launchChromium } from '../../src/devnet/chromium.ts'
import type { HistoryEntry } from '../../src/extension/shared/pending.ts'

const extensionDir = process.env.PREFLIGHT_EXTENSION_DIR ?? join(import.meta.dirname, '../../dist')

describe('the popup and the options page', () => {
  let browser: LaunchedChromium
  let context: BrowserContext
  let base: string

  beforeAll(async () => {
    browser = await launchChromium({ extensionDir })
    context = browser.context
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    base = `chrome-extension://${new URL(worker.url()).host}/src/extension/ui/`
  })
  afterAll(() => browser?.close())

  const stored = (page: Page, key: string) =>
    page.evaluate((name) => chrome.storage.local.get(name).then((items) => items[name]), key)

  it('turns protection off and lists the stored scans, newest first', async () => {
    const page = await context.newPage()
    await page.goto(`${base}popup.html`)
    const entries: HistoryEntry[] = ['Send 1 ETH', 'Approve unlimited USDC'].map((summary, index) => ({
      id: `h${index}`,
      origin: 'http://localhost:5173',
      method: 'eth_sendTransaction',
      chainId: 31337,
      action: index ? 'WARN' : 'NONE',
      decision: 'reject',
      at: Date.now() - index * 60_000,
      summary,
    }))
    await page.evaluate((history) => chrome.storage.local.set({ history }), entries)
    await expect
      .poll(() => page.getByTestId('history-entry').allTextContents())
      .toEqual([expect.stringContaining('Send 1 ETH'), expect.stringContaining('Approve unlimited USDC')])
    const protection = page.getByRole('switch').first()
    expect(await protection.isChecked()).toBe(true)
    await protection.uncheck()
    await expect.poll(() => stored(page, 'settings')).toMatchObject({ enabled: false })
    await page.close()
  })

  it('refuses invalid options with a message per field, and saves valid ones', async () => {
    const page = await context.newPage()
    await page.goto(`${base}options.html`)
    await page.getByRole('button', { name: 'Add a chain' }).click()
    await page.getByRole('textbox', { name: 'Chain id, row 8' }).fill('10')
    await page.getByRole('textbox', { name: 'RPC URL for chain 10' }).last().fill('rpc.example')
    await page.getByRole('radio', { name: /Use a scan API/ }).check()
    await page.getByRole('textbox', { name: 'Scan API URL' }).fill('http://scan.example.org')
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await page.getByText('Chain 10 is already listed (row 2)').count()).toBe(1)
    expect(await page.getByText(/RPC URL "rpc.example" is not a URL/).count()).toBe(1)
    expect(await page.getByText(/Scan API URL must use https/).count()).toBe(1)
    expect(await page.getByText('API key is required for a scan API').count()).toBe(1)
    expect(await stored(page, 'settings')).toMatchObject({ enabled: false, backend: { kind: 'local' } })

    await page.getByRole('textbox', { name: 'Chain id, row 8' }).fill('100')
    await page.getByRole('textbox', { name: 'RPC URL for chain 100' }).fill('https://rpc.gnosischain.com')
    await page.getByRole('textbox', { name: 'Scan API URL' }).fill('https://scan.example.org/')
    await page.getByLabel('API key').fill('key-1')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.')
    expect(await stored(page, 'settings')).toMatchObject({
      enabled: false,
      backend: { kind: 'remote', apiUrl: 'https://scan.example.org', apiKey: 'key-1' },
      rpcUrls: { '100': 'https://rpc.gnosischain.com', '31337': 'http://127.0.0.1:8545' },
    })
    await page.close()
  })
})
