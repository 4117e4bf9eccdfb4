/** The scan API against a real devnet: auth, versions (validated against each version's OpenAPI), errors, domains. */
import { type Address, encodeFunctionData, erc721Abi, erc1155Abi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execTransactionData, handOverVault } from '../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { safeTxTypedData } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { takeoverProposal } from '../../src/devnet/safeProposals.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { API_VERSIONS } from '../../src/server/versions.ts'
import { buildScenarios, permitMessage, safeTxMessage, type TransactionScenario } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { startUnreachableEndpoint, type UnreachableEndpoint } from '../support/net.ts'
import { responseValidator } from '../support/openapi.ts'
import { buyWithFeeRouter, launchTaxedToken } from '../support/taxedTokens.ts'
import { errorOf, post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'test-key-0123456789'
const OTHER_KEY = 'second-key'
const REFERENCE_TX_PATH = '/ethereum/v0/mainnet/scan/transactions'
const REFERENCE_MESSAGE_PATH = '/ethereum/v0/mainnet/scan/message'

let devnet: Devnet
let fixtures: Fixtures
let server: RunningServer
let base: string
let scenarios: TransactionScenario[]
let offline: UnreachableEndpoint

beforeAll(async () => {
  devnet = await startTestDevnet()
  fixtures = devnet.fixtures
  offline = await startUnreachableEndpoint()
  server = await startScanServer({
    port: 0,
    networks: parseNetworks([`ethereum/devnet=${fixtures.rpcUrl}`, `ethereum/offline=${offline.url}`]),
    apiKeys: [KEY, OTHER_KEY],
    logStream: logSink().stream,
  })
  base = server.url
  scenarios = [
    ...buildScenarios(fixtures, []).filter((s): s is TransactionScenario => s.kind === 'transactions'),
    ...nftScenarios(fixtures),
  ]
})

/** ERC-721 and ERC-1155 transfers from account 0, so every state-change shape is rendered in every version. */
function nftScenarios(fixtures: Fixtures): TransactionScenario[] {
  const [user] = fixtures.accounts.map((a) => a.address) as [Address]
  const recipient = fixtures.accounts[5]?.address as Address
  const scenario = (name: string, to: Address, data: `0x${string}`): TransactionScenario => ({
    kind: 'transactions',
    name,
    maxRoundTrips: 2,
    request: {
      txObjects: [{ from: user, to, data, value: '0' }],
      userAccount: user,
      metadata: { origin: 'https://a.org' },
    },
    viem: { account: user, calls: [{ to, data }] },
  })
  return [
    scenario(
      'NFT transfer',
      fixtures.erc721.address,
      encodeFunctionData({ abi: erc721Abi, functionName: 'transferFrom', args: [user, recipient, 1n] }),
    ),
    scenario(
      'ERC-1155 transfer',
      fixtures.erc1155.address,
      encodeFunctionData({ abi: erc1155Abi, functionName: 'safeTransferFrom', args: [user, recipient, 1n, 2n, '0x'] }),
    ),
  ]
}

afterAll(async () => {
  await server?.close()
  await offline?.close()
  await devnet?.stop()
})

const txScenario = (name: string) => {
  const found = scenarios.find((s) => s.name === name)
  if (!found) throw new Error(`no scenario ${name}`)
  return found
}

const scanTx = (body: unknown, headers: Record<string, string> = {}, path = '/ethereum/v0/devnet/scan/transactions') =>
  post(`${base}${path}`, body, { 'X-Api-Key': KEY, ...headers })

const scanMessage = (body: unknown, headers: Record<string, string> = {}) =>
  post(`${base}/ethereum/v0/devnet/scan/message`, body, { 'X-Api-Key': KEY, ...headers })

/** The 2022-06-01 transaction endpoint took one `txObject`. */
const versionedTxBody = (scenario: TransactionScenario, version: string) => {
  if (version !== '2022-06-01') return scenario.request
  const { txObjects, ...rest } = scenario.request
  return { ...rest, txObject: txObjects[0] }
}

describe('authentication', () => {
  it('refuses a request without X-Api-Key with 401, an error and a request id', async () => {
    const answer = await post(`${base}/ethereum/v0/devnet/scan/transactions`, txScenario('native transfer').request)
    expect(answer.status).toBe(401)
    expect(errorOf(answer)).toMatch(/X-Api-Key/)
    expect((answer.body as { requestId: string }).requestId).toMatch(/^[0-9a-f]{32}$/)
    expect(responseValidator('2023-06-05', REFERENCE_TX_PATH, 'post', 401)(answer.body)).toBe(true)
  })

  it('refuses a wrong key with 401', async () => {
    const answer = await scanTx(txScenario('native transfer').request, { 'X-Api-Key': `${KEY}x` })
    expect(answer.status).toBe(401)
    expect(errorOf(answer)).toMatch(/invalid X-Api-Key/)
  })

  it('accepts every configured key', async () => {
    for (const key of [KEY, OTHER_KEY]) {
      const answer = await scanTx(txScenario('native transfer').request, { 'X-Api-Key': key })
      expect(answer.status).toBe(200)
    }
  })

  it('gives every request its own unguessable id', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => post(`${base}/v0/domains`, { domains: ['a.org'] })))
    const ids = answers.map((a) => a.headers.get('x-request-id'))
    expect(new Set(ids).size).toBe(3)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/)
  })
})

