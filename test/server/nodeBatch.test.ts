/**
 * `preflight serve --node-batch N` under concurrent scans, on a scan thread: each POST to the node carries at most N
 * calls and every scan gets its own answer; with 1 every call travels alone; a batch size that is not a positive
 * integer is refused at start. A recording proxy in front of the devnet's anvil sees the traffic.
 */
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { buildScenarios, type TransactionScenario } from '../bench/scenarios.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { type SlowNode, startSlowNode } from '../support/slowNode.ts'
import { post } from './client.ts'
import { serve, stop } from './serveCommand.ts'

const KEY = 'batch-key'
const SCANS = 24

let devnet: Devnet
/** JSON-RPC calls per POST that reached the node, since the last test began. */
let posts: number[] = []
/** The proxy answers every batch with one error, as a node that takes no batches does. */
let refuseBatches = false
let proxy: SlowNode

beforeAll(async () => {
  devnet = await startTestDevnet()
  proxy = await startSlowNode(devnet.fixtures.rpcUrl, 0, (body) => {
    const parsed = JSON.parse(body) as unknown
    posts.push(Array.isArray(parsed) ? parsed.length : 1)
    if (!refuseBatches || !Array.isArray(parsed)) return undefined
    return JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batch requests are not supported' },
    })
  })
})

afterAll(async () => {
  await proxy?.close()
  await devnet?.stop()
})

type Body = {
  simulationResults: { aggregated: { expectedStateChanges: Record<string, { humanReadableDiff: string }[]> } }
}

/** SCANS transfers of 1, 2, … ether sent at once; resolves with what each answer says the user sends. */
async function concurrentTransfers(nodeBatch: number): Promise<string[]> {
  const running = serve([
    '--port',
    '0',
    '--rpc',
    `ethereum/devnet=${proxy.url}`,
    '--api-key',
    KEY,
    '--threads',
    '1',
    '--node-batch',
    String(nodeBatch),
  ])
  try {
    const url = await running.ready
    expect(url, running.output().stderr).toBeTruthy()
    const transfer = buildScenarios(devnet.fixtures, []).find(
      (scenario) => scenario.name === 'native transfer',
    ) as TransactionScenario
    const user = transfer.request.userAccount.toLowerCase()
    posts = []
    const answers = await Promise.all(
      Array.from({ length: SCANS }, (_, index) => {
        const tx = { ...transfer.request.txObjects[0], value: parseEther(String(index + 1)).toString() }
        return post(
          `${url}/ethereum/v0/devnet/scan/transactions`,
          { ...transfer.request, txObjects: [tx] },
          { 'X-Api-Key': KEY },
        )
      }),
    )
    return answers.map((answer) => {
      expect(answer.status).toBe(200)
      return (answer.body as Body).simulationResults.aggregated.expectedStateChanges[user]?.[0]?.humanReadableDiff ?? ''
    })
  } finally {
    stop(running.child)
    await running.exited
  }
}

describe('node calls of concurrent scans', () => {
  const sent = Array.from({ length: SCANS }, (_, index) => `Send ${index + 1} ETH`)

  it('travel in batches of at most --node-batch calls, each scan answered with its own transaction', async () => {
    expect(await concurrentTransfers(3)).toEqual(sent)
    expect(Math.max(...posts)).toBeLessThanOrEqual(3)
    expect(posts.reduce((sum, calls) => sum + calls, 0)).toBe(SCANS)
  })

  it('reach a node that refuses batches: each refused call goes again alone and every scan is answered', async () => {
    refuseBatches = true
    try {
      expect(await concurrentTransfers(3)).toEqual(sent)
    } finally {
      refuseBatches = false
    }
    // Batches sent before the first refusal came back are refused too; each of their calls then goes once, alone.
    expect(posts.filter((calls) => calls === 1)).toHaveLength(SCANS)
  })

  it('travel one per POST with --node-batch 1', async () => {
    expect(await concurrentTransfers(1)).toEqual(sent)
    expect(posts).toEqual(Array.from({ length: SCANS }, () => 1))
  })

  it('are refused at start with a batch size that is not a positive integer, naming the flag', async () => {
    const zero = serve(['--port', '0', '--rpc', `ethereum/devnet=${proxy.url}`, '--api-key', KEY, '--node-batch', '0'])
    expect(await zero.exited).toBe(2)
    expect(zero.output().stderr).toContain('--node-batch must be an integer of at least 1, got "0"')
  })
})
