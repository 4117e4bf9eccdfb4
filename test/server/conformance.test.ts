/**
 * Every route and version against two documents: the server's own OpenAPI document (GET /openapi.json), which must
 * describe what it answers exactly; and the public reference files, with every request example they carry sent as-is,
 * which the answers must match up to the differences the server documents.
 */
import { type Address, keccak256, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { DIFFERENCES } from '../../src/server/openapi.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { API_VERSIONS } from '../../src/server/versions.ts'
import { buildScenarios, permitMessage, safeMessageRequest, safeTxMessage } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { documentValidator, requestExamples, responseValidator } from '../support/openapi.ts'
import { post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'conformance-key'

let devnet: Devnet
let server: RunningServer

beforeAll(async () => {
  devnet = await startTestDevnet()
  // The reference examples name ethereum/mainnet: here it is the devnet (its contracts are absent, the shapes are not).
  server = await startScanServer({
    port: 0,
    networks: parseNetworks([
      `ethereum/mainnet=${devnet.fixtures.rpcUrl}`,
      `ethereum/devnet=${devnet.fixtures.rpcUrl}`,
    ]),
    apiKeys: [KEY],
    rateLimit: 100_000,
    logStream: logSink().stream,
  })
})

afterAll(async () => {
  await server?.close()
  await devnet?.stop()
})

const served = async (version: string) => {
  const response = await fetch(`${server.url}/openapi.json?version=${version}`)
  expect(response.status).toBe(200)
  return (await response.json()) as { openapi: string; info: { version: string; description: string } }
}

/** The reference path of a scan endpoint in `version`'s file (2022-06-01 has the singular transaction path). */
const referencePath = (version: string, endpoint: 'transactions' | 'message') =>
  endpoint === 'message'
    ? '/ethereum/v0/mainnet/scan/message'
    : version === '2022-06-01'
      ? '/ethereum/v0/mainnet/scan/transaction'
      : '/ethereum/v0/mainnet/scan/transactions'

const SERVED_PATHS = {
  transactions: '/{chain}/v0/{network}/scan/transactions',
  message: '/{chain}/v0/{network}/scan/message',
  domains: '/v0/domains',
}

describe.each(API_VERSIONS)('X-Api-Version %s', (version) => {
  it('serves an OpenAPI 3.1 document for this version that lists the deliberate differences', async () => {
    const document = await served(version)
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.version).toBe(version)
    for (const difference of DIFFERENCES) expect(document.info.description).toContain(difference)
  })

  for (const endpoint of ['transactions', 'message'] as const) {
    it(`${endpoint}: every reference example, sent as-is, is answered 200 in the shape of both documents`, async () => {
      const document = await served(version)
      const ownSchema = documentValidator(document, SERVED_PATHS[endpoint], 'post', 200)
      const referenceSchema = responseValidator(version, referencePath(version, endpoint), 'post', 200)
      const examples = requestExamples(version, referencePath(version, endpoint))
      expect(examples.length).toBeGreaterThan(0)
      for (const [name, example] of examples) {
        const answer = await post(`${server.url}${referencePath(version, endpoint)}`, example, {
          'X-Api-Key': KEY,
          'X-Api-Version': version,
        })
        expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(200)
        expect(ownSchema(answer.body), `${name} (served document): ${ownSchema.errors.join('\n')}`).toBe(true)
        expect(referenceSchema(answer.body), `${name} (reference): ${referenceSchema.errors.join('\n')}`).toBe(true)
      }
    })
  }

  it('devnet scans of every kind match the served document', async () => {
    const document = await served(version)
    const { fixtures } = devnet
    const transactions = documentValidator(document, SERVED_PATHS.transactions, 'post', 200)
    for (const scenario of buildScenarios(fixtures, []).filter((s) => s.kind === 'transactions')) {
      const body =
        version === '2022-06-01'
          ? { ...scenario.request, txObjects: scenario.request.txObjects.slice(0, 1) }
          : scenario.request
      const answer = await post(`${server.url}/ethereum/v0/devnet/scan/transactions`, body, {
        'X-Api-Key': KEY,
        'X-Api-Version': version,
      })
      expect(answer.status, `${scenario.name}: ${JSON.stringify(answer.body)}`).toBe(200)
      expect(transactions(answer.body), `${scenario.name}: ${transactions.errors.join('\n')}`).toBe(true)
    }
    const message = documentValidator(document, SERVED_PATHS.message, 'post', 200)
    const [user, signer] = fixtures.accounts.map((a) => a.address) as [Address, Address]
    const kinds: string[] = []
    for (const request of [
      permitMessage(fixtures, user, fixtures.erc20.address, fixtures.safe.address),
      safeTxMessage(fixtures, signer, fixtures.accounts[5]?.address as Address),
      safeMessageRequest(fixtures, signer, keccak256(toHex('a message the Safe signs by its hash'))),
      {
        ...permitMessage(fixtures, user, fixtures.erc20.address, user),
        message: { kind: 'SIGN_TYPED_DATA', data: {} },
      },
      {
        message: { kind: 'PERSONAL_SIGN', rawMessage: 'hello' },
        userAccount: user,
        metadata: { origin: 'https://a.org' },
      },
    ]) {
      const answer = await post(`${server.url}/ethereum/v0/devnet/scan/message`, request, {
        'X-Api-Key': KEY,
        'X-Api-Version': version,
      })
      expect(answer.status).toBe(200)
      expect(message(answer.body), message.errors.join('\n')).toBe(true)
      kinds.push(...(answer.body as { warnings: { kind: string }[] }).warnings.map((warning) => warning.kind))
    }
    // Preflight's own kinds are in the served document's enumeration, not only tolerated by it.
    expect(kinds).toContain('MULTISIG_BLIND_SIGNATURE')
  })

  it('domains and error answers match both documents', async () => {
    const document = await served(version)
    const [[name, example] = ['none', null]] = requestExamples(version, '/v0/domains')
    const domains = await post(`${server.url}/v0/domains`, example, { 'X-Api-Key': KEY, 'X-Api-Version': version })
    expect(domains.status, `${name}: ${JSON.stringify(domains.body)}`).toBe(200)
    for (const validate of [
      documentValidator(document, SERVED_PATHS.domains, 'post', 200),
      responseValidator(version, '/v0/domains', 'post', 200),
    ]) {
      expect(validate(domains.body), validate.errors.join('\n')).toBe(true)
    }
    const path = referencePath(version, 'transactions')
    const errors: [number, Record<string, string>, unknown][] = [
      [400, { 'X-Api-Key': KEY }, { txObjects: 'none' }],
      [401, { 'X-Api-Key': 'wrong' }, {}],
    ]
    for (const [status, headers, body] of errors) {
      const answer = await post(`${server.url}${path}`, body, { ...headers, 'X-Api-Version': version })
      expect(answer.status).toBe(status)
      for (const validate of [
        documentValidator(document, SERVED_PATHS.transactions, 'post', status),
        responseValidator(version, path, 'post', status),
      ]) {
        expect(validate(answer.body), validate.errors.join('\n')).toBe(true)
      }
    }
  })
})