describe('versions', () => {
  for (const version of API_VERSIONS) {
    const txPath = version === '2022-06-01' ? '/ethereum/v0/mainnet/scan/transaction' : REFERENCE_TX_PATH

    it(`${version}: transaction scans match that version's schema`, async () => {
      const validate = responseValidator(version, txPath, 'post', 200)
      const names = ['native transfer', 'ERC-20 transfer', 'ERC-20 unlimited approve', 'setApprovalForAll']
      for (const name of [...names, 'Safe exec: native transfer', 'NFT transfer', 'ERC-1155 transfer']) {
        const answer = await scanTx(versionedTxBody(txScenario(name), version), { 'X-Api-Version': version })
        expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(200)
        expect(validate(answer.body), `${name}: ${validate.errors.join('\n')}`).toBe(true)
        expect(changeCount(answer.body), `${name} shows what changes`).toBeGreaterThan(0)
        expect((answer.body as { requestId: string }).requestId).toBe(answer.headers.get('x-request-id'))
      }
    })

    it(`${version}: message scans match that version's schema`, async () => {
      const validate = responseValidator(version, REFERENCE_MESSAGE_PATH, 'post', 200)
      const [user, signer] = fixtures.accounts.map((a) => a.address) as [Address, Address]
      const recipient = fixtures.accounts[5]?.address as Address
      for (const request of [
        permitMessage(fixtures, user, fixtures.erc20.address, recipient),
        safeTxMessage(fixtures, signer, recipient),
      ]) {
        const answer = await scanMessage(request, { 'X-Api-Version': version })
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        expect(validate(answer.body), validate.errors.join('\n')).toBe(true)
        expect(changeCount(answer.body)).toBeGreaterThan(0)
      }
    })
  }

  it('a Safe configuration change: 2023-06-05 carries SAFE_CONFIGURATION_CHANGE, older versions only the warning', async () => {
    const tx = takeoverProposal(fixtures, 0n)
    const message = {
      message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fixtures.chainId, fixtures.safe.address, tx) },
      userAccount: fixtures.safe.owners[1],
      metadata: { origin: 'https://app.safe.global' },
    }
    const execute = {
      txObjects: [{ from: fixtures.safe.owners[0], to: fixtures.safe.address, data: execTransactionData(tx) }],
      userAccount: fixtures.safe.address,
      metadata: { origin: 'https://app.safe.global' },
      simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: fixtures.safe.address }] },
    }
    for (const version of API_VERSIONS) {
      const headers = { 'X-Api-Version': version }
      const messageAnswer = await scanMessage(message, headers)
      const validateMessage = responseValidator(version, REFERENCE_MESSAGE_PATH, 'post', 200)
      expect(validateMessage(messageAnswer.body), `${version}: ${validateMessage.errors.join('\n')}`).toBe(true)
      const txPath = version === '2022-06-01' ? '/ethereum/v0/mainnet/scan/transaction' : REFERENCE_TX_PATH
      const body =
        version === '2022-06-01' ? { ...execute, txObjects: undefined, txObject: execute.txObjects[0] } : execute
      const txAnswer = await scanTx(body, headers)
      const validateTx = responseValidator(version, txPath, 'post', 200)
      expect(validateTx(txAnswer.body), `${version}: ${validateTx.errors.join('\n')}`).toBe(true)
      for (const answer of [messageAnswer, txAnswer]) {
        const { action, warnings } = answer.body as { action: string; warnings: { severity: string }[] }
        expect(action).toBe('BLOCK')
        expect(warnings.map((warning) => warning.severity)).toContain('CRITICAL')
      }
      const expected = version === '2023-06-05' ? ['SAFE_CONFIGURATION_CHANGE'] : []
      expect(
        changesOf(messageAnswer.body).map((change) => change.rawInfo.kind),
        version,
      ).toEqual(expected)
      expect(
        changesOf(txAnswer.body).map((change) => change.rawInfo.kind),
        version,
      ).toEqual(expected)
    }
  })

  /**
   * `tx` scanned in every version (2022-06-01 as its singular `txObject`), each answer valid against that version's
   * reference file: the action and warnings of each.
   */
  async function warningsInEveryVersion(tx: { from: string; [field: string]: unknown }) {
    const request = { txObjects: [tx], userAccount: tx.from, metadata: { origin: 'https://example.org' } }
    const answers: { version: string; action: string; warnings: { kind: string; message: string }[] }[] = []
    for (const version of API_VERSIONS) {
      const legacy = version === '2022-06-01'
      const body = legacy ? { ...request, txObjects: undefined, txObject: tx } : request
      const answer = await scanTx(body, { 'X-Api-Version': version })
      const path = legacy ? '/ethereum/v0/mainnet/scan/transaction' : REFERENCE_TX_PATH
      const validateTx = responseValidator(version, path, 'post', 200)
      expect(validateTx(answer.body), `${version}: ${validateTx.errors.join('\n')}`).toBe(true)
      answers.push({ version, ...(answer.body as Omit<(typeof answers)[number], 'version'>) })
    }
    return answers
  }

  it('a contract handed over: SET_OWNER_AUTHORITY in every version, each response in the reference shape', async () => {
    const handover = handOverVault(fixtures, fixtures.controlled.vaultOwner)
    for (const { version, action, warnings } of await warningsInEveryVersion(handover)) {
      expect(action, version).toBe('WARN')
      expect(
        warnings.map((warning) => warning.kind),
        version,
      ).toEqual(['SET_OWNER_AUTHORITY'])
      expect(warnings[0]?.message, version).toContain('This hands ownership of')
    }
  })

  it('a honeypot buy: TOKEN_CANNOT_BE_SOLD in every version, each response in the reference shape', async () => {
    const [user, maker] = [fixtures.accounts[0]?.address, fixtures.accounts[5]?.address] as [Address, Address]
    const honeypot = await launchTaxedToken(fixtures, maker, 'HONEY', { sellsRefused: true })
    const buy = buyWithFeeRouter(fixtures, user, honeypot.address, parseEther('1'))
    for (const { version, action, warnings } of await warningsInEveryVersion({
      ...buy,
      value: BigInt(buy.value ?? 0).toString(),
    })) {
      expect(action, version).toBe('WARN')
      expect(
        warnings.map((warning) => warning.kind),
        version,
      ).toEqual(['TOKEN_CANNOT_BE_SOLD'])
      expect(warnings[0]?.message, version).toMatch(/^You may not be able to sell HONEY \(0x[0-9a-f]{4}…[0-9a-f]{4}\)/)
    }
  })

  it('2023-06-05 keys state changes by account; 2023-05-17 lists the user account changes', async () => {
    const request = txScenario('ERC-20 transfer').request
    const newest = (await scanTx(request, { 'X-Api-Version': '2023-06-05' })).body as TxBody
    const older = (await scanTx(request, { 'X-Api-Version': '2023-05-17' })).body as TxBody
    const user = request.userAccount.toLowerCase()
    const keyed = newest.simulationResults.aggregated.expectedStateChanges as Record<string, Change[]>
    expect(Object.keys(keyed)).toContain(user)
    const listed = older.simulationResults.aggregated.expectedStateChanges as Change[]
    expect(Array.isArray(listed)).toBe(true)
    expect(listed.map((c) => c.humanReadableDiff)).toEqual(keyed[user]?.map((c) => c.humanReadableDiff))
    expect(listed[0]?.rawInfo.data.contract).toEqual({ address: fixtures.erc20.address.toLowerCase(), kind: 'ACCOUNT' })
  })

  it('2022-06-01 repeats name, symbol and decimals in ERC-20 changes and reports gas of the one transaction', async () => {
    const body = versionedTxBody(txScenario('ERC-20 transfer'), '2022-06-01')
    const answer = await scanTx(body, { 'X-Api-Version': '2022-06-01' }, '/ethereum/v0/devnet/scan/transaction')
    expect(answer.status).toBe(200)
    const results = (
      answer.body as { simulationResults: { expectedStateChanges: Change[]; gas: { gasLimit: string } } }
    ).simulationResults
    expect(results.expectedStateChanges[0]?.rawInfo.data).toMatchObject({ symbol: 'USDC', decimals: 6 })
    expect(Number(results.gas.gasLimit)).toBeGreaterThan(21_000)
  })

  it('2022-06-01 refuses a bundle, naming the field and the versions that accept one', async () => {
    const answer = await scanTx(txScenario('2-tx bundle: approve + drain').request, { 'X-Api-Version': '2022-06-01' })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^txObjects: .*2023-03-08/)
  })

  it('2022-06-01 names a bad field as the client sent it (txObject, not txObjects[0])', async () => {
    const body = versionedTxBody(txScenario('native transfer'), '2022-06-01') as { txObject: object }
    const answer = await scanTx(
      { ...body, txObject: { ...body.txObject, from: 'not-an-address' } },
      {
        'X-Api-Version': '2022-06-01',
      },
    )
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^txObject\.from: /)
  })

  it('uses 2023-06-05 when X-Api-Version is omitted', async () => {
    const answer = await scanTx(txScenario('native transfer').request)
    expect(answer.status).toBe(200)
    const aggregated = (answer.body as TxBody).simulationResults.aggregated
    expect(aggregated.userAccount).toBe(txScenario('native transfer').request.userAccount.toLowerCase())
    expect(Array.isArray(aggregated.expectedStateChanges)).toBe(false)
  })

  it('refuses an unknown version with 400 naming the supported ones', async () => {
    const answer = await scanTx(txScenario('native transfer').request, { 'X-Api-Version': '2024-01-01' })
    expect(answer.status).toBe(400)
    for (const version of API_VERSIONS) expect(errorOf(answer)).toContain(version)
    expect(responseValidator('2023-06-05', REFERENCE_TX_PATH, 'post', 400)(answer.body)).toBe(true)
  })

  it('serves the legacy singular /scan/transaction path', async () => {
    const answer = await scanTx(txScenario('native transfer').request, {}, '/ethereum/v0/devnet/scan/transaction')
    expect(answer.status).toBe(200)
    expect((answer.body as TxBody).action).toBe('NONE')
  })

  it('answers any language in English and says so', async () => {
    const answer = await scanTx(
      txScenario('native transfer').request,
      {},
      '/ethereum/v0/devnet/scan/transactions?language=fr',
    )
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-language')).toBe('en')
  })
})

