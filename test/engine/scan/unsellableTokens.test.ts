/**
 * Buying a token that cannot be sold back (a honeypot), or only at a heavy tax: each fixture token (TaxedToken, in
 * test/support/taxedTokens.ts) is given a real Uniswap V2 pair with liquidity through the devnet's router, and bought
 * through swapExactETHForTokensSupportingFeeOnTransferTokens. The scan's sell probe must warn for two honeypots (sales
 * to the pair refused, buyers blacklisted), the 40 % sell tax and the 25 % buy tax, and stay silent for a 2 % tax and
 * for listed USDC. Then reality: the buy is executed and sold through the real router, and the honeypots' sales revert
 * while the heavy tax's pays exactly what the scan said.
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { sendEth, type TxRequest, transferErc20 } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE } from '../../../src/devnet/dapp/uniswap.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { PROBE_TIMEOUT_MS } from '../../../src/engine/simulation/runSimulation.ts'
import { SELL_PROBE_CODE } from '../../../src/engine/simulation/sellProbe.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import {
  buyWithFeeRouter,
  feeRouterAbi,
  launchTaxedToken,
  type TaxedToken,
  type Taxes,
} from '../../support/taxedTokens.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const account = (index: number) => fx().accounts[index]?.address as Address
const maker = () => account(5)
const buyer = () => account(1)
const client = () => devnetClient(fx().rpcUrl)

/** Text only the sell probe's request carries: the end of its code (its address is new every time). */
const PROBE_MARK = SELL_PROBE_CODE.slice(-64)

const tokens: Record<
  'honeypot' | 'sameRandomness' | 'blacklist' | 'heavySellTax' | 'heavyBuyTax' | 'smallTax' | 'selfTax',
  TaxedToken
> = {} as never
const launch = (symbol: string, taxes: Taxes) => launchTaxedToken(fx(), maker(), symbol, taxes)

beforeAll(async () => {
  tokens.honeypot = await launch('HONEY', { sellsRefused: true })
  tokens.sameRandomness = await launch('SAME', { sellsOnlyInBuysRandomness: true })
  tokens.blacklist = await launch('TRAP', { blacklistsBuyers: true })
  tokens.heavySellTax = await launch('TAX40', { sellTax: 4_000n })
  tokens.heavyBuyTax = await launch('BUY25', { buyTax: 2_500n })
  tokens.smallTax = await launch('FEE2', { buyTax: 200n, sellTax: 200n })
  tokens.selfTax = await launch('KEEP2', { buyTax: 200n, sellTax: 200n, taxToSelf: true })
}, 120_000)

/** The buyer's purchase of `token` for `value` wei. */
const buy = (token: Address, value: bigint) => buyWithFeeRouter(fx(), buyer(), token, value)

