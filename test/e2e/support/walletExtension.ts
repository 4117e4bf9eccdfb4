/**
 * Builds the test wallet (support/wallet/inpage.ts, or MetaMask's own packages in support/wallet/metamask) into an
 * unpacked extension of its own: a MAIN-world content script at document_start in every frame, as wallet extensions
 * inject themselves, and a content script beside it when it has a message channel. The firewall under test never sees
 * how the wallet got there.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Rolldown } from 'vite'
import { DIST } from './extension.ts'

const WALLET = join(import.meta.dirname, 'wallet')
/** Each kind of test wallet's page script and content script. */
const ENTRIES = {
  own: { inpage: join(WALLET, 'inpage.ts'), channel: join(WALLET, 'channel.ts') },
  metamask: { inpage: join(WALLET, 'metamask/inpage.ts'), channel: join(WALLET, 'metamask/contentscript.ts') },
}

export type WalletOptions = {
  rpcUrl: string
  account: string
  name?: string
  rdns?: string
  /** Set window.ethereum (with Object.defineProperty). */
  window?: boolean
  /** Announce through EIP-6963. */
  announce?: boolean
  /**
   * Also publish the provider as `window[global]`, by plain assignment, as the Coinbase extension publishes itself as
   * `coinbaseWalletExtension` for Coinbase's SDK; or, given `name.inner`, as `window.name.inner` inside a namespace
   * object it defines (non-configurable, read-only) and fills in after, as Phantom publishes `phantom.ethereum`.
   */
  global?: string
  /** Join `window.ethereum.providers` as multi-wallet injectors do. */
  joinProviders?: boolean
  /** When the wallet injects itself: at document_start (as wallets do), or after the page's scripts. */
  runAt?: 'document_start' | 'document_idle'
  /**
   * Carry requests from the page script to a content script of its own over window.postMessage, as MetaMask does,
   * with this name (`<name>-contentscript`, `<name>-inpage`, `<name>-provider`); the content script calls the node.
   */
  channel?: string
  /**
   * Be MetaMask's page script and content script, built from its own packages (@metamask/providers over
   * @metamask/post-message-stream and object-multiplex, channel 'metamask'); it always sets window.ethereum and
   * announces, and ignores window, announce, joinProviders and channel.
   */
  metamask?: boolean
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
    global: options.global ?? null,
    channel: options.channel ?? null,
  }
  const dir = folderAfterPreflight()
  const entries = options.metamask ? ENTRIES.metamask : ENTRIES.own
  const withChannel = Boolean(options.metamask || options.channel)
  writeFileSync(join(dir, 'inpage.js'), await bundle(entries.inpage, config))
  if (withChannel) writeFileSync(join(dir, 'channel.js'), await bundle(entries.channel, config))
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
      ...(withChannel
        ? [
            {
              matches: ['<all_urls>'],
              js: ['channel.js'],
              run_at: 'document_start',
              all_frames: true,
              match_origin_as_fallback: true,
            },
          ]
        : []),
    ],
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** One of the wallet's scripts as a single IIFE, with its configuration compiled in. */
async function bundle(entry: string, config: object): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    define: { __WALLET__: JSON.stringify(config) },
    // MetaMask's packages are Node streams: given the browser builds of `events` and `process` as its own bundler does.
    resolve: { alias: { events: 'events/events.js' } },
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ['iife'], name: 'TestWallet', fileName: 'w' },
      rolldownOptions: { transform: { inject: { process: 'process/browser.js' } } },
    },
  })
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
  const chunk = output.output.find((item) => item.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error(`the test wallet bundle ${entry} has no code`)
  return chunk.code
}

/**
 * The ID Chrome gives an unpacked extension: from its manifest's `key`, else from its folder's path. Chrome runs
 * different extensions' content scripts in the order of their IDs.
 */
export function extensionIdOf(dir: string): string {
  const manifest = join(dir, 'manifest.json')
  const key = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { key?: string }).key : undefined
  const hash = createHash('sha256')
    .update(key ? Buffer.from(key, 'base64') : dir)
    .digest('hex')
  return [...hash.slice(0, 32)].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('')
}

/**
 * A folder for the wallet whose extension ID sorts after Preflight's, as nearly every wallet's does (the key in
 * Preflight's manifest gives it aaedbkfijghafgncnnikjmjngbkjchlo): its content scripts then start after Preflight's,
 * every run, as they would in a user's browser.
 */
function folderAfterPreflight(): string {
  const preflight = extensionIdOf(DIST)
  for (;;) {
    const dir = mkdtempSync(join(tmpdir(), 'preflight-wallet-'))
    if (extensionIdOf(dir) > preflight) return dir
    rmSync(dir, { recursive: true, force: true })
  }
}
