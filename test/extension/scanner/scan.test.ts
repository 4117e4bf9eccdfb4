import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScanOrder } from '../../../src/extension/scanner/protocol.ts'
import { runScan } from '../../../src/extension/scanner/scan.ts'
import { scanOrdered } from '../../../src/extension/scanner/scanOrder.ts'
import type { ScanRequest } from '../../../src/extension/scanner/scanRequest.ts'
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

  /** The worker's order to scan SCAN's transfer from https://a.example, with `call` fields changed (a scan API scans). */
  const orderOf = (call: Partial<ScanOrder['call']>, settings = remote('good')): ScanOrder => ({
    type: 'preflight/scan',
    call: {
      method: 'eth_sendTransaction',
      params: [SCAN.request.txObjects[0]],
      account: ACCOUNT,
      origin: 'https://a.example',
      chainId: 31337,
      ...call,
    },
    settings,
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

  it('scans an order from the worker: a remote scan does not wait for the lists, a local one does', async () => {
    const order = (settings: Settings, method: ScanOrder['call']['method'] = 'eth_sendTransaction') =>
      orderOf({ method }, settings)
    const never = () => new Promise<void>(() => undefined)
    expect(await scanOrdered(order(remote('good')), never)).toMatchObject({ status: 'DONE', response: RESPONSE })
    expect(JSON.parse(received.at(-1)?.body ?? '')).toEqual(SCAN.request)
    const unreadable = () => Promise.reject(new Error('Preflight could not read its token-list file: status 404'))
    expect(await scanOrdered(order(DEFAULT_SETTINGS), unreadable)).toEqual({
      status: 'ERROR',
      error: {
        kind: 'BACKEND_ERROR',
        message: 'The scan failed: Preflight could not read its token-list file: status 404',
      },
    })
    // A request that cannot be turned into a scan request is reported, never thrown at the worker.
    const garbled = order(remote('good'), 'eth_sendRawTransaction')
    garbled.call.params = ['0x02zz']
    expect(await scanOrdered(garbled, never)).toMatchObject({ status: 'ERROR', error: { kind: 'BACKEND_ERROR' } })
  })

  it('judges the page around a framed request from the lists, also when a scan API scans it', async () => {
    const framed = (topOrigin: string) => orderOf({ topOrigin })
    let listsRead = 0
    const lists = async () => {
      listsRead++
    }
    const onPhishingPage = await scanOrdered(framed('https://claim.moonbirds.tv'), lists)
    expect(onPhishingPage).toMatchObject({
      status: 'DONE',
      response: { action: 'BLOCK', warnings: [{ kind: 'BLOCKLISTED_DOMAIN_CROSS_ORIGIN', severity: 'CRITICAL' }] },
    })
    expect(listsRead).toBe(1)
    // The scan API is asked exactly what the seed's request carries: the frame's origin.
    expect(JSON.parse(received.at(-1)?.body ?? '')).toEqual(SCAN.request)
    expect(await scanOrdered(framed('https://app.example.org'), lists)).toMatchObject({
      status: 'DONE',
      response: RESPONSE,
    })
  })

  it('asks as no site for a sandboxed document, and judges the site that served it from the lists', async () => {
    const sandboxed = (servedFrom: string) => orderOf({ origin: servedFrom, sandboxed: true })
    const lists = async () => undefined
    expect(await scanOrdered(sandboxed('https://claim.moonbirds.tv'), lists)).toMatchObject({
      status: 'DONE',
      response: { action: 'BLOCK', warnings: [{ kind: 'TRUSTED_BLOCKLIST_DOMAIN', severity: 'CRITICAL' }] },
    })
    // The scan API gets an origin with no host: nothing it trusts of a site applies to what the site sandboxed.
    expect(JSON.parse(received.at(-1)?.body ?? '').metadata).toEqual({ origin: 'sandboxed:https://claim.moonbirds.tv' })
    expect(await scanOrdered(sandboxed('https://a.example'), lists)).toMatchObject({
      status: 'DONE',
      response: RESPONSE,
    })
  })

  it('gives up after the timeout', async () => {
    expect(await runScan(SCAN, 1, remote('good', '/slow'), { timeoutMs: 100 })).toMatchObject({
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
