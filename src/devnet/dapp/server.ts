/** Serves the demo dapp from its sources with vite's dev server, plus the devnet fixtures at /fixtures.json. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createServer, type Plugin } from 'vite'
import type { Fixtures } from '../fixtures.ts'

export type DappServer = { url: string; close: () => Promise<void> }

function fixturesRoute(fixtures: Fixtures): Plugin {
  const body = JSON.stringify(fixtures)
  return {
    name: 'preflight-dapp-fixtures',
    configureServer(server) {
      server.middlewares.use('/fixtures.json', (_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.setHeader('cache-control', 'no-store')
        res.end(body)
      })
    },
  }
}

/**
 * Starts the dapp on 127.0.0.1:port (port 0 picks a free one; fails when the port is taken); `close` stops it.
 * Each server optimizes its dependencies into its own cache directory (removed on close), so servers started at the
 * same time (the demo, tests in parallel) never write into one another's cache.
 */
export async function serveDapp(options: { port: number; fixtures: Fixtures }): Promise<DappServer> {
  const root = import.meta.dirname
  // Inside the repository, so vite serves the optimized files without widening server.fs.allow.
  const cacheParent = join(root, '../../../node_modules')
  mkdirSync(cacheParent, { recursive: true })
  const cacheDir = mkdtempSync(join(cacheParent, '.vite-dapp-'))
  const removeCache = () => rmSync(cacheDir, { recursive: true, force: true, maxRetries: 3 })
  try {
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'warn',
      clearScreen: false,
      cacheDir,
      plugins: [fixturesRoute(options.fixtures)],
      server: { host: '127.0.0.1', port: options.port, strictPort: true },
      optimizeDeps: { include: ['viem', 'viem/utils'] },
    })
    let port: number
    try {
      await server.listen()
      const address = server.httpServer?.address() as AddressInfo | null | undefined
      if (!address) throw new Error('the dapp server has no address after listening')
      port = address.port
    } catch (error) {
      await server.close()
      throw error
    }
    return {
      url: `http://127.0.0.1:${port}/`,
      close: async () => {
        await server.close()
        removeCache()
      },
    }
  } catch (error) {
    removeCache()
    throw error
  }
}