describe('bad requests', () => {
  it('names the problem in malformed JSON', async () => {
    const answer = await scanTx('{"txObjects": [')
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^body: invalid JSON/)
  })

  it("names a key that would reach an object's prototype, where JSON's own parser said only 'invalid JSON'", async () => {
    const answer = await post(
      `${base}/ethereum/v0/devnet/scan/message`,
      '{"message": {"kind": "SIGN_TYPED_DATA", "data": {"types": {"__proto__": []}}}, "metadata": {"origin": "https://a.example"}}',
      { 'X-Api-Key': KEY, 'content-type': 'application/json' },
    )
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toBe(
      "message.data.types.__proto__: a key that reaches an object's prototype is not accepted",
    )
  })

  it('refuses with 415 a compressed body or another charset than UTF-8, which it would read as something else', async () => {
    const url = `${base}/ethereum/v0/devnet/scan/transactions`
    const gzip = await post(url, '{}', {
      'X-Api-Key': KEY,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    })
    expect(gzip.status).toBe(415)
    expect(errorOf(gzip)).toBe('Content-Encoding: gzip is not accepted; send the body uncompressed')
    const utf16 = await post(url, '{}', { 'X-Api-Key': KEY, 'content-type': 'application/json; charset=utf-16' })
    expect(utf16.status).toBe(415)
    expect(errorOf(utf16)).toBe('Content-Type: charset utf-16 is not accepted; send UTF-8')
    const utf8 = await post(url, '{}', { 'X-Api-Key': KEY, 'content-type': 'application/json; charset=UTF-8' })
    expect(utf8.status).toBe(400)
    expect(errorOf(utf8)).toMatch(/txObjects/)
  })

  it('refuses a body that is not JSON by content type', async () => {
    const answer = await post(`${base}/ethereum/v0/devnet/scan/transactions`, '{}', {
      'X-Api-Key': KEY,
      'content-type': 'text/plain',
    })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^Content-Type: expected application\/json/)
  })

  it('refuses a body over 1 MiB with 413', async () => {
    const answer = await scanTx({ padding: 'x'.repeat(1024 * 1024 + 1) })
    expect(answer.status).toBe(413)
  })

  it("passes the engine's field and reason through for an invalid request", async () => {
    const { txObjects: _omitted, ...withoutTxObjects } = txScenario('native transfer').request
    const answer = await scanTx(withoutTxObjects)
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^txObjects/)
  })

  it('lists the configured chain/network pairs for an unknown one', async () => {
    const answer = await scanTx(txScenario('native transfer').request, {}, '/polygon/v0/mainnet/scan/transactions')
    expect(answer.status).toBe(404)
    expect(errorOf(answer)).toContain('ethereum/devnet')
  })

  it('answers 404 for an unknown path and 405 for a GET', async () => {
    expect((await post(`${base}/nothing/here`, {}, { 'X-Api-Key': KEY })).status).toBe(404)
    const get = await fetch(`${base}/ethereum/v0/devnet/scan/message`, { headers: { 'X-Api-Key': KEY } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toContain('POST')
  })

  it('answers 502 with a clear error when the node is unreachable', async () => {
    const answer = await scanTx(txScenario('native transfer').request, {}, '/ethereum/v0/offline/scan/transactions')
    expect(answer.status).toBe(502)
    expect(errorOf(answer)).toMatch(/node/i)
  })
})

