/**
 * Builds the test wallet (support/wallet/inpage.ts) into an unpacked extension of its own: a MAIN-world content script
 * at document_start in every frame, as wallet extensions inject themselves. The firewall under test never sees how
 * the wallet got there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Rolldown } from 'vite'

const ENTRY = join(import.meta.dirname, 'wallet/inpage.ts')

export type WalletOptions = {
  rpcUrl: string
  account: string
  name?: string
  rdns?: string
  /** Set window.ethereum (with Object.defineProperty). */
  window?: boolean
  /** Announce through EIP-6963. */
  announce?: boolean
  /** Join `window.ethereum.providers` as multi-wallet injectors do. */
  joinProviders?: boolean
  /** When the wallet injects itself: at document_start (as wallets do), or after the page's scripts. */
  runAt?: 'document_start' | 'document_idle'
}

export type WalletExtension = { dir: string; remove(): void }

/** Writes the wallet extension to a temporary folder. */
export async function buildWalletExtension(options: WalletOptions): Promise<WalletExtension> {
  const config = {
    rpcUrl: options.rpcUrl,
    account: options.account,
    name: options.name ?? 'Test Wallet',
    rdns: options.rdns ?? 'dev.preflight.testwallet',
    window: options.window ?? true,
    announce: options.announce ?? true,
    joinProviders: options.joinProviders ?? false,
  }
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    define: { __WALLET__: JSON.stringify(config) },
    build: { write: false, minify: false, lib: { entry: ENTRY, formats: ['iife'], name: 'TestWallet', fileName: 'w' } },
  })
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
  const chunk = output.output.find((item) => item.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error('the test wallet bundle has no code')
  const dir = mkdtempSync(join(tmpdir(), 'preflight-wallet-'))
  writeFileSync(join(dir, 'inpage.js'), chunk.code)
  const manifest = {
    manifest_version: 3,
    name: config.name,
    version: '1.0.0',
    content_scripts: [
      {
        matches: ['<all_urls>'],
        js: ['inpage.js'],
        run_at: options.runAt ?? 'document_start',
        all_frames: true,
        match_origin_as_fallback: true,
        world: 'MAIN',
      },
    ],
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
