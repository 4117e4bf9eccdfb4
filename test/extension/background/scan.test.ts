import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canCheckMessagesOn, runScan } from '../../../src/extension/background/scan.ts'
import type { ScanRequest } from '../../../src/extension/background/scanRequest.ts'
import { DEFAULT_SETTINGS, type Settings } from '../../../src/extension/shared/settings.ts'
import { listenOnFreePort, readBody, startUnreachableEndpoint, type UnreachableEndpoint } from '../../support/net.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const SCAN: ScanRequest = {
  kind: 'transactions',
  request: {
    txObjects: [{ from: ACCOUNT, to: ACCOUNT, value: '0x1' }],
    userAccount: ACCOUNT,
    metadata: { origin: 'https://a.example' },
  },
}
const RESPONSE = { requestId: 'r', action: 'NONE', warnings: [], simulationResults: {} }

// The remote scan API is the boundary here: a local HTTP server records what it received and answers per path.
describe('runScan', () => {
  let server: Server
  let apiUrl: string
  let down: UnreachableEndpoint
  const received: { url?: string; headers: IncomingHttpHeaders; body: string }[] = []

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      received.push({ url: req.url, headers: req.headers, body: await readBody(req) })
      if (req.url?.includes('/slow/')) return
      if (req.headers['x-api-key'] !== 'good') {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid API key"}')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(RESPONSE))
    })
    apiUrl = `http://127.0.0.1:${await listenOnFreePort(server)}`
    down = await startUnreachableEndpoint()
  })
  afterAll(async () => {
    server.closeAllConnections()
    server.close()
    await down?.close()
  })

  const remote = (apiKey: string, path = ''): Settings => ({
    ...DEFAULT_SETTINGS,
    backend: { kind: 'remote', apiUrl: `${apiUrl}${path}`, apiKey },
  })

  it('posts the request to the chain path of a remote scan API with its key and version', async () => {
    expect(await runScan(SCAN, 31337, remote('good'))).toEqual({
      status: 'DONE',
      kind: 'transactions',
      response: RESPONSE,
      backend: { kind: 'remote', host: new URL(apiUrl).host },
    })
    const last = received.at(-1)
    expect(last?.url).toBe('/ethereum/v0/devnet/scan/transactions')
    expect(last?.headers).toMatchObject({ 'x-api-key': 'good', 'x-api-version': '2023-06-05' })
    expect(JSON.parse(last?.body ?? '')).toEqual(SCAN.request)
  })

  it('reports an API error with its status and reason, and a chain the API has no path for', async () => {
    expect(await runScan(SCAN, 1, remote('bad'))).toEqual({
      status: 'ERROR',
      error: {
        kind: 'BACKEND_ERROR',
        message: "The scan API refused the API key (401: Invalid API key). Check the key in Preflight's options.",
      },
      backend: { kind: 'remote', host: new URL(apiUrl).host },
    })
    expect(await runScan(SCAN, 5, remote('good'))).toMatchObject({
      status: 'ERROR',
      error: { kind: 'UNSUPPORTED_CHAIN' },
    })
  })

  it('gives up after the timeout', async () => {
    expect(await runScan(SCAN, 1, remote('good', '/slow'), 100)).toMatchObject({
      status: 'ERROR',
      error: { kind: 'TIMEOUT' },
    })
  })

  it('reports a chain without an RPC, and an RPC that does not answer, without throwing', async () => {
    expect(await runScan(SCAN, 999, DEFAULT_SETTINGS)).toMatchObject({
      status: 'ERROR',
      error: { kind: 'UNSUPPORTED_CHAIN' },
    })
    const rpcDown = { ...DEFAULT_SETTINGS, rpcUrls: { '31337': `${down.url}/v3/node-key` } }
    const failed = await runScan(SCAN, 31337, rpcDown)
    expect(failed).toMatchObject({
      status: 'ERROR',
      error: { kind: 'RPC_ERROR' },
      backend: { kind: 'local', host: new URL(down.url).host },
    })
    expect(JSON.stringify(failed)).not.toContain('node-key')
  })
})

describe('canCheckMessagesOn', () => {
  it('says whether the local RPCs or the scan API can check a chain', () => {
    const local: Settings = { ...DEFAULT_SETTINGS, rpcUrls: { '10': 'http://127.0.0.1:8545' } }
    expect(canCheckMessagesOn(10, local)).toBe(true)
    expect(canCheckMessagesOn(1337, local)).toBe(false)
    expect(canCheckMessagesOn(0, local)).toBe(false)
    const remote: Settings = {
      ...DEFAULT_SETTINGS,
      backend: { kind: 'remote', apiUrl: 'https://api.example', apiKey: 'k' },
    }
    expect(canCheckMessagesOn(1, remote)).toBe(true)
    expect(canCheckMessagesOn(1337, remote)).toBe(false)
  })
})
