/**
 * `serve --probe-environment`: a transaction scan also runs the transactions as a block runs them, so a claim that
 * pays back only while it is simulated is BLOCK with SIMULATION_EVASION; without the flag the same scan shows a gift.
 * Each answer is checked against the version's reference schema with the documented differences.
 */
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { parseNetworks } from '../../src/server/networks.ts'
import { type RunningServer, startScanServer } from '../../src/server/server.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { CLAIM, deployEvasiveGiveaway, TELLS } from '../support/evasiveGiveaway.ts'
import { responseValidator } from '../support/openapi.ts'
import { post } from './client.ts'
import { logSink } from './logSink.ts'

const KEY = 'probe-key'

let devnet: Devnet
let probing: RunningServer
let plain: RunningServer
let request: object

beforeAll(async () => {
  devnet = await startTestDevnet()
  const { fixtures } = devnet
  const start = (probeEnvironment: boolean) =>
    startScanServer({
      port: 0,
      networks: parseNetworks([`ethereum/devnet=${fixtures.rpcUrl}`]),
      apiKeys: [KEY],
      logStream: logSink().stream,
      probeEnvironment,
    })
  ;[probing, plain] = await Promise.all([start(true), start(false)])
  const user = fixtures.accounts[0]?.address as Address
  const giveaway = await deployEvasiveGiveaway(fixtures.rpcUrl, fixtures.accounts[7]?.address as Address, TELLS.baseFee)
  request = {
    txObjects: [{ from: user, to: giveaway, data: CLAIM, value: parseEther('0.1').toString() }],
    userAccount: user,
    metadata: { origin: 'https://claim.example' },
  }
})

afterAll(async () => {
  await Promise.all([probing?.close(), plain?.close()])
  await devnet?.stop()
})

const scan = (server: RunningServer) =>
  post(`${server.url}/ethereum/v0/devnet/scan/transactions`, request, {
    'X-Api-Key': KEY,
    'X-Api-Version': '2023-06-05',
  })

describe('serve --probe-environment', () => {
  it('BLOCKs a claim that pays back only while simulated, in a schema-valid answer; without it, a gift', async () => {
    const validate = responseValidator('2023-06-05', '/ethereum/v0/mainnet/scan/transactions', 'post', 200)
    const probed = await scan(probing)
    expect(probed.status).toBe(200)
    expect(validate(probed.body)).toBe(true)
    expect(probed.body).toMatchObject({
      action: 'BLOCK',
      warnings: [{ kind: 'SIMULATION_EVASION', severity: 'CRITICAL' }],
    })
    const unprobed = await scan(plain)
    expect(unprobed.status).toBe(200)
    expect(unprobed.body).toMatchObject({ action: 'NONE', warnings: [] })
  })
})
