/**
 * Renders the confirmation window for real scans and saves PNGs for the README.
 * Run: npx tsx test/tools/screenshot.ts [EXTENSION_DIR=dist] [OUT_DIR=test/screenshots]
 * Starts its own devnet, scans the demo dapp's Permit2 permit, Safe transaction and Safe takeover (a MultiSend batch
 * hiding a delegatecall) with the engine, seeds each result
 * into chrome.storage.session as a pending request and screenshots the window at 400 px, light and dark.
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Address } from 'viem'
import { launchChromium } from '../../src/devnet/chromium.ts'
import { permit2Single, safeTransfer } from '../../src/devnet/dapp/requests.ts'
import { safeTxTypedData, type TypedData } from '../../src/devnet/eip712.ts'
import { hiddenDelegatecallBatchProposal } from '../../src/devnet/safeProposals.ts'
import { scanMessage } from '../../src/engine/index.ts'
import type { PendingRequest } from '../../src/extension/shared/pending.ts'
import { startTestDevnet } from '../support/devnet.ts'

const extensionDir = resolve(process.argv[2] ?? 'dist')
const outDir = resolve(process.argv[3] ?? join(import.meta.dirname, '../screenshots'))
const ORIGIN = 'http://localhost:5173'

const devnet = await startTestDevnet()
const browser = await launchChromium({ extensionDir })
const { context } = browser
try {
  const { fixtures } = devnet
  const me = fixtures.accounts[0]?.address as Address
  const scenes: Record<string, TypedData> = {
    confirm: permit2Single(fixtures, Math.floor(Date.now() / 1000)),
    'confirm-safe': safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTransfer(fixtures, 0n)),
    'confirm-safe-takeover': safeTxTypedData(
      fixtures.chainId,
      fixtures.safe.address,
      hiddenDelegatecallBatchProposal(fixtures, 0n),
    ),
  }
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
  const base = `chrome-extension://${new URL(worker.url()).host}/src/extension/ui/confirm.html`
  mkdirSync(outDir, { recursive: true })
  for (const [name, data] of Object.entries(scenes)) {
    const outcome = await scanMessage(
      { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: me, metadata: { origin: ORIGIN } },
      { rpcUrl: fixtures.rpcUrl },
    )
    if (!outcome.ok) throw new Error(`scan for ${name} failed: ${outcome.error.message}`)
    const pending: PendingRequest = {
      id: name,
      origin: ORIGIN,
      tabId: 1,
      frameId: 0,
      chainId: fixtures.chainId,
      account: me.toLowerCase(),
      method: 'eth_signTypedData_v4',
      params: [me, JSON.stringify(data)],
      createdAt: Date.now(),
      scan: { status: 'DONE', kind: 'message', response: outcome.response },
    }
    const items: Record<string, unknown> = { [`pending:${name}`]: pending }
    await worker.evaluate((values: Record<string, unknown>) => chrome.storage.session.set(values), items)
    for (const scheme of ['light', 'dark'] as const) {
      const page = await context.newPage()
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width: 400, height: 600 })
      await page.goto(`${base}?id=${name}`)
      await page.waitForSelector('main[data-action]:not([data-action="PENDING"])')
      const height = await page.evaluate(() => document.documentElement.scrollHeight)
      await page.setViewportSize({ width: 400, height })
      const file = join(outDir, `${name}${scheme === 'dark' ? '-dark' : ''}.png`)
      await page.screenshot({ path: file })
      console.log('saved', file)
      await page.close()
    }
  }
} finally {
  await browser.close()
  await devnet.stop()
}
