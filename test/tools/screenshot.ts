/**
 * Renders the confirmation window for real scans and saves PNGs for the README.
 * Run: npx tsx test/tools/screenshot.ts [EXTENSION_DIR=dist] [OUT_DIR=test/screenshots]
 * Starts its own devnet, scans the demo dapp's Permit2 permit, Safe transaction, Safe takeover (a MultiSend batch
 * hiding a delegatecall), Safe proposal upgrading a proxy the Safe administers, Safe message (a bare hash), a CoW order
 * paying another address, Uniswap V2 swap, a payment to a lookalike of an earlier payee (address poisoning) and a
 * claim whose contract its owner switched after the window showed it (the re-check on Continue) with the engine, seeds
 * each result into chrome.storage.session as a pending request and screenshots the window at 400 px, light and dark.
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type Address, parseEther } from 'viem'
import { launchChromium } from '../../src/devnet/chromium.ts'
import type { TxRequest } from '../../src/devnet/dapp/requests.ts'
import { cowOrderPayingAnother, permit2Single, safePermitHash, safeTransfer } from '../../src/devnet/dapp/requests.ts'
import { v2SwapEthForTokens } from '../../src/devnet/dapp/uniswap.ts'
import { safeMessageTypedData, safeTxTypedData, type TypedData } from '../../src/devnet/eip712.ts'
import { hiddenDelegatecallBatchProposal, upgradeProxyProposal } from '../../src/devnet/safeProposals.ts'
import { scanMessage, scanTransactions } from '../../src/engine/index.ts'
import { withPoisonedAddressWarnings } from '../../src/extension/background/counterparties.ts'
import { outcomeDrift } from '../../src/extension/background/outcomeDrift.ts'
import type { PendingRequest, ScanState } from '../../src/extension/shared/pending.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { CLAIM, deploySwitchedGiveaway } from '../support/switchedGiveaway.ts'

const extensionDir = resolve(process.argv[2] ?? 'dist')
const outDir = resolve(process.argv[3] ?? join(import.meta.dirname, '../screenshots'))
const ORIGIN = 'http://localhost:5173'

const devnet = await startTestDevnet()
const browser = await launchChromium({ extensionDir })
const { context } = browser
try {
  const { fixtures } = devnet
  const me = fixtures.accounts[0]?.address as Address
  const options = { rpcUrl: fixtures.rpcUrl, chainId: fixtures.chainId }
  type Scene = {
    method: PendingRequest['method']
    params: unknown[]
    scan: () => Promise<ScanState | Pick<PendingRequest, 'scan' | 'changedWhileShown'>>
    origin?: string
  }
  const transactionScan = async (tx: TxRequest, origin: string) => {
    const outcome = await scanTransactions({ txObjects: [tx], userAccount: me, metadata: { origin } }, options)
    if (!outcome.ok) throw new Error(`scan failed: ${outcome.error.message}`)
    return outcome.response
  }
  const giveaway = await deploySwitchedGiveaway(fixtures.rpcUrl, fixtures.accounts[8]?.address as Address)
  const claim: TxRequest = { from: me, to: giveaway.address, value: '0x16345785d8a0000', data: CLAIM }
  const message = (data: TypedData): Scene => ({
    method: 'eth_signTypedData_v4',
    params: [me, JSON.stringify(data)],
    scan: async () => {
      const outcome = await scanMessage(
        { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: me, metadata: { origin: ORIGIN } },
        options,
      )
      if (!outcome.ok) throw new Error(`scan failed: ${outcome.error.message}`)
      return { status: 'DONE', kind: 'message', response: outcome.response }
    },
  })
  const swap = v2SwapEthForTokens(fixtures, me, fixtures.erc20.address, parseEther('1'))
  const payee = (fixtures.accounts[6]?.address ?? '').toLowerCase() as Address
  const lookalike = `${payee.slice(0, 6)}${'f'.repeat(32)}${payee.slice(-4)}` as Address
  const poisoned: TxRequest = { from: me, to: lookalike, value: '0x1bc16d674ec80000' }
  const scenes: Record<string, Scene> = {
    confirm: message(permit2Single(fixtures, Math.floor(Date.now() / 1000))),
    'confirm-safe': message(safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTransfer(fixtures, 0n))),
    'confirm-safe-takeover': message(
      safeTxTypedData(fixtures.chainId, fixtures.safe.address, hiddenDelegatecallBatchProposal(fixtures, 0n)),
    ),
    'confirm-safe-message': message(
      safeMessageTypedData(fixtures.chainId, fixtures.safe.address, safePermitHash(fixtures)),
    ),
    'confirm-safe-upgrade': message(
      safeTxTypedData(fixtures.chainId, fixtures.safe.address, upgradeProxyProposal(fixtures, 0n)),
    ),
    'confirm-cow-order': message(cowOrderPayingAnother(fixtures, Math.floor(Date.now() / 1000))),
    'confirm-swap': {
      method: 'eth_sendTransaction',
      params: [swap],
      scan: async () => ({
        status: 'DONE',
        kind: 'transactions',
        response: await transactionScan(swap, 'https://app.uniswap.org'),
      }),
    },
    'confirm-changed': {
      method: 'eth_sendTransaction',
      params: [claim],
      origin: ORIGIN,
      scan: async () => {
        const shown = await transactionScan(claim, ORIGIN)
        await giveaway.flip()
        const now = await transactionScan(claim, ORIGIN)
        return {
          scan: { status: 'DONE', kind: 'transactions', response: now },
          changedWhileShown: { at: Date.now(), lines: outcomeDrift(shown, now) },
        }
      },
    },
    'confirm-poisoned': {
      method: 'eth_sendTransaction',
      params: [poisoned],
      origin: ORIGIN,
      scan: async () => {
        const state: ScanState = {
          status: 'DONE',
          kind: 'transactions',
          response: await transactionScan(poisoned, ORIGIN),
        }
        return withPoisonedAddressWarnings(state, me, new Set([payee]))
      },
    },
  }
  /** A scene's scan, with what changed when the scene is of a request whose outcome changed as it was continued. */
  const seen = async (scene: Scene): Promise<Pick<PendingRequest, 'scan' | 'changedWhileShown'>> => {
    const scanned = await scene.scan()
    return 'status' in scanned ? { scan: scanned } : scanned
  }
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
  const base = `chrome-extension://${new URL(worker.url()).host}/src/extension/ui/confirm.html`
  mkdirSync(outDir, { recursive: true })
  for (const [name, scene] of Object.entries(scenes)) {
    const pending: PendingRequest = {
      id: name,
      origin: scene.origin ?? (scene.method === 'eth_sendTransaction' ? 'https://app.uniswap.org' : ORIGIN),
      tabId: 1,
      frameId: 0,
      chainId: fixtures.chainId,
      account: me.toLowerCase(),
      method: scene.method,
      params: scene.params,
      createdAt: Date.now(),
      ...(await seen(scene)),
    }
    const items: Record<string, unknown> = { [`pending:${name}`]: pending }
    await worker.evaluate((values: Record<string, unknown>) => chrome.storage.session.set(values), items)
    for (const scheme of ['light', 'dark'] as const) {
      const page = await context.newPage()
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width: 400, height: 600 })
      await page.goto(`${base}?id=${name}`)
      await page.waitForSelector('main[data-action]:not([data-action="PENDING"])')
      // Continue arms 600 ms after the results show (DecisionBar's QUIET_MS): shown as the user then sees it.
      await page.waitForTimeout(800)
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
