/**
 * Counterfeit tokens: one that takes a listed token's symbol from another address is called out when it is received,
 * in a transaction and in a signed order alike; against the devnet, scanned as mainnet (chain 1), whose list names
 * the real USDC, the devnet's own "USDC" is such a copy. So is a symbol written with invisible or look-alike characters
 * to read as USDC; and a token whose symbol or name hides, reverses or imitates text is suspect in its own right.
 */
import { type Address, createTestClient, encodeFunctionData, erc20Abi, http, parseAbi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import type { AssetChange } from '../../../src/engine/assets/index.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { counterfeitWarnings } from '../../../src/engine/risk/index.ts'
import type { TokenMetadata } from '../../../src/engine/simulation/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { devnetClient } from '../protocolSupport.ts'

const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const FAKE: Address = '0x00000000000000000000000000000000000fa4e0'
const REAL_USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const REAL_USDT: Address = '0xdAC17F958D2ee523a2206206994597C13D831ec7'
const REAL_APE: Address = '0x4d224452801ACEd8B2F0aebE155379bb5D594381'
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

  /**
   * A token whose symbol() answers `symbol` and name() `name` (Solidity escapes such as \u200b), minted and paid to the
   * user in one scan.
   */
  const tokenSource = (symbol: string, name: string) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Tok {
    event Transfer(address indexed from, address indexed to, uint256 value);
    mapping(address => uint256) public balanceOf;
    function name() external pure returns (string memory) { return unicode"${name}"; }
    function symbol() external pure returns (string memory) { return unicode"${symbol}"; }
    function decimals() external pure returns (uint8) { return 6; }
    function mint(address to, uint256 amount) external { balanceOf[to] += amount; emit Transfer(address(0), to, amount); }
    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount; balanceOf[to] += amount; emit Transfer(msg.sender, to, amount); return true;
    }
}`
  const tokenAbi = parseAbi([
    'function mint(address to, uint256 amount)',
    'function transfer(address to, uint256 amount)',
  ])

  async function receiveToken(token: Address, symbol: string, chainId: number, name = 'USD Coin') {
    const { fixtures } = devnet
    const anvil = createTestClient({ mode: 'anvil', transport: http(fixtures.rpcUrl) })
    await anvil.setCode({ address: token, bytecode: runtimeCode('Tok.sol', tokenSource(symbol, name), 'Tok') })
    const payer = fixtures.accounts[2]?.address as Address
    const user = fixtures.accounts[1]?.address as Address
    const amount = parseUnits('10000', 6)
    const call = (data: `0x${string}`) => ({ from: payer, to: token, data })
    const outcome = await scanTransactions(
      {
        txObjects: [
          call(encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [payer, amount] })),
          call(encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [user, amount] })),
        ],
        userAccount: user,
        metadata: { origin: 'https://otc.example' },
      },
      { rpcUrl: fixtures.rpcUrl, chainId },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    const [change] =
      outcome.response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []
    return { response: outcome.response, change }
  }

  const disguises: [string, string][] = [
    ['a zero-width space after it', 'USDC\\u200b'],
    ['a Cyrillic Es for its C', 'USD\\u0421'],
    ['a Cyrillic Dze for its S', 'U\\u0405DC'],
    ['a zero-width joiner inside', 'US\\u200dDC'],
    ['a word joiner after it', 'USDC\\u2060'],
    ['fullwidth letters', '\\uff35\\uff33\\uff24\\uff23'],
  ]
  disguises.forEach(([label, symbol], index) => {
    it(`a symbol written as USDC with ${label}, scanned as mainnet → the counterfeit warning, saying how`, async () => {
      const token = `0x00000000000000000000000000000000000c01${index.toString(16).padStart(2, '0')}` as Address
      const { response, change } = await receiveToken(token, symbol, 1)
      expect(response.action).toBe('WARN')
      const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
      expect(warning?.data).toEqual({ token, impersonates: REAL_USDC.toLowerCase() })
      expect(warning?.message).toContain('This one writes its symbol or name with')
      expect(change?.humanReadableDiff).not.toMatch(/[\u200b-\u200f\u2060]/)
    })
  })

  it('a symbol reversed by a bidi override: nothing hidden reaches the API, and the token is suspect', async () => {
    const token: Address = '0x00000000000000000000000000000000000c0200'
    // RLO + "CDSU" displays as "USDC" wherever the text is drawn.
    const { response, change } = await receiveToken(token, '\\u202eCDSU', 1)
    expect(change?.humanReadableDiff).toBe('Receive 10,000 CDSU')
    expect(change?.rawInfo.data).toMatchObject({ asset: { symbol: 'CDSU' } })
    expect(response.action).toBe('WARN')
    expect(response.warnings).toContainEqual(
      expect.objectContaining({
        kind: 'SUSPECTED_MALICIOUS',
        severity: 'WARNING',
        data: { token },
        message: expect.stringContaining('invisible characters, or ones that reverse the text around them'),
      }),
    )
  })

  it('a symbol carrying a dollar amount and a check mark: shown without them, and the token is suspect', async () => {
    const token: Address = '0x00000000000000000000000000000000000c0300'
    const { response, change } = await receiveToken(token, 'USDC  \\u2248 $25,000.00 \\u2714 verified', 31337)
    expect(change?.humanReadableDiff).toBe('Receive 10,000 USDC25000.00verified')
    expect(response.warnings).toContainEqual(
      expect.objectContaining({
        kind: 'SUSPECTED_MALICIOUS',
        data: { token },
        message: expect.stringContaining('"≈"'),
      }),
    )
  })
  /** Sends what receiveToken scanned (the payer mints and pays the user) and returns what the user's balance gained. */
  async function executeReceipt(token: Address): Promise<bigint> {
    const { fixtures } = devnet
    const client = devnetClient(fixtures.rpcUrl)
    const payer = fixtures.accounts[2]?.address as Address
    const user = fixtures.accounts[1]?.address as Address
    const amount = parseUnits('10000', 6)
    const balance = () =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [user] })
    const before = await balance()
    for (const data of [
      encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [payer, amount] }),
      encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [user, amount] }),
    ]) {
      const hash = await client.sendTransaction({ account: payer, to: token, data, chain: null })
      expect((await waitForReceipt(client, hash)).status).toBe('success')
    }
    return (await balance()) - before
  }

  const honest: [string, string, string][] = [
    ["Tether's USD₮0 (USDT0's own symbol on Arbitrum)", 'USD\\u20ae0', 'USD\\u20ae0'],
    ['an emoji drawn with its presentation selector', 'LOVE\\u2764\\ufe0f', 'Love \\u2764\\ufe0f'],
    ['an emoji sequence joined by zero-width joiners', 'MOON', 'Astronaut \u{1f9d1}\\u200d\u{1f680}'],
    ['a trademark sign', 'ACME', 'Acme\\u2122'],
    ['a Japanese name', 'DOGE', '\\u30c9\\u30fc\\u30b8\\u30b3\\u30a4\\u30f3'],
  ]
  honest.forEach(([label, symbol, name], index) => {
    it(`honest token text, ${label}, scanned as mainnet: NONE, shown as written, received as claimed`, async () => {
      const token = `0x00000000000000000000000000000000000c04${index.toString(16).padStart(2, '0')}` as Address
      const { response, change } = await receiveToken(token, symbol, 1, name)
      expect(response.warnings).toEqual([])
      expect(response.action).toBe('NONE')
      const shown = JSON.parse(`"${symbol}"`) as string
      expect(change?.humanReadableDiff).toBe(`Receive 10,000 ${shown}`)
      const raw = change?.rawInfo
      if (raw?.kind !== 'ERC20_TRANSFER') throw new Error('no ERC-20 receipt')
      expect(await executeReceipt(token)).toBe(BigInt(raw.data.amount.after) - BigInt(raw.data.amount.before))
    })
  })

  it('a copy of APE written with the emoji 🅰 (🅰PE), scanned as mainnet → the counterfeit warning', async () => {
    const token: Address = '0x00000000000000000000000000000000000c0600'
    const { response, change } = await receiveToken(token, '\\xf0\\x9f\\x85\\xb0PE', 1, 'ApeCoin')
    expect(change?.humanReadableDiff).toBe('Receive 10,000 \u{1f170}PE')
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.data).toEqual({ token, impersonates: REAL_APE.toLowerCase() })
  })

  it('a copy of USDT written with Tether\'s own "₮" (USD₮), scanned as mainnet → the counterfeit warning', async () => {
    const token: Address = '0x00000000000000000000000000000000000c0500'
    const { response } = await receiveToken(token, 'USD\\u20ae', 1, 'Tether USD')
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.data).toEqual({ token, impersonates: REAL_USDT.toLowerCase() })
  })
})
