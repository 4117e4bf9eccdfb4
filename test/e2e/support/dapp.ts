/**
 * Test dapps: a local HTTP server whose pages load the dev wallet (src/devnet/dapp/devWallet.ts, bundled once per
 * test file with vite) and run a per-page set-up script. Pages are registered by path.
 */
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { build, type Rolldown } from 'vite'
import { ETHER_MAIL } from '../../../src/devnet/eip712.ts'
import { listenOnFreePort } from '../../support/net.ts'

const WALLET_ENTRY = join(import.meta.dirname, '../../../src/devnet/dapp/devWallet.ts')
const LIBRARIES_ENTRY = join(import.meta.dirname, 'libraries.ts')
const WALLET_KITS_ENTRY = join(import.meta.dirname, 'walletKits.ts')
const CONNECT_KITS_ENTRY = join(import.meta.dirname, 'connectKits.ts')

/** Module `entry` as one classic script that puts its exports on `window[name]`. */
async function bundleScript(entry: string, name: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry, formats: ['iife'], name, fileName: name } },
  })
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
  const chunk = output.output.find((item) => item.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error(`the ${name} bundle has no code`)
  return chunk.code
}

/** The dev wallet as one classic script exposing `window.DevWallet` ({ createDevWallet, announceDevWallet }). */
export const bundleDevWallet = (): Promise<string> => bundleScript(WALLET_ENTRY, 'DevWallet')

/** ethers v6, viem and web3.js as one classic script exposing `window.Libs` (support/libraries.ts). */
export const libraryBundle = (): Promise<string> => bundleScript(LIBRARIES_ENTRY, 'Libs')

/** @wagmi/core and Safe's protocol-kit as one classic script exposing `window.Kits` (support/walletKits.ts). */
export const walletKitBundle = (): Promise<string> => bundleScript(WALLET_KITS_ENTRY, 'Kits')

/** ethers v5, web3-onboard, mipd with viem and Coinbase's wallet SDK as one classic script exposing `window.Connect`. */
export const connectKitBundle = (): Promise<string> => bundleScript(CONNECT_KITS_ENTRY, 'Connect')

/**
 * Ether Mail on the devnet: a message no contract acts on, so the window has nothing to warn about, and the test
 * checks the signature itself.
 */
export const MAIL = { ...ETHER_MAIL, domain: { name: 'Ether Mail', version: '1', chainId: 31337 } } as const

export type Dapp = {
  /** http://localhost:<port> */
  url: string
  /** The same server under another origin (http://127.0.0.1:<port>), for cross-origin frames. */
  otherOriginUrl: string
  /**
   * Serves `html` at `path`. With `bodyDelayMs`, the headers go at once and the body that much later: the browser makes
   * the document on the headers and gives it its root element, when `document_start` scripts run, on the body.
   */
  page(path: string, html: string, bodyDelayMs?: number): void
  close(): Promise<void>
}

/** A page that loads the dev wallet and then runs `setup` (a script body). */
export function walletPage(setup: string): string {
  return `<!doctype html><meta charset="utf-8"><title>dapp</title><script src="/wallet.js"></script><script>${setup}</script>`
}

/** A page with the dev wallet (on `rpcUrl`, signing as `account`) announced as window.ethereum and over EIP-6963. */
export function devWalletPage(rpcUrl: string, account: string): string {
  return walletPage(`DevWallet.announceDevWallet(DevWallet.createDevWallet(${JSON.stringify({ rpcUrl, account })}))`)
}

/**
 * A page whose dev wallet (on `rpcUrl`, signing as `account`) answers eth_accounts and eth_chainId only once
 * `window.beforeAnswer(method)` settled, when the page set one: a wallet whose answers take time, as an extension
 * wallet's do (they cross its content script and its worker).
 */
export function answerHoldingWalletPage(rpcUrl: string, account: string): string {
  return walletPage(`
    const wallet = DevWallet.createDevWallet(${JSON.stringify({ rpcUrl, account })})
    const request = wallet.request
    wallet.request = async (args) => {
      if ((args.method === 'eth_accounts' || args.method === 'eth_chainId') && window.beforeAnswer) {
        await window.beforeAnswer(args.method)
      }
      return request(args)
    }
    DevWallet.announceDevWallet(wallet)
  `)
}

/**
 * A page whose dev wallet (on `rpcUrl`, signing as `account`) counts in `window.forwarded` the eth_sendTransaction
 * requests that reach it, below the extension's hook: what the extension really let through.
 */
export function countingWalletPage(rpcUrl: string, account: string): string {
  return walletPage(`
    const wallet = DevWallet.createDevWallet(${JSON.stringify({ rpcUrl, account })})
    window.forwarded = 0
    const count = (method) => { if (method === 'eth_sendTransaction') forwarded++ }
    const request = wallet.request
    const sendAsync = wallet.sendAsync
    wallet.request = (args) => (count(args.method), request(args))
    wallet.sendAsync = (payload, callback) => (count(payload.method), sendAsync(payload, callback))
    DevWallet.announceDevWallet(wallet)
  `)
}

/**
 * The frame of `page` whose URL ends with `pathEnd`, once its wallet is set up. A frame can commit its URL after its
 * page's load (an inline `srcdoc` on a loaded machine), so it is waited for, up to 15 s.
 */
export async function walletFrame(page: Page, pathEnd: string): Promise<Frame> {
  const deadline = Date.now() + 15_000
  let frame = page.frames().find((candidate) => candidate.url().endsWith(pathEnd))
  while (!frame) {
    if (Date.now() > deadline) throw new Error(`no frame at …${pathEnd} loaded`)
    await page.waitForTimeout(50)
    frame = page.frames().find((candidate) => candidate.url().endsWith(pathEnd))
  }
  await frame.waitForFunction(() => 'ethereum' in window)
  return frame
}

/** How many eth_sendTransaction requests reached the wallet of a countingWalletPage. */
export function forwardedCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { forwarded: number }).forwarded)
}

/** Starts the server on a free port with the wallet bundle at /wallet.js. */
export async function startDapp(): Promise<Dapp> {
  const wallet = await bundleDevWallet()
  const pages = new Map<string, { body: string; delayMs: number }>([['/wallet.js', { body: wallet, delayMs: 0 }]])
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    const page = pages.get(path)
    if (page === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html' })
    if (page.delayMs === 0) return void res.end(page.body)
    res.flushHeaders()
    setTimeout(() => res.end(page.body), page.delayMs)
  })
  const port = await listenOnFreePort(server)
  return {
    url: `http://localhost:${port}`,
    otherOriginUrl: `http://127.0.0.1:${port}`,
    page: (path, html, bodyDelayMs = 0) => void pages.set(path, { body: html, delayMs: bodyDelayMs }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
