/**
 * The demo dapp in Chromium, without the extension: every button reaches the devnet through the dev wallet and does
 * what it says on chain, and each result (or error) shows in data-testid="result".
 */
import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  recoverTypedDataAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedChromium, launchChromium } from '../../src/devnet/chromium.ts'
import { safeAbi, safePermitHash, safeTransfer } from '../../src/devnet/dapp/requests.ts'
import { type DappServer, serveDapp } from '../../src/devnet/dapp/server.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { safeMessageTypedData, safeTxTypedData, type TypedData } from '../../src/devnet/eip712.ts'
import { SAFE_SCENARIOS } from '../../src/devnet/safeProposals.ts'
import { startTestDevnet } from '../support/devnet.ts'

const ownerAbi = parseAbi(['function owner() view returns (address)'])

describe('the demo dapp', () => {
  let devnet: Devnet
  let dapp: DappServer
  let browser: LaunchedChromium
  let page: Page

  const chain = () => createPublicClient({ transport: http(devnet.fixtures.rpcUrl) })
  const recipient = () => devnet.fixtures.accounts[3]?.address as Address

  beforeAll(async () => {
    devnet = await startTestDevnet()
    ;[dapp, browser] = await Promise.all([serveDapp({ port: 0, fixtures: devnet.fixtures }), launchChromium()])
    page = await browser.context.newPage()
    await page.goto(dapp.url)
    await page.waitForSelector('html[data-dapp-ready="true"]', { timeout: 30_000 })
  })
  afterAll(async () => {
    await browser?.close()
    await dapp?.close()
    await devnet?.stop()
  })

  /** Clicks a button and returns the result it shows once the wallet has answered. */
  async function click(id: string): Promise<{ status: string; text: string }> {
    await page.click(`#${id}`)
    const result = page.getByTestId('result')
    await page.waitForSelector(`[data-testid="result"][data-step="${id}"]:not([data-status="waiting"])`)
    return { status: (await result.getAttribute('data-status')) ?? '', text: (await result.textContent()) ?? '' }
  }

  /** Who made the signature a result shows ("signature 0x…") over `typed`. */
  const signerOf = (resultText: string, typed: TypedData) =>
    recoverTypedDataAddress({ ...typed, signature: resultText.split('signature ')[1] as Hex } as Parameters<
      typeof recoverTypedDataAddress
    >[0])

  it('announces the dev wallet as window.ethereum and through EIP-6963', async () => {
    const seen = await page.evaluate(() => {
      // EIP-6963 announces synchronously in answer to the request event, so the names are in once dispatch returns.
      const names: string[] = []
      window.addEventListener('eip6963:announceProvider', (event) =>
        names.push((event as CustomEvent).detail.info.name),
      )
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      return names
    })
    expect(seen).toEqual(['Devnet Wallet'])
    expect(
      await page.evaluate(
        () => (window as { ethereum?: { isPreflightDevWallet?: boolean } }).ethereum?.isPreflightDevWallet,
      ),
    ).toBe(true)
  })

  it('sends 1 ETH to dev account 3', async () => {
    const before = await chain().getBalance({ address: recipient() })
    const result = await click('send-eth')
    expect(result).toMatchObject({ status: 'ok', text: expect.stringMatching(/^send-eth: tx 0x[0-9a-f]{64}$/) })
    expect(await chain().getBalance({ address: recipient() })).toBe(before + parseEther('1'))
  })

  it("proposes a Safe transaction signed by the chosen owner over the Safe's current nonce", async () => {
    const { fixtures } = devnet
    await page.selectOption('#owner', '2')
    const result = await click('propose-safe-tx')
    expect(result.status).toBe('ok')
    const nonce = await chain().readContract({ address: fixtures.safe.address, abi: safeAbi, functionName: 'nonce' })
    const typed = safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTransfer(fixtures, nonce))
    expect(await signerOf(result.text, typed)).toBe(fixtures.safe.owners[2])
  })

  it('proposes every Safe scenario, each signed by the chosen owner over its own proposal', async () => {
    const { fixtures } = devnet
    await page.selectOption('#owner', '1')
    const nonce = await chain().readContract({ address: fixtures.safe.address, abi: safeAbi, functionName: 'nonce' })
    for (const [id, { build }] of Object.entries(SAFE_SCENARIOS)) {
      const result = await click(id)
      expect(result.status, id).toBe('ok')
      const typed = safeTxTypedData(fixtures.chainId, fixtures.safe.address, build(fixtures, nonce))
      expect(await signerOf(result.text, typed), id).toBe(fixtures.safe.owners[1])
    }
  })

  it('signs a Safe message for the hidden permit as the chosen owner', async () => {
    const { fixtures } = devnet
    await page.selectOption('#owner', '2')
    const result = await click('safe-message')
    expect(result.status).toBe('ok')
    const typed = safeMessageTypedData(fixtures.chainId, fixtures.safe.address, safePermitHash(fixtures))
    expect(await signerOf(result.text, typed)).toBe(fixtures.safe.owners[2])
  })

  it('executes a Safe transaction with two owners’ signatures: the Safe pays 1 ETH and its nonce moves on', async () => {
    const { fixtures } = devnet
    const safe = fixtures.safe.address
    const [safeBefore, nonceBefore] = await Promise.all([
      chain().getBalance({ address: safe }),
      chain().readContract({ address: safe, abi: safeAbi, functionName: 'nonce' }),
    ])
    await page.selectOption('#owner', '1')
    const result = await click('execute-safe-tx')
    expect(result).toMatchObject({ status: 'ok', text: expect.stringMatching(/^execute-safe-tx: tx 0x/) })
    expect(await chain().getBalance({ address: safe })).toBe(safeBefore - parseEther('1'))
    expect(await chain().readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(nonceBefore + 1n)
  })

  it('signs both permits and the CoW order and sends the ERC-20 and NFT approvals', async () => {
    for (const id of ['sign-permit', 'sign-permit2', 'cow-order']) {
      expect(await click(id)).toMatchObject({ status: 'ok', text: expect.stringMatching(/signature 0x[0-9a-f]{130}$/) })
    }
    for (const id of ['transfer-erc20', 'approve-erc20', 'set-approval-for-all']) {
      expect((await click(id)).status).toBe('ok')
    }
  })

  it('swaps 1 ETH for USDC on Uniswap V2 and V3, approves the router, adds liquidity and removes half of it', async () => {
    const { fixtures } = devnet
    const me = fixtures.accounts[0]?.address as Address
    const balanceOf = (token: Address) =>
      chain().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [me] })
    const usdc = () => balanceOf(fixtures.erc20.address)
    const lp = () => balanceOf(fixtures.uniswapV2.pair)
    for (const id of ['swap-v2', 'swap-v3']) {
      const before = await usdc()
      expect(await click(id)).toMatchObject({ status: 'ok', text: expect.stringMatching(/tx 0x[0-9a-f]{64}$/) })
      // 1 ETH at the pools' $3,000, less the pool fee and the price impact on a 100 ETH pool.
      const bought = (await usdc()) - before
      expect(bought > parseUnits('2900', 6) && bought < parseUnits('3000', 6), `${id}: ${bought}`).toBe(true)
    }
    expect((await click('approve-router-v2')).status).toBe('ok')
    const allowance = await chain().readContract({
      address: fixtures.erc20.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [me, fixtures.uniswapV2.router],
    })
    expect(allowance).toBe(maxUint256)
    const [usdcBefore, lpBefore] = [await usdc(), await lp()]
    expect((await click('add-liquidity-v2')).status).toBe('ok')
    const added = (await lp()) - lpBefore
    expect(added > 0n).toBe(true)
    // The router takes USDC at the pair's ratio: at most the 3,000 offered, and about what 1 ETH is worth there.
    const paid = usdcBefore - (await usdc())
    expect(paid > parseUnits('2800', 6) && paid <= parseUnits('3000', 6), `paid ${paid}`).toBe(true)
    const held = await lp()
    const removed = await click('remove-liquidity-v2')
    expect(removed.status, removed.text).toBe('ok')
    expect(await lp()).toBe(held - held / 2n)
  })

  it("lets the drainer sweep the account's USDC to the attacker", async () => {
    const { fixtures } = devnet
    const me = fixtures.accounts[0]?.address as Address
    const usdc = { address: fixtures.erc20.address, abi: erc20Abi, functionName: 'balanceOf' } as const
    const mine = await chain().readContract({ ...usdc, args: [me] })
    const result = await click('drainer')
    expect(result.status).toBe('ok')
    expect(await chain().readContract({ ...usdc, args: [me] })).toBe(0n)
    expect(await chain().readContract({ ...usdc, args: [fixtures.drainer.attacker] })).toBe(mine)
  })

  it("hands the vault's ownership to the attacker", async () => {
    const { fixtures } = devnet
    const owner = { address: fixtures.controlled.vault, abi: ownerAbi, functionName: 'owner' } as const
    expect(await chain().readContract(owner)).toBe(fixtures.accounts[0]?.address)
    const result = await click('hand-over-vault')
    expect(result.status, result.text).toBe('ok')
    expect(await chain().readContract(owner)).toBe(fixtures.drainer.attacker)
  })

  it('shows the wallet error code and message when a request fails', async () => {
    await devnet.stop()
    const result = await click('send-eth')
    expect(result.status).toBe('error')
    expect(result.text).toMatch(/^send-eth: error/)
  })
})