async function scan(tx: TxRequest, fetch?: typeof globalThis.fetch) {
  const { outcome, stats } = await scanTransactionsWithStats(scanRequest(tx), {
    rpcUrl: fx().rpcUrl,
    chainId: 31337,
    fetch,
  })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  validateTransactionsResponse(outcome.response)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

const unsellable = (response: ScanTransactionsResponse) =>
  response.warnings.filter((warning) => warning.kind === 'TOKEN_CANNOT_BE_SOLD')
const dataOf = (warning: Warning | undefined) => warning?.data as Record<string, unknown>
const short = (address: Address) => `${address.toLowerCase().slice(0, 6)}…${address.toLowerCase().slice(-4)}`

/** The buyer approves the router and sells `amount` of `token` for ETH through it: the ETH it paid, gas aside, or the revert. */
async function sellForReal(token: Address, amount: bigint): Promise<{ reverted: boolean; ethBack: bigint }> {
  const from = buyer()
  const { router } = fx().uniswapV2
  const approval = await client().sendTransaction({
    account: from,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
    gas: 100_000n,
    chain: null,
  })
  await waitForReceipt(client(), approval)
  const before = await client().getBalance({ address: from })
  const hash = await client().sendTransaction({
    account: from,
    to: router,
    data: encodeFunctionData({
      abi: feeRouterAbi,
      functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
      args: [amount, 0n, [token, fx().weth.address], from, DEADLINE],
    }),
    // Fixed: an estimate would refuse to send the honeypot's sale, which is what is tested.
    gas: 1_000_000n,
    chain: null,
  })
  const receipt = await waitForReceipt(client(), hash)
  const after = await client().getBalance({ address: from })
  return {
    reverted: receipt.status !== 'success',
    ethBack: after - before + receipt.gasUsed * receipt.effectiveGasPrice,
  }
}

const balanceOf = (token: Address, owner: Address) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('buying a token that cannot be sold back, on the devnet', () => {
  it('a honeypot (sells to its pair refused): TOKEN_CANNOT_BE_SOLD, WARN; executed, the real sale reverts', async () => {
    const { address, pair } = tokens.honeypot
    const tx = buy(address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    // The first scan of a new token needs its metadata (the second call); the probe travels in the same batch.
    expect(roundTrips).toBe(2)
    expect(response.action).toBe('WARN')
    const [warning, ...others] = unsellable(response)
    expect(others).toEqual([])
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toBe(
      `You may not be able to sell HONEY (${short(address)}): selling it back to the pool it came from ` +
        `(${short(pair)}) fails in the simulation.`,
    )
    expect(dataOf(warning)).toMatchObject({
      token: address.toLowerCase(),
      pool: pair.toLowerCase(),
      failure: 'TRANSFER',
    })
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect(bought.toString()).toBe(dataOf(warning).sold)
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(true)
    expect(await balanceOf(address, buyer())).toBe(bought)
  })

  it("a honeypot selling only in its last buy's randomness: WARN; executed, the real sale (a block later) reverts", async () => {
    // anvil gives every simulated block the head's randomness, geth zero: the probe's sale, blocks after its replay of
    // the buy, went through there, and the scan said nothing.
    const { address } = tokens.sameRandomness
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    expect(dataOf(unsellable(response)[0])).toMatchObject({ token: address.toLowerCase(), failure: 'TRANSFER' })
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect((await sellForReal(address, bought)).reverted).toBe(true)
    expect(await balanceOf(address, buyer())).toBe(bought)
  })

  it('a honeypot that blacklists whoever buys it: WARN; executed, the buyer can neither sell nor send it on', async () => {
    const { address, pair } = tokens.blacklist
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    expect(unsellable(response).map((warning) => warning.message)).toEqual([
      `You may not be able to sell TRAP (${short(address)}): selling it back to the pool it came from ` +
        `(${short(pair)}) fails in the simulation.`,
    ])
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect((await sellForReal(address, bought)).reverted).toBe(true)
    const sendOn = await client().sendTransaction({
      account: buyer(),
      to: address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [account(7), bought] }),
      gas: 100_000n,
      chain: null,
    })
    expect((await waitForReceipt(client(), sendOn)).status).toBe('reverted')
    expect(await balanceOf(address, buyer())).toBe(bought)
  })

  it('a 40% sell tax: WARN with the loss; executed, the real sale pays exactly what the scan said', async () => {
    const { address, pair } = tokens.heavySellTax
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    const [warning] = unsellable(response)
    const data = dataOf(warning)
    expect(data.failure).toBeNull()
    expect(data.buyTaxPercent).toBe(0)
    // A 40% tax on the tokens sent: the ETH it costs is a little less, as the untaxed sale moves the price further.
    const loss = data.sellTaxPercent as number
    expect(loss).toBeGreaterThan(38)
    expect(loss).toBeLessThanOrEqual(40)
    expect(warning?.message).toBe(
      `You may not be able to sell TAX40 (${short(address)}) for what it is worth: selling it back to the pool it ` +
        `came from (${short(pair)}) loses ${Math.round(loss)}% to the token's own tax in the simulation.`,
    )
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    expect(bought.toString()).toBe(data.sold)
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(false)
    expect(sale.ethBack.toString()).toBe(data.returned)
    // Untaxed, the same tokens would have fetched `untaxed`: the real sale lost what the scan said.
    expect(Number((sale.ethBack * 10_000n) / BigInt(data.untaxed as string)) / 100).toBeCloseTo(
      100 - (data.sellTaxPercent as number),
      1,
    )
  })

  it('a 25% buy tax: WARN, read from the buy itself (the pool sends more than the buyer gets)', async () => {
    const { address } = tokens.heavyBuyTax
    const tx = buy(address, parseEther('1'))
    const { response } = await scan(tx)
    expect(response.action).toBe('WARN')
    const [warning] = unsellable(response)
    expect(warning?.message).toMatch(
      new RegExp(
        `^BUY25 \\(${short(address)}\\) keeps 25% of this buy as its own tax: the pool sends [\\d,.]+ BUY25 and you receive [\\d,.]+ BUY25\\.$`,
      ),
    )
    const data = dataOf(warning)
    expect(data).toMatchObject({ failure: null, buyTaxPercent: 25, sellTaxPercent: 0 })
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    expect(executed.get(`${buyer().toLowerCase()}|${address.toLowerCase()}`)?.toString()).toBe(data.sold)
  })

  it('a 2% tax each way: NONE; executed, the real sale loses about 2%', async () => {
    const { address } = tokens.smallTax
    const tx = buy(address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(2)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, response, tx)
    const bought = await balanceOf(address, buyer())
    const [, untaxed] = await client().readContract({
      address: fx().uniswapV2.router,
      abi: feeRouterAbi,
      functionName: 'getAmountsOut',
      args: [bought, [address, fx().weth.address]],
    })
    const sale = await sellForReal(address, bought)
    expect(sale.reverted).toBe(false)
    expect(Number((sale.ethBack * 10_000n) / (untaxed as bigint)) / 100).toBeCloseTo(98, 0)
  })

  it('buying listed USDC through the same router function: NONE, one round trip (no probe)', async () => {
    const tx = buy(fx().erc20.address, parseEther('1'))
    const { response, roundTrips } = await scan(tx)
    expect(roundTrips).toBe(1)
    expect(response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, response, tx)
  })

  it('plain transfers cost one round trip: ETH, and USDC', async () => {
    expect((await scan(sendEth(fx(), buyer()))).roundTrips).toBe(1)
    expect((await scan(transferErc20(fx(), buyer()))).roundTrips).toBe(1)
  })

  it('a second scan of a known token: the probe is the only extra round trip', async () => {
    const tx = buy(tokens.heavySellTax.address, parseEther('1'))
    await scan(tx)
    const again = await scan(tx)
    expect(again.roundTrips).toBe(2)
    expect(unsellable(again.response)).toHaveLength(1)
  })

  it('a node that fails the probe: the scan answers as without it, no warning, no error', async () => {
    const failingProbe: typeof globalThis.fetch = async (url, init) => {
      const body = JSON.parse(String(init?.body))
      const calls: { id: number; method: string; params: unknown[] }[] = Array.isArray(body) ? body : [body]
      const isProbe = (call: (typeof calls)[number]) =>
        call.method === 'eth_simulateV1' && JSON.stringify(call.params).includes(PROBE_MARK)
      const forwarded = calls.filter((call) => !isProbe(call))
      const refused = calls
        .filter(isProbe)
        .map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'header not found' } }))
      const answers = forwarded.length
        ? await (await globalThis.fetch(url, { ...init, body: JSON.stringify(forwarded) })).json()
        : []
      const all = [...answers, ...refused]
      return new Response(JSON.stringify(Array.isArray(body) ? all : all[0]), {
        headers: { 'content-type': 'application/json' },
      })
    }
    const { response } = await scan(buy(tokens.honeypot.address, parseEther('1')), failingProbe)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.perTransaction[0]?.error).toBeNull()
  })

  it('a node that never answers the probe: the scan answers without it after PROBE_TIMEOUT_MS, not its 30 s', async () => {
    const tx = buy(tokens.honeypot.address, parseEther('1'))
    // Scanned once, the token's metadata is known: the next scan's probe travels alone, so it alone can hang.
    expect(unsellable((await scan(tx)).response)).toHaveLength(1)
    const stuckProbe: typeof globalThis.fetch = (url, init) => {
      if (!String(init?.body).includes(PROBE_MARK)) return globalThis.fetch(url, init)
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
    }
    const started = performance.now()
    const { response } = await scan(tx, stuckProbe)
    const elapsed = performance.now() - started
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(elapsed).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS)
    // Well inside a scan API's 20 s scan timeout, which the RPC client's own 30 s would have passed.
    expect(elapsed).toBeLessThan(15_000)
  }, 30_000)
})

