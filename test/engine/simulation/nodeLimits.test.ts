/**
 * The engine's eth_simulateV1 requests stay within what geth and reth accept: scans run through a proxy in front of
 * the devnet that refuses a request the way they would (test/support/simulateRules.ts), and each must come back as it
 * does from anvil directly.
 */
import { type Address, createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { v2SwapEthForTokens } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { scanMessage, scanTransactions } from '../../../src/engine/index.ts'
import { buildScenarios } from '../../bench/scenarios.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import type { RpcStandIn } from '../../support/net.ts'
import { GETH_DEFAULTS, startRuleKeepingNode } from '../../support/simulateRules.ts'

let devnet: Devnet
let node: RpcStandIn & { refusals: { code: number; message: string }[] }

beforeAll(async () => {
  devnet = await startTestDevnet()
  const block = await createPublicClient({ transport: http(devnet.fixtures.rpcUrl) }).getBlock()
  node = await startRuleKeepingNode(devnet.fixtures.rpcUrl, { ...GETH_DEFAULTS, gasLimit: block.gasLimit })
})
afterAll(async () => {
  await node?.close()
  await devnet?.stop()
})

/** The parts of a response that do not change from one scan to the next (requestId does). */
function conclusions(outcome: Awaited<ReturnType<typeof scanTransactions>>) {
  if (!outcome.ok) throw new Error(`scan failed: ${outcome.error.message}`)
  const { requestId: _, ...rest } = outcome.response
  return rest
}

/**
 * What a scan concludes: its action, warnings and changes (or its error). Calldata the preset rewrites is left out:
 * the preset's signers are drawn at random for each scan.
 */
function verdict(outcome: { ok: boolean; response?: object; error?: object }) {
  if (!outcome.ok || !outcome.response) return outcome
  const response = outcome.response as {
    action: string
    warnings: unknown[]
    simulationResults: { aggregated?: unknown; expectedStateChanges?: unknown; error?: unknown }
  }
  const results = response.simulationResults
  return {
    action: response.action,
    warnings: response.warnings,
    changes: results.aggregated ?? { changes: results.expectedStateChanges, error: results.error },
  }
}

describe('a scan through a node that keeps geth’s and reth’s limits', () => {
  it('a Uniswap swap, whose 43 reads declared 43,000,000 gas in one block, is accepted and concludes the same', async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[0]?.address as Address
    const tx = v2SwapEthForTokens(fixtures, user, fixtures.erc20.address, parseEther('1'))
    const request = {
      txObjects: [{ from: tx.from, to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0).toString() }],
      userAccount: user,
      metadata: { origin: 'https://app.uniswap.org' },
    }
    const direct = conclusions(await scanTransactions(request, { rpcUrl: fixtures.rpcUrl }))
    const kept = conclusions(await scanTransactions(request, { rpcUrl: node.url, chainId: fixtures.chainId }))
    expect(node.refusals).toEqual([])
    expect(kept.simulationResults.aggregated.error).toBeNull()
    expect(kept).toEqual(direct)
  })

  it('every benchmark scenario (transfers, a Safe execTransaction under the preset, permits, Safe messages) is accepted and concludes the same', async () => {
    const { fixtures } = devnet
    for (const scenario of buildScenarios(fixtures, [])) {
      const scan = (rpcUrl: string) =>
        scenario.kind === 'transactions'
          ? scanTransactions(scenario.request, { rpcUrl, chainId: fixtures.chainId })
          : scanMessage(scenario.request(0), { rpcUrl, chainId: fixtures.chainId })
      const direct = verdict(await scan(fixtures.rpcUrl))
      const kept = verdict(await scan(node.url))
      expect({ scenario: scenario.name, refusals: node.refusals }).toEqual({ scenario: scenario.name, refusals: [] })
      expect({ scenario: scenario.name, kept }).toEqual({ scenario: scenario.name, kept: direct })
    }
  })
})
