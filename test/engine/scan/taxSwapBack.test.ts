/**
 * Selling a memecoin that swaps its collected tax back to ether during the sale, as most taxed tokens on Uniswap V2 do:
 * the token keeps 5 % of each buy and sale in its own contract and, on a holder's sale, first sells all it has gathered
 * through the same pool for ether paid to its team. When the holder sells less than the contract has gathered, most of
 * the pool's ether goes to the team, bought with the token's own tokens: no misdirection of the holder's proceeds.
 * A phishing page that sends the same holder's proceeds to another address still warns. Each scan is executed.
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE } from '../../../src/devnet/dapp/uniswap.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { buyWithFeeRouter, feeRouterAbi, launchTaxedToken, type TaxedToken } from '../../support/taxedTokens.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const account = (index: number) => fx().accounts[index]?.address as Address
const team = () => account(5)
const holder = () => account(1)
const PHISHER: Address = '0x000000000000000000000000000000000000baad'
const client = () => devnetClient(fx().rpcUrl)

let token: TaxedToken

beforeAll(async () => {
  token = await launchTaxedToken(fx(), team(), 'BACK5', {
    buyTax: 500n,
    sellTax: 500n,
    taxToSelf: true,
    swapBackAt: parseEther('1000'),
  })
}, 120_000)

async function send(tx: TxRequest): Promise<void> {
  const hash = await client().sendTransaction({
    account: tx.from,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value ?? 0),
    gas: 1_000_000n,
    chain: null,
  })
  expect((await waitForReceipt(client(), hash)).status).toBe('success')
}

async function scan(tx: TxRequest): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(scanRequest(tx), { rpcUrl: fx().rpcUrl, chainId: 31337 })
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** The holder buys for 1 ETH (the contract gathers 5 % of it, past its 1,000-token mark) and approves the router. */
async function holderWithTaxGathered(): Promise<void> {
  await send(buyWithFeeRouter(fx(), holder(), token.address, parseEther('1')))
  const approve = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'approve',
    args: [fx().uniswapV2.router, maxUint256],
  })
  await send({ from: holder(), to: token.address, data: approve })
  const gathered = await client().readContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [token.address],
  })
  expect(gathered > parseEther('1000')).toBe(true)
}

const sale = (amount: bigint, to: Address): TxRequest => ({
  from: holder(),
  to: fx().uniswapV2.router,
  data: encodeFunctionData({
    abi: feeRouterAbi,
    functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
    args: [amount, 0n, [token.address, fx().weth.address], to, DEADLINE],
  }),
})

describe('selling a token that swaps its tax back during the sale', () => {
  it('a sale of 500 BACK5 while the contract swaps its ~2,300 for the team: NONE, as executed', async () => {
    await holderWithTaxGathered()
    const tx = sale(parseEther('500'), holder())
    const response = await scan(tx)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    // The team's ether from the swap back is more than the holder's own proceeds.
    const teamGets = executed.get(`${team().toLowerCase()}|native`) ?? 0n
    const holderGets = executed.get(`${holder().toLowerCase()}|native`) ?? 0n
    expect(teamGets > holderGets && holderGets > 0n).toBe(true)
  })

  it('the same sale paying its proceeds to another address: WARN naming it, and it receives them', async () => {
    await holderWithTaxGathered()
    const tx = sale(parseEther('500'), PHISHER)
    const response = await scan(tx)
    const warning = response.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(warning?.message).toContain('0x0000…baad')
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    expect((executed.get(`${PHISHER.toLowerCase()}|native`) ?? 0n) > 0n).toBe(true)
  })

  it("a swap back bundled beside another token's sale paying the team: the other sale's proceeds still warn", async () => {
    // The team stuffs its token's contract, airdrops the holder a little, and asks for a bundle: sell that little
    // (the contract's swap back pays the team) and sell the holder's PLAIN with the team as the recipient.
    await holderWithTaxGathered()
    const stuff = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [token.address, parseEther('200000')],
    })
    await send({ from: team(), to: token.address, data: stuff })
    const plain = await launchTaxedToken(fx(), account(6), 'PLAIN', {})
    await send(buyWithFeeRouter(fx(), holder(), plain.address, parseEther('1')))
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, maxUint256],
    })
    await send({ from: holder(), to: plain.address, data: approve })
    const plainHeld = await client().readContract({
      address: plain.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder()],
    })
    const plainSale: TxRequest = {
      from: holder(),
      to: fx().uniswapV2.router,
      data: encodeFunctionData({
        abi: feeRouterAbi,
        functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
        args: [plainHeld, 0n, [plain.address, fx().weth.address], team(), DEADLINE],
      }),
    }
    const bundle = [sale(parseEther('500'), holder()), plainSale]
    const request = {
      ...scanRequest(bundle[0] as TxRequest),
      txObjects: bundle.map((tx) => ({ from: tx.from, to: tx.to, data: tx.data ?? '0x', value: '0' })),
    }
    const outcome = await scanTransactions(request, { rpcUrl: fx().rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    const warning = outcome.response.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(warning?.message).toContain(`${team().slice(0, 6).toLowerCase()}`)
    expect(outcome.response.action).not.toBe('NONE')
    // Executed: the team gets the PLAIN sale's ether on top of the swap back's.
    const before = await client().getBalance({ address: team() })
    for (const tx of bundle) await send(tx)
    const teamGets = (await client().getBalance({ address: team() })) - before
    expect(teamGets > parseEther('0.9')).toBe(true)
  })
})
