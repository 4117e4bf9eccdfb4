/**
 * Test dapps: a local HTTP server whose pages load the dev wallet (src/devnet/dapp/devWallet.ts, bundled once per
 * test file with vite) and run a per-page set-up script. Pages are registered by path.
 */
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { build, type Rolldown } from 'vite'

const WALLET_ENTRY = join(import.meta.dirname, '../../../src/devnet/dapp/devWallet.ts')

/** The dev wallet as one classic script exposing `window.DevWallet` ({ createDevWallet, announceDevWallet }). */
export async function bundleDevWallet(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: WALLET_ENTRY, formats: ['iife'], name: 'DevWallet', fileName: 'wallet' },
    },
  })
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
  const chunk = output.output.find((item) => item.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error('the dev wallet bundle has no code')
  return chunk.code
}

export type Dapp = {
  /** http://localhost:<port> */
  url: string
  /** The same server under another origin (http://127.0.0.1:<port>), for cross-origin frames. */
  otherOriginUrl: string
  /** Serves `html` at `path`. */
  page(path: string, html: string): void
  close(): Promise<void>
}

/** A page that loads the dev wallet and then runs `setup` (a script body). */
export function walletPage(setup: string): string {
  return `<!doctype html><meta charset="utf-8"><title>dapp</title><script src="/wallet.js"></script><script>${setup}</script>`
}

/** Starts the server on a free port with the wallet bundle at /wallet.js. */
export async function startDapp(): Promise<Dapp> {
  const wallet = await bundleDevWallet()
  const pages = new Map<string, string>([['/wallet.js', wallet]])
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    const body = pages.get(path)
    if (body === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://localhost:${port}`,
    otherOriginUrl: `http://127.0.0.1:${port}`,
    page: (path, html) => void pages.set(path, html),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
