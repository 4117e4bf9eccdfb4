/**
 * Counterfeit tokens: one that takes a listed token's symbol from another address is called out when it is received,
 * in a transaction and in a signed order alike; against the devnet, scanned as mainnet (chain 1), whose list names
 * the real USDC, the devnet's own "USDC" is such a copy.
 */
import { type Address, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import type { AssetChange } from '../../../src/engine/assets/index.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { counterfeitWarnings } from '../../../src/engine/risk/index.ts'
import type { TokenMetadata } from '../../../src/engine/simulation/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'

const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const FAKE: Address = '0x00000000000000000000000000000000000fa4e0'
const REAL_USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const metadata = (symbol: string): TokenMetadata => ({ name: symbol, symbol, decimals: 6, is1155: false })
const receipt = (token: Address, before: bigint, after: bigint, account = USER): AssetChange => ({
  type: 'transfer',
  account,
  asset: { standard: 'ERC20', token },
  before,
  after,
  counterparty: null,
})

describe('counterfeitWarnings', () => {
  it('calls out a received token that copies a listed symbol (any case) from another address', () => {
    const [warning, ...rest] = counterfeitWarnings(1, [receipt(FAKE, 0n, 10n)], USER, () => metadata('usdc'))
    expect(rest).toEqual([])
    expect(warning).toMatchObject({
      kind: 'SUSPECTED_MALICIOUS',
      severity: 'WARNING',
      data: { token: FAKE, impersonates: REAL_USDC.toLowerCase() },
    })
    expect(warning?.message).toContain('is not USDCoin')
  })

  it('says nothing of the listed token itself, of a symbol no listed token has, of what leaves, or of others', () => {
    const usdc = () => metadata('USDC')
    expect(counterfeitWarnings(1, [receipt(REAL_USDC, 0n, 10n)], USER, usdc)).toEqual([])
    expect(counterfeitWarnings(1, [receipt(FAKE, 0n, 10n)], USER, () => metadata('MYTOKEN'))).toEqual([])
    expect(counterfeitWarnings(1, [receipt(FAKE, 10n, 0n)], USER, usdc)).toEqual([])
    expect(counterfeitWarnings(1, [receipt(FAKE, 0n, 10n, REAL_USDC)], USER, usdc)).toEqual([])
    // The devnet's chain has no list: nothing counts as a copy there.
    expect(counterfeitWarnings(31337, [receipt(FAKE, 0n, 10n)], USER, usdc)).toEqual([])
  })
})

describe('a counterfeit received in a transaction', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(() => devnet?.stop())

  it('the devnet "USDC", scanned as mainnet, received by the user → SUSPECTED_MALICIOUS, WARN', async () => {
    const { fixtures } = devnet
    // Account 0 holds the devnet's USDC and pays account 1, the user.
    const sender = fixtures.accounts[0]?.address as Address
    const user = fixtures.accounts[1]?.address as Address
    const pay = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [user, parseUnits('1000', 6)] })
    const outcome = await scanTransactions(
      {
        txObjects: [{ from: sender, to: fixtures.erc20.address, data: pay }],
        userAccount: user,
        metadata: { origin: 'https://otc.example' },
      },
      { rpcUrl: fixtures.rpcUrl, chainId: 1 },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(outcome.response.action).toBe('WARN')
    expect(outcome.response.warnings).toContainEqual(
      expect.objectContaining({
        kind: 'SUSPECTED_MALICIOUS',
        data: { token: fixtures.erc20.address.toLowerCase(), impersonates: REAL_USDC.toLowerCase() },
      }),
    )
  })
})
