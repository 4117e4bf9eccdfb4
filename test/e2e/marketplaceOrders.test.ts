/**
 * Marketplace signatures in the real window: a Seaport bulk listing built and signed by OpenSea's own library, and a
 * Blur order, both giving NFTs away, end at BLOCK; a CoW swap order paying another address is a WARN whose signature,
 * once continued, settles on chain exactly as shown; an approval shows what it can take now; an ERC-4337 user operation
 * shows the smart account's changes under the account, and its continued signature runs through handleOps as shown.
 */
import type { BrowserContext, Page } from 'playwright-core'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseGwei,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { blurV1Listing } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { type CowOrder, deployCow } from '../support/cow.ts'
import { deploySeaport, ItemType } from '../support/seaport.ts'
import {
  deployAccountKit,
  execute,
  submitUserOperation,
  userOperation,
  userOperationTypedData,
  walletTypedData,
} from '../support/userOperations.ts'
import { devWalletPage } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision, REJECTED, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('marketplace signatures in the confirmation window', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let page: Page
  let account: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    page = await session.open('/', devWalletPage(fixtures.rpcUrl, account))
  }, 120_000)
  afterAll(() => session?.close())

  const signTypedData = (typedData: unknown) =>
    callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(JSON.stringify(typedData))}] })`,
    )

  it('a Seaport bulk listing of NFTs for 1 wei, signed by OpenSea’s library: BLOCK, every NFT shown', async () => {
    const { fixtures } = devnet
    const seaport = await deploySeaport(fixtures)
    const { seaport: client, signed } = seaport.client(fixtures.accounts[0]?.privateKey as Hex)
    const attacker = fixtures.accounts[8]?.address as Hex
    const listing = (identifier: string) => ({
      offer: [{ itemType: ItemType.ERC721 as 2, token: fixtures.erc721.address, identifier }],
      consideration: [{ amount: '1', recipient: attacker }],
    })
    const { executeAllActions } = await client.createBulkOrders([listing('1'), listing('2'), listing('3')], account)
    await executeAllActions()

    const { confirm, result } = await signTypedData(signed[0])
    expect(await shownAction(confirm)).toBe('BLOCK')
    await expect.poll(() => confirm.locator('[data-warning-kind="TRADE_FOR_NOTHING"]').count()).toBe(1)
    await expect.poll(() => confirm.locator('[data-testid="state-change"]').count()).toBe(3)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('a Blur listing for nothing on a site that is not Blur: BLOCK with the reference kind', async () => {
    const { fixtures } = devnet
    const order = blurV1Listing({
      chainId: fixtures.chainId,
      exchange: '0x000000000000Ad05Ccc4F10045630fb830B95127',
      trader: account,
      collection: fixtures.erc721.address,
      tokenId: 1n,
      price: 0n,
    })
    const { confirm, result } = await signTypedData(order)
    expect(await shownAction(confirm)).toBe('BLOCK')
    await expect.poll(() => confirm.locator('[data-warning-kind="BLUR_V2_ORDER_NOT_ON_BLUR"]').count()).toBe(1)
    await expect.poll(() => confirm.locator('[data-warning-kind="TRADE_FOR_NOTHING"]').count()).toBe(1)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('an unlimited approval shows what it can take now', async () => {
    const { fixtures } = devnet
    const data = encodeFunctionData({
      abi: parseAbi(['function approve(address spender, uint256 value) returns (bool)']),
      functionName: 'approve',
      args: [fixtures.drainer.address, maxUint256],
    })
    const tx = { from: account, to: fixtures.erc20.address, data }
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [${JSON.stringify(tx)}] })`,
    )
    expect(await shownAction(confirm)).toBe('WARN')
    await expect
      .poll(() => confirm.locator('[data-testid="can-take"]').textContent())
      .toBe('can take now: 10,000 USDC ($10,000.00)')
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('a CoW order that pays another address, signed by CoW’s package: WARN, and the continued signature settles as shown', async () => {
    const { fixtures } = devnet
    const cow = await deployCow(fixtures, fixtures.accounts[9] as { address: Hex; privateKey: Hex })
    const client = createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })
    const owner = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex),
    })
    const approval = { address: fixtures.erc20.address, abi: erc20Abi, functionName: 'approve' } as const
    await waitForReceipt(client, await owner.writeContract({ ...approval, args: [cow.vaultRelayer, maxUint256] }))
    const attacker = fixtures.accounts[8]?.address as Hex
    const order: CowOrder = {
      sellToken: fixtures.erc20.address,
      buyToken: fixtures.weth.address,
      receiver: attacker,
      sellAmount: 1_000_000_000n,
      buyAmount: 330_000_000_000_000_000n,
      validTo: Math.floor(Date.now() / 1000) + 3_600,
      appData: `0x${'00'.repeat(32)}`,
      feeAmount: 0,
      kind: 'sell' as CowOrder['kind'],
      partiallyFillable: false,
    }
    const { payload } = await cow.sign(order, fixtures.accounts[0]?.privateKey as Hex)

    const { confirm, result } = await signTypedData(payload)
    expect(await shownAction(confirm)).toBe('WARN')
    await expect.poll(() => confirm.locator('[data-warning-kind="TRADE_PROCEEDS_TO_OTHER_ADDRESS"]').count()).toBe(1)
    await expect
      .poll(() => confirm.locator('[data-testid="state-change"]').allTextContents())
      .toEqual([expect.stringContaining('−1,000 USDC')])
    await clickDecision(confirm, 'Continue')
    const { ok: signature } = (await result()) as { ok: Hex }
    const weth = { address: fixtures.weth.address, abi: erc20Abi, functionName: 'balanceOf', args: [attacker] } as const
    const before = await client.readContract(weth)
    await cow.settle(order, signature)
    expect((await client.readContract(weth)) - before).toBe(330_000_000_000_000_000n)
  })

  it('an ERC-4337 user operation: the smart account’s payment shown under its own address, and the continued signature runs through handleOps as shown', async () => {
    const { fixtures } = devnet
    const bundler = fixtures.accounts[7] as { privateKey: Hex }
    const { entryPoint, sender, creation } = await deployAccountKit(fixtures.rpcUrl, bundler, account)
    const stranger = fixtures.accounts[9]?.address as Hex
    const operation = userOperation(sender, {
      ...creation,
      callData: execute(stranger, parseEther('3'), '0x'),
      maxFeePerGas: parseGwei('3'),
      nonce: 0n,
    })

    const { confirm, result } = await signTypedData(
      walletTypedData(userOperationTypedData(fixtures.chainId, entryPoint, operation)),
    )
    await expect
      .poll(() => confirm.locator('[data-testid="state-change"]').allTextContents())
      .toEqual([expect.stringContaining('−3 ETH')])
    await expect
      .poll(() => confirm.locator(`[data-account="${sender.toLowerCase()}"] .tag`).textContent())
      .toBe('Account')
    await clickDecision(confirm, 'Continue')
    const { ok: signature } = (await result()) as { ok: Hex }
    const client = createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })
    const before = await client.getBalance({ address: stranger })
    await submitUserOperation(fixtures.rpcUrl, bundler, entryPoint, operation, signature)
    expect((await client.getBalance({ address: stranger })) - before).toBe(parseEther('3'))
  })
})
