/**
 * The probe the sell check places to sell a bought token back to its pool: its committed runtime code is its source
 * compiled, and the buys it is asked about are found from the movements alone (a pool's net outflow to a user who
 * gives something back).
 */
import { readFileSync } from 'node:fs'
import { type Address, getAddress, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { NO_TRAFFIC, type RpcClient, RpcFailure } from '../../../src/engine/simulation/rpc.ts'
import { probeSells, SELL_PROBE_CODE, sellTargets } from '../../../src/engine/simulation/sellProbe.ts'
import { declaredGasRefusal } from '../../support/simulateRules.ts'
import { INJECTED_SETTINGS, runtimeCode } from '../../support/solc.ts'
import { etherMovement, tokenMovement } from '../movementSupport.ts'

const SOURCE = new URL('../../../src/engine/simulation/SellProbe.sol', import.meta.url)
const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ROUTER: Address = '0x0000000000000000000000000000000000000a00'
const PAIR: Address = getAddress('0x0000000000000000000000000000000000000a1e')
const MEME: Address = '0x000000000000000000000000000000000000e3e3'
const OTHER: Address = '0x000000000000000000000000000000000000f00d'

const eth = etherMovement
const token = tokenMovement
const anyToken = () => true

describe('SellProbe', () => {
  it('is SellProbe.sol compiled (solc 0.8.28, optimizer 200, evm paris, no metadata)', () => {
    const source = readFileSync(SOURCE, 'utf8')
    expect(runtimeCode('SellProbe.sol', source, 'SellProbe', INJECTED_SETTINGS)).toBe(SELL_PROBE_CODE)
  }, 60_000)
})

describe('sellTargets', () => {
  it('a buy: the pair that sent the token, what it sent and what the user kept (a 2% buy tax kept by the token)', () => {
    const movements = [eth(USER, ROUTER, 10n), token(MEME, PAIR, USER, 98n), token(MEME, PAIR, MEME, 2n)]
    expect(sellTargets(movements, USER, anyToken)).toEqual([{ token: MEME, pool: PAIR, poolSent: 100n, amount: 98n }])
  })

  it('a token passed on by a router: the pool is the net sender, not the router', () => {
    const movements = [token(OTHER, USER, PAIR, 5n), token(MEME, PAIR, ROUTER, 100n), token(MEME, ROUTER, USER, 100n)]
    expect(sellTargets(movements, USER, anyToken)).toEqual([{ token: MEME, pool: PAIR, poolSent: 100n, amount: 100n }])
  })

  it('nothing for a gift (the user gives nothing), a mint, a token not worth probing, or a sale', () => {
    expect(sellTargets([token(MEME, PAIR, USER, 100n)], USER, anyToken)).toEqual([])
    expect(sellTargets([eth(USER, MEME, 1n), token(MEME, zeroAddress, USER, 100n)], USER, anyToken)).toEqual([])
    expect(sellTargets([eth(USER, ROUTER, 1n), token(MEME, PAIR, USER, 100n)], USER, () => false)).toEqual([])
    expect(sellTargets([token(MEME, USER, PAIR, 100n), eth(PAIR, USER, 1n)], USER, anyToken)).toEqual([])
  })
})

describe('probeSells', () => {
  it('sells back 11 tokens in blocks that each declare at most 30,000,000 gas (reth before v2.3.0 refuses more)', async () => {
    const targets = Array.from({ length: 11 }, (_, index) => ({
      token: getAddress(`0x${(0xe000 + index).toString(16).padStart(40, '0')}`),
      pool: PAIR,
      poolSent: 100n,
      amount: 98n,
    }))
    // A node keeping reth's rule over a 30,000,000 block: every call it runs succeeds and returns nothing.
    const client: RpcClient = {
      stats: NO_TRAFFIC,
      request: async (_method, params) => {
        const { blockStateCalls } = params[0] as { blockStateCalls: { calls: { gas?: string }[] }[] }
        const refusal = declaredGasRefusal(blockStateCalls, 30_000_000n)
        if (refusal) throw new RpcFailure('REJECTED', refusal.message, refusal.code, refusal.message)
        return blockStateCalls.map((block) => ({
          calls: block.calls.map(() => ({ status: '0x1', returnData: '0x', gasUsed: '0x5208', logs: [] })),
        }))
      },
    }
    const probes = await probeSells(client, { stateOverrides: {}, calls: [] }, targets, USER, 'latest', 'oneBlock')
    expect(probes.map((probe) => [probe.token, probe.transfer])).toEqual(targets.map((target) => [target.token, 'ok']))
  })
})
