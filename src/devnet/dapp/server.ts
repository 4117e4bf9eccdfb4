/** Serves the demo dapp from its sources with vite's dev server, plus the devnet fixtures at /fixtures.json. */
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

/** Starts the dapp on 127.0.0.1:port (fails when the port is taken); `close` stops it. */
export async function serveDapp(options: { port: number; fixtures: Fixtures }): Promise<DappServer> {
  const root = import.meta.dirname
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    clearScreen: false,
    cacheDir: join(root, '../../../node_modules/.vite-dapp'),
    plugins: [fixturesRoute(options.fixtures)],
    server: { host: '127.0.0.1', port: options.port, strictPort: true },
    optimizeDeps: { include: ['viem', 'viem/utils'] },
  })
  await server.listen()
  return { url: `http://127.0.0.1:${options.port}/`, close: () => server.close() }
}
