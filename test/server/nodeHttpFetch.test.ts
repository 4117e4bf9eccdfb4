/** The server's fetch for node calls answers what viem's HTTP transport reads, and fails the ways fetch fails. */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeHttpFetch } from '../../src/server/nodeHttpFetch.ts'
import { listenOnFreePort, readBody } from '../support/net.ts'

let node: Server
let url: string

beforeAll(async () => {
  node = createServer(async (request, response) => {
    const body = await readBody(request)
    if (request.url === '/echo') {
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-seen': request.headers['x-test'] })
      return response.end(JSON.stringify({ method: request.method, body }))
    }
    if (request.url === '/slow') return setTimeout(() => response.end('late'), 2_000)
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{"jsonrpc":"2.0","id":0,"res')
    response.destroy()
  })
  url = `http://127.0.0.1:${await listenOnFreePort(node)}`
})

afterAll(async () => {
  node.closeAllConnections()
  await new Promise((resolve) => node.close(resolve))
})

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body, and answers the status, headers and whole text', async () => {
    const response = await nodeHttpFetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'x-test': 'yes' },
      body: 'é'.repeat(5),
    })
    expect([response.ok, response.status, response.statusText]).toEqual([true, 201, 'Made'])
    expect(response.headers.get('Content-Type')).toBe('application/json')
    expect(response.headers.get('X-Seen')).toBe('yes')
    expect(response.headers.get('x-absent')).toBeNull()
    expect(JSON.parse(await response.text())).toEqual({ method: 'POST', body: 'é'.repeat(5) })
  })

  it('rejects with an AbortError when the request signal aborts, before or during the call', async () => {
    const call = new AbortController()
    const pending = nodeHttpFetch(`${url}/slow`, { method: 'POST', body: '', signal: call.signal })
    call.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await expect(nodeHttpFetch(`${url}/echo`, { method: 'POST', signal: call.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
  })

  it('rejects when the connection drops before the answer ends', async () => {
    await expect(nodeHttpFetch(`${url}/drop`, { method: 'POST', body: '{}' })).rejects.toThrow()
  })
})