describe('CORS', () => {
  it('answers a preflight for the headers browser clients send', async () => {
    const response = await fetch(`${base}/ethereum/v0/devnet/scan/transactions`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'chrome-extension://abc',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-api-key,x-api-version',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = response.headers.get('access-control-allow-headers')?.toLowerCase() ?? ''
    for (const header of ['content-type', 'x-api-key', 'x-api-version']) expect(allowed).toContain(header)
  })

  it('allows any origin on answers, errors included', async () => {
    const answer = await post(`${base}/ethereum/v0/devnet/scan/transactions`, {})
    expect(answer.status).toBe(401)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('domains', () => {
  const blocked = 'azukishop.live'
  const trusted = 'etherscan.io'

  for (const version of API_VERSIONS) {
    it(`${version}: results match that version's schema`, async () => {
      const answer = await post(
        `${base}/v0/domains`,
        { domains: [`https://${blocked}/mint`, trusted, 'etherscam.io', 'unknown-site.example'] },
        { 'X-Api-Key': KEY, 'X-Api-Version': version },
      )
      expect(answer.status).toBe(200)
      const validate = responseValidator(version, '/v0/domains', 'post', 200)
      expect(validate(answer.body), validate.errors.join('\n')).toBe(true)
      const [bad, good, lookalike, unknown] = answer.body as DomainResult[]
      expect(bad?.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRUSTED_BLOCKLIST_DOMAIN', 'CRITICAL']])
      expect(good?.warnings).toEqual([])
      expect(lookalike?.warnings.map((w) => w.kind)).toEqual(['COPY_CAT_DOMAIN'])
      expect(unknown?.riskScore).toBeNull()
      expect('risk_score' in (bad as object)).toBe(version === '2022-06-01')
    })
  }

  it('2022-06-01 accepts a plain list of strings; 2023-03-08 refuses it', async () => {
    const old = await post(`${base}/v0/domains`, [blocked], { 'X-Api-Key': KEY, 'X-Api-Version': '2022-06-01' })
    expect(old.status).toBe(200)
    expect((old.body as DomainResult[])[0]?.risk_score).toBe(1)
    const newer = await post(`${base}/v0/domains`, [blocked], { 'X-Api-Key': KEY, 'X-Api-Version': '2023-03-08' })
    expect(newer.status).toBe(400)
    expect(errorOf(newer)).toMatch(/domains/)
  })

  it('names the bad entry', async () => {
    const answer = await post(`${base}/v0/domains`, { domains: ['ok.org', 42] }, { 'X-Api-Key': KEY })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatch(/^domains\[1\]: /)
  })
})

/** State changes in any version's shape: a list, a map by account, or the 2022 single-transaction list. */
function changesOf(body: unknown): Change[] {
  const results = (body as { simulationResults: Record<string, unknown> }).simulationResults
  const changes =
    (results.aggregated as { expectedStateChanges?: unknown } | undefined)?.expectedStateChanges ??
    results.expectedStateChanges
  return Array.isArray(changes) ? changes : (Object.values(changes as object).flat() as Change[])
}

function changeCount(body: unknown): number {
  return changesOf(body).length
}

type Change = { humanReadableDiff: string; rawInfo: { kind: string; data: Record<string, unknown> } }
type TxBody = {
  action: string
  simulationResults: { aggregated: { userAccount?: string; expectedStateChanges: Record<string, Change[]> | Change[] } }
}
type DomainResult = {
  riskScore: number | null
  risk_score?: number | null
  warnings: { kind: string; severity: string }[]
}