describe("tokens sent to the token's own contract", () => {
  const sellTx = (token: Address, amount: bigint): TxRequest => ({
    from: buyer(),
    to: fx().uniswapV2.router,
    data: encodeFunctionData({
      abi: feeRouterAbi,
      functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
      args: [amount, 0n, [token, fx().weth.address], buyer(), DEADLINE],
    }),
    value: '0x0',
  })
  const ownContract = (response: ScanTransactionsResponse) =>
    response.warnings.filter((warning) => warning.kind === 'TRANSFERRING_ERC20_TO_OWN_CONTRACT')

  it('USDC sent to the USDC contract (account 0 holds USDC): WARN; executed, the contract holds it', async () => {
    const usdc = fx().erc20.address
    const tx: TxRequest = {
      from: account(0),
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [usdc, 5_000_000n] }),
      value: '0x0',
    }
    const held = await balanceOf(usdc, usdc)
    const { response } = await scan(tx)
    expect(ownContract(response)).toHaveLength(1)
    expect(response.action).toBe('WARN')
    await expectRealityMatches(fx().rpcUrl, response, tx)
    expect(await balanceOf(usdc, usdc)).toBe(held + 5_000_000n)
  })

  it('a 2% tax the token keeps in its own contract: no warning on the buy or the sale, though the contract keeps it', async () => {
    const { address } = tokens.selfTax
    const bought = await scan(buy(address, parseEther('1')))
    expect(bought.response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, bought.response, buy(address, parseEther('1')))
    const amount = await balanceOf(address, buyer())
    const taxedOnBuy = await balanceOf(address, address)
    expect(taxedOnBuy).toBeGreaterThan(0n)
    const approval = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, maxUint256],
    })
    await waitForReceipt(
      client(),
      await client().sendTransaction({ account: buyer(), to: address, data: approval, chain: null }),
    )
    const { response } = await scan(sellTx(address, amount))
    expect(ownContract(response)).toEqual([])
    expect(response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, response, sellTx(address, amount))
    expect(await balanceOf(address, address)).toBe(taxedOnBuy + (amount * 200n) / 10_000n)
  })
})
