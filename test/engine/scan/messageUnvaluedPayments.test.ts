/**
 * Orders paid only in what Preflight cannot value, on the devnet: a junk ERC-20 ("APE2", 18 decimals, code and a name
 * of its own, no pool, no feed, on no list) and an ERC-1155 collection the attacker deployed. Seaport listings signed
 * by OpenSea's library and CoW orders signed by CoW's package are scanned, then filled on chain, to show the signer
 * really gets only the junk for what they give. Honest orders paid in ETH, WETH or USDC stay NONE.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import type { ScanMessageResponse } from '../../../src/engine/index.ts'
import { type CowOrder, type DevnetCow, deployCow } from '../../support/cow.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { type DevnetSeaport, deploySeaport, ItemType, type SignedPayload } from '../../support/seaport.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const nftAbi = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
])
const MILLION = parseEther('1000000')
const USDC = (whole: number) => BigInt(whole) * 10n ** 6n
const NOW = 1_900_000_000

describe('scanMessage: orders paid only in what Preflight cannot value, filled on the devnet', () => {
  const fixtures = devnetRolledBackPerTest()
  const validate = messageResponseValidator()
  let seaport: DevnetSeaport
  let cow: DevnetCow
  let user: { address: Address; privateKey: Hex }
  let attacker: { address: Address; privateKey: Hex }
  let solver: { address: Address; privateKey: Hex }
  /** The attacker's junk ERC-20 and ERC-1155 collection. */
  let ape2: Address
  let junkItems: Address

  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures().rpcUrl) })
  const wallet = (privateKey: Hex) =>
    createWalletClient({ chain: foundry, transport: http(fixtures().rpcUrl), account: privateKeyToAccount(privateKey) })
  const confirm = async (hash: Hex) => expect((await waitForReceipt(client(), hash)).status).toBe('success')
  const deploy = async (name: 'DevToken' | 'DevItems', args: unknown[]) => {
    const { abi, bytecode } = fixtureArtifact(name)
    const hash = await wallet(attacker.privateKey).deployContract({ abi, bytecode, args } as never)
    return getAddress((await waitForReceipt(client(), hash)).contractAddress as Address)
  }
  const erc20Balance = (token: Address, account: Address) =>
    client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
  const scan = async (payload: unknown, origin: string) => {
    const { response } = await scanOk(
      { message: { kind: 'SIGN_TYPED_DATA', data: payload }, userAccount: user.address, metadata: { origin } },
      fixtures().rpcUrl,
      NOW,
    )
    expect(validate(response)).toEqual([])
    return response
  }
  const diffs = (response: ScanMessageResponse) =>
    response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)
  /** Signs a Seaport listing of `apes` as the user through OpenSea's library, paid `consideration`. */
  const list = async (tokenId: string, consideration: object[]) => {
    const { seaport: client, signed } = seaport.client(user.privateKey)
    const { executeAllActions } = await client.createOrder(
      {
        offer: [{ itemType: ItemType.ERC721, token: fixtures().erc721.address, identifier: tokenId }],
        consideration,
      } as never,
      user.address,
    )
    const order = await executeAllActions()
    return { payload: signed[0] as SignedPayload, order }
  }
  /** Fills a Seaport order as the attacker, through the library (what it pays with is approved in beforeAll). */
  const fillAsAttacker = async (order: unknown) => {
    const { seaport: client } = seaport.client(attacker.privateKey)
    const { executeAllActions } = await client.fulfillOrder({ order: order as never, accountAddress: attacker.address })
    await (await executeAllActions()).wait()
  }
  const apeOwner = (tokenId: bigint) =>
    client().readContract({ address: fixtures().erc721.address, abi: nftAbi, functionName: 'ownerOf', args: [tokenId] })

  beforeAll(async () => {
    const f = fixtures()
    user = f.accounts[0] as typeof user
    attacker = f.accounts[8] as typeof attacker
    solver = f.accounts[9] as typeof solver
    ape2 = await deploy('DevToken', ['ApeCoin 2', 'APE2', 18, [attacker.address, solver.address], [MILLION, MILLION]])
    junkItems = await deploy('DevItems', [[attacker.address], [1n], [5n]])
    seaport = await deploySeaport(f)
    cow = await deployCow(f, solver)
    await confirm(
      await wallet(user.privateKey).writeContract({
        address: f.erc721.address,
        abi: nftAbi,
        functionName: 'setApprovalForAll',
        args: [seaport.address, true],
      }),
    )
    // The attacker's payments approved here: the library's own approval and fill, sent back to back, share a nonce.
    const attackerWallet = wallet(attacker.privateKey)
    await confirm(
      await attackerWallet.writeContract({
        address: ape2,
        abi: erc20Abi,
        functionName: 'approve',
        args: [seaport.address, maxUint256],
      }),
    )
    await confirm(
      await attackerWallet.writeContract({
        address: junkItems,
        abi: nftAbi,
        functionName: 'setApprovalForAll',
        args: [seaport.address, true],
      }),
    )
    await confirm(
      await wallet(user.privateKey).writeContract({
        address: f.erc20.address,
        abi: erc20Abi,
        functionName: 'approve',
        args: [cow.vaultRelayer, maxUint256],
      }),
    )
  }, 120_000)

  it('a listing of an ape for 1,000,000 APE2: WARN naming it, and filled, the user has the APE2 and not the ape', async () => {
    const { payload, order } = await list('1', [{ token: ape2, amount: MILLION.toString() }])
    const response = await scan(payload, 'https://opensea-rewards.example')
    expect(diffs(response)).toEqual(['Send Devnet Apes #1', 'Receive 1,000,000 APE2'])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['SUSPECTED_MALICIOUS', 'WARNING']])
    const [warning] = response.warnings
    expect(warning?.data).toEqual({ unvalued: [ape2.toLowerCase()] })
    expect(warning?.message).toMatch(/^This order pays you only in 1,000,000 APE2 \(0x[0-9a-f]{4}…[0-9a-f]{4}\)/)
    expect(warning?.message).toContain('Preflight cannot establish this payment is worth anything')

    await fillAsAttacker(order)
    expect(await apeOwner(1n)).toBe(attacker.address)
    expect(await erc20Balance(ape2, user.address)).toBe(MILLION)
  })

  it('a listing of an ape for an item of an unknown ERC-1155 collection: TRADE_FOR_UNVERIFIED_NFT, and so filled', async () => {
    const item = { itemType: ItemType.ERC1155, token: junkItems, identifier: '1', amount: '1' }
    const { payload, order } = await list('2', [item])
    const response = await scan(payload, 'https://opensea-swap.example')
    expect(diffs(response)).toEqual(['Send Devnet Apes #2', 'Receive 1 ERC-1155 token #1'])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_FOR_UNVERIFIED_NFT', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/^This order pays you only in 1 ERC-1155 token #1 \(0x/)

    await fillAsAttacker(order)
    expect(await apeOwner(2n)).toBe(attacker.address)
    const held = await client().readContract({
      address: junkItems,
      abi: nftAbi,
      functionName: 'balanceOf',
      args: [user.address, 1n],
    })
    expect(held).toBe(1n)
  })

  it('listings paid in ETH, WETH or USDC, each priced by its feed: NONE', async () => {
    const f = fixtures()
    for (const price of [
      { amount: parseEther('1').toString() },
      { token: f.weth.address, amount: parseEther('1').toString() },
      { token: f.erc20.address, amount: USDC(3_000).toString() },
    ]) {
      const { payload } = await list('3', [price])
      const response = await scan(payload, 'https://opensea.io')
      expect([price.token, response.action, response.warnings]).toEqual([price.token, 'NONE', []])
    }
  })

  it('a CoW order selling 1,000 USDC for 1,000,000 APE2: WARN for a buyer to check, and settled, only APE2 comes back', async () => {
    const f = fixtures()
    const order: CowOrder = {
      sellToken: f.erc20.address,
      buyToken: ape2,
      sellAmount: USDC(1_000),
      buyAmount: MILLION,
      validTo: NOW + 3_600,
      appData: `0x${'00'.repeat(32)}`,
      feeAmount: 0,
      kind: 'sell' as CowOrder['kind'],
      partiallyFillable: false,
    }
    const { payload, signature } = await cow.sign(order, user.privateKey)
    const response = await scan(payload, 'https://cow-swap.example')
    expect(diffs(response)).toEqual(['Send 1,000 USDC', 'Receive at least 1,000,000 APE2'])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['SUSPECTED_MALICIOUS', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(/If you are buying this token on purpose, check that its address/)

    const usdcBefore = await erc20Balance(f.erc20.address, user.address)
    await cow.settle(order, signature)
    expect(usdcBefore - (await erc20Balance(f.erc20.address, user.address))).toBe(USDC(1_000))
    expect(await erc20Balance(ape2, user.address)).toBe(MILLION)
  })
})
