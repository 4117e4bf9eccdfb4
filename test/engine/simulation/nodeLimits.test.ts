/**
 * The engine's eth_simulateV1 requests stay within what geth and reth accept: scans run through a proxy in front of
 * the devnet that refuses a request the way they would (test/support/simulateRules.ts), and each must come back as it
 * does from anvil directly.
 */
import { type Address, createPublicClient, createTestClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { v2SwapEthForTokens } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { scanMessage, scanTransactions } from '../../../src/engine/index.ts'
import { buildScenarios } from '../../bench/scenarios.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { type RpcStandIn, serveJsonRpc } from '../../support/net.ts'
import { GETH_DEFAULTS, startRuleKeepingNode } from '../../support/simulateRules.ts'
import { buyWithFeeRouter, launchTaxedToken } from '../../support/taxedTokens.ts'

/**
 * A contract whose `spend(uint256)` (selector 0x815b8ab4) burns about that much gas: from execution-apis
 * tests/eth_simulateV1/ethSimulate-run-out-of-gas-in-block-38015.io (commit 033ca6e), the spec's own gas burner.
 */
const GAS_BURNER_CODE: Hex =
  '0x608060405234801561001057600080fd5b506004361061002b5760003560e01c8063815b8ab414610030575b600080fd5b61004a600480360381019061004591906100b6565b61004c565b005b60005a90505b60011561007657815a826100669190610112565b106100715750610078565b610052565b505b50565b600080fd5b6000819050919050565b61009381610080565b811461009e57600080fd5b50565b6000813590506100b08161008a565b92915050565b6000602082840312156100cc576100cb61007b565b5b60006100da848285016100a1565b91505092915050565b7f4e487b7100000000000000000000000000000000000000000000000000000000600052601160045260246000fd5b600061011d82610080565b915061012883610080565b92508282039050818111156101405761013f6100e3565b5b9291505056fea2646970667358221220a659ba4db729a6ee4db02fcc5c1118db53246b0e5e686534fc9add6f2e93faec64736f6c63430008120033'

/** Where the tests place the gas burner. */
const BURNER: Address = '0x00000000000000000000000000000000000b0e55'

/** Calldata for the burner to burn about `gas` gas. */
const spend = (gas: number): Hex => `0x815b8ab4${gas.toString(16).padStart(64, '0')}`

let devnet: Devnet
let node: RpcStandIn & { refusals: { code: number; message: string }[] }

beforeAll(async () => {
  devnet = await startTestDevnet()
  const block = await createPublicClient({ transport: http(devnet.fixtures.rpcUrl) }).getBlock()
  node = await startRuleKeepingNode(devnet.fixtures.rpcUrl, { ...GETH_DEFAULTS, gasLimit: block.gasLimit })
  const anvil = createTestClient({ mode: 'anvil', transport: http(devnet.fixtures.rpcUrl) })
  await anvil.setCode({ address: BURNER, bytecode: GAS_BURNER_CODE })
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

  it('a swap declaring 29,000,000 gas: the reads still run in its block, ahead of it, and it concludes as with 300,000', async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[0]?.address as Address
    const tx = v2SwapEthForTokens(fixtures, user, fixtures.erc20.address, parseEther('1'))
    const request = (gas: number) => ({
      txObjects: [{ from: tx.from, to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0).toString(), gas: `${gas}` }],
      userAccount: user,
      metadata: { origin: 'https://app.uniswap.org' },
    })
    const sent: number[][] = []
    const counting = await serveJsonRpc(async (body, res) => {
      for (const one of [JSON.parse(body)].flat() as { method: string; params: unknown[] }[]) {
        if (one.method !== 'eth_simulateV1') continue
        const blocks = (one.params[0] as { blockStateCalls: { calls: unknown[] }[] }).blockStateCalls
        sent.push(blocks.map((block) => block.calls.length))
      }
      const answer = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.setHeader('content-type', 'application/json')
      res.end(await answer.text())
    })
    try {
      const roomy = verdict(
        await scanTransactions(request(300_000), { rpcUrl: counting.url, chainId: fixtures.chainId }),
      )
      const roomyBlocks = sent.splice(0)
      const full = verdict(
        await scanTransactions(request(29_000_000), { rpcUrl: counting.url, chainId: fixtures.chainId }),
      )
      expect(node.refusals).toEqual([])
      expect(full).toEqual(roomy)
      // 300,000 gas leaves room for every read ahead of the swap: one block, then the reads after.
      expect(roomyBlocks.map((blocks) => blocks.length)).toEqual([2])
      // 29,000,000 leaves 1,000,000 beside it: the reads share that, or the swap declares less, but none takes a block
      // before the swap's, which would run it a block later than the chain mines it.
      expect(sent).toEqual(roomyBlocks)
    } finally {
      await counting.close()
    }
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

  it('three transactions of 12,000,000 gas each, more than one 30,000,000 block holds, all run as they would on chain (a block each, once one block ran the third out of gas)', async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[0]?.address as Address
    const tx = { from: user, to: BURNER, data: spend(12_000_000), value: '0' }
    const request = { txObjects: [tx, tx, tx], userAccount: user, metadata: { origin: 'https://app.example.org' } }
    const earlier = node.refusals.length
    const kept = conclusions(await scanTransactions(request, { rpcUrl: node.url, chainId: fixtures.chainId }))
    // Only the first try, all in one block as a bundle is mined, runs one out of the block's gas: then a block each.
    expect(node.refusals.slice(earlier).map((refusal) => refusal.code)).toEqual([-32015])
    expect(kept.simulationResults.perTransaction.map((result) => result.error)).toEqual([null, null, null])
  })

  it('a buy after 30,000,000 gas of other transactions: the sell probe replays each in a block of its own, as geth runs them', async () => {
    const { fixtures } = devnet
    const user = fixtures.accounts[1]?.address as Address
    const token = await launchTaxedToken(fixtures, fixtures.accounts[5]?.address as Address, 'FEE2', {
      buyTax: 200n,
      sellTax: 200n,
    })
    const buy = buyWithFeeRouter(fixtures, user, token.address, parseEther('1'))
    // 15,021,966 and 14,921,966 gas: together they leave less than a swap needs in one 30,000,000 block.
    const burn = (gas: number) => ({ from: user, to: BURNER, data: spend(gas), value: '0' })
    const request = {
      txObjects: [burn(15_000_000), burn(14_900_000), { ...buy, value: BigInt(buy.value ?? 0).toString() }],
      userAccount: user,
      metadata: { origin: 'https://app.example.org' },
    }
    const earlier = node.refusals.length
    const kept = conclusions(await scanTransactions(request, { rpcUrl: node.url, chainId: fixtures.chainId }))
    // Only the first try, all in one block as a bundle is mined (the reads ahead of them using some of it), runs the
    // second burn and the buy out of the block's gas: then a block each, where none runs out.
    expect(node.refusals.slice(earlier).map((refusal) => refusal.code)).toEqual([-32015, -32015])
    expect(kept.simulationResults.perTransaction.map((result) => result.error)).toEqual([null, null, null])
    expect(kept.warnings.filter((warning) => warning.kind === 'TOKEN_CANNOT_BE_SOLD')).toEqual([])
  })
})
