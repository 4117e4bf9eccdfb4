/** NFT metadata URIs: read in the simulation's before-block of the same call (no extra round trip), never fetched. */
import { type Address, encodeFunctionData, type Hex, parseAbi, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { safeAbi } from '../../../src/engine/abi/abis.ts'
import { nftMetadata, substituteId } from '../../../src/engine/assets/nftMetadata.ts'
import { type StateChange, scanTransactionsWithStats } from '../../../src/engine/index.ts'
import { predictReads } from '../../../src/engine/simulation/readPlan.ts'
import { type ReadResults, readKeys } from '../../../src/engine/simulation/reads.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const erc721 = parseAbi([
  'function transferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function approve(address to, uint256 tokenId)',
])
const erc1155 = parseAbi([
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
])
const TOKEN: Address = '0x2222222222222222222222222222222222222222'
const RECIPIENT: Address = '0x1111111111111111111111111111111111111111'

describe('nftMetadata', () => {
  const reads = (entries: [string, unknown][]): ReadResults => ({ before: new Map(entries), after: new Map() })

  it('ERC-1155 {id} becomes 64 lowercase hex digits without 0x (EIP-1155), every occurrence', () => {
    expect(substituteId('ipfs://cid/{id}.json', 255n)).toBe(`ipfs://cid/${'0'.repeat(62)}ff.json`)
    expect(substituteId('https://x.example/{id}/{id}', 1n)).toBe(
      `https://x.example/${'0'.repeat(63)}1/${'0'.repeat(63)}1`,
    )
    expect(substituteId('https://x.example/static.json', 7n)).toBe('https://x.example/static.json')
  })

  it('passes an ERC-721 URI as read (ipfs:// untouched); unread, non-text or oversized answers give ""', () => {
    const key = readKeys.tokenUri(TOKEN, 7n)
    expect(nftMetadata('ERC721', TOKEN, 7n, reads([[key, 'ipfs://cid/7']]))).toEqual({ rawImageUrl: 'ipfs://cid/7' })
    expect(nftMetadata('ERC721', TOKEN, 7n, reads([]))).toEqual({ rawImageUrl: '' })
    expect(nftMetadata('ERC721', TOKEN, 7n, reads([[key, 42n]]))).toEqual({ rawImageUrl: '' })
    const oversized = `data:application/json,${'x'.repeat(5000)}`
    expect(nftMetadata('ERC721', TOKEN, 7n, reads([[key, oversized]]))).toEqual({ rawImageUrl: '' })
    // The ERC-1155 read is a different function (uri), so an ERC-721 answer never stands in for it.
    expect(nftMetadata('ERC1155', TOKEN, 7n, reads([[key, 'ipfs://cid/7']]))).toEqual({ rawImageUrl: '' })
  })

  it('passes only ipfs:, ar:, https:, inline raster images and inline JSON; scripts and documents give ""', () => {
    const key = readKeys.tokenUri(TOKEN, 1n)
    const uriOf = (uri: string) => nftMetadata('ERC721', TOKEN, 1n, reads([[key, uri]])).rawImageUrl
    for (const uri of [
      'ipfs://cid/1',
      'ar://tx/1',
      'https://x.example/1.json',
      'data:image/png;base64,iVBORw0KGgo=',
      'DATA:IMAGE/WEBP;base64,UklGRg==',
      'data:application/json;base64,eyJuYW1lIjoiMSJ9',
      'data:application/json,{"name":"1"}',
    ]) {
      expect(uriOf(uri)).toBe(uri)
    }
    for (const uri of [
      'javascript:alert(document.domain)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'></svg>",
      'data:image/pngx,1',
      'http://x.example/1.json',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      'https://x.example/\u202egnp.json',
    ]) {
      expect(uriOf(uri)).toBe('')
    }
    // An ERC-1155 template is judged before its {id} is filled in.
    const template = readKeys.erc1155Uri(TOKEN, 1n)
    expect(nftMetadata('ERC1155', TOKEN, 1n, reads([[template, 'javascript:{id}']]))).toEqual({ rawImageUrl: '' })
  })

  it('plans a URI read for NFTs the calldata names, but not for a token already known to be fungible', () => {
    const call = (data: `0x${string}`) => [{ from: RECIPIENT, to: TOKEN, value: 0n, data, depth: 0 }]
    const transfer = encodeFunctionData({ abi: erc721, functionName: 'transferFrom', args: [RECIPIENT, TOKEN, 3n] })
    const plan = (data: `0x${string}`, mayBeNft: boolean) => [
      ...predictReads(
        call(data),
        [RECIPIENT],
        [],
        () => false,
        () => mayBeNft,
      ).keys(),
    ]
    expect(plan(transfer, true)).toContain(readKeys.tokenUri(TOKEN, 3n))
    expect(plan(transfer, false)).not.toContain(readKeys.tokenUri(TOKEN, 3n))
    const approve = encodeFunctionData({ abi: erc721, functionName: 'approve', args: [RECIPIENT, 9n] })
    expect(plan(approve, true)).toContain(readKeys.tokenUri(TOKEN, 9n))
    const single = encodeFunctionData({
      abi: erc1155,
      functionName: 'safeTransferFrom',
      args: [RECIPIENT, TOKEN, 4n, 1n, '0x'],
    })
    expect(plan(single, false)).toContain(readKeys.erc1155Uri(TOKEN, 4n))
  })
})

describe('NFT metadata in devnet transaction scans', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(async () => {
    await devnet?.stop()
  })
  const fx = () => devnet.fixtures
  const owner = (index: number) => fx().accounts[index]?.address as Address
  const scan = async (request: object) => {
    const { outcome, stats } = await scanTransactionsWithStats(
      { userAccount: owner(0), metadata: { origin: 'https://app.example.org' }, ...request },
      { rpcUrl: fx().rpcUrl, chainId: fx().chainId },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    return { changes: outcome.response.simulationResults.aggregated.expectedStateChanges, stats }
  }
  /** Scans one call from account 0. */
  const scanCall = (to: Address, data: Hex) => scan({ txObjects: [{ from: owner(0), to, data }] })
  const imageOf = (change: StateChange | undefined) =>
    (change?.rawInfo.data as { metadata?: { rawImageUrl: string } } | undefined)?.metadata?.rawImageUrl
  const of = (changes: Record<Address, StateChange[]>, account: Address) =>
    changes[account.toLowerCase() as Address] ?? []

  it('an ERC-721 transfer: both sides carry the DevNFT tokenURI, in 1 round trip of 1 request', async () => {
    const { changes, stats } = await scanCall(
      fx().erc721.address,
      encodeFunctionData({ abi: erc721, functionName: 'transferFrom', args: [owner(0), RECIPIENT, 2n] }),
    )
    expect(of(changes, owner(0))[0]?.rawInfo.kind).toBe('ERC721_TRANSFER')
    expect(imageOf(of(changes, owner(0))[0])).toBe('https://example.invalid/dape/2')
    expect(imageOf(of(changes, RECIPIENT)[0])).toBe('https://example.invalid/dape/2')
    expect(stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('an ERC-1155 transfer: the URI template with {id} substituted, in 1 round trip of 1 request', async () => {
    const { changes, stats } = await scanCall(
      fx().erc1155.address,
      encodeFunctionData({
        abi: erc1155,
        functionName: 'safeTransferFrom',
        args: [owner(0), RECIPIENT, 1n, 3n, '0x'],
      }),
    )
    const expected = `https://example.invalid/items/${'0'.repeat(63)}1.json`
    expect(of(changes, owner(0))[0]?.rawInfo.kind).toBe('ERC1155_TRANSFER')
    expect(imageOf(of(changes, owner(0))[0])).toBe(expected)
    expect(imageOf(of(changes, RECIPIENT)[0])).toBe(expected)
    expect(stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('an ERC-721 approval of one token carries its URI too', async () => {
    const { changes, stats } = await scanCall(
      fx().erc721.address,
      encodeFunctionData({ abi: erc721, functionName: 'approve', args: [RECIPIENT, 3n] }),
    )
    const [approval] = of(changes, owner(0))
    expect(approval?.rawInfo.kind).toBe('ERC721_APPROVAL')
    expect(imageOf(approval)).toBe('https://example.invalid/dape/3')
    expect(stats.roundTrips).toBe(1)
  })

  it('an NFT sent by the Safe under the preset (execTransaction wraps the call) gets its URI, in 1 round trip', async () => {
    const inner = encodeFunctionData({
      abi: erc721,
      functionName: 'safeTransferFrom',
      args: [fx().safe.address, RECIPIENT, 4n],
    })
    const { changes, stats } = await scan({
      txObjects: [
        {
          from: owner(1),
          to: fx().safe.address,
          data: encodeFunctionData({
            abi: safeAbi,
            functionName: 'execTransaction',
            args: [fx().erc721.address, 0n, inner, 0, 0n, 0n, 0n, zeroAddress, zeroAddress, '0x'],
          }),
        },
      ],
      userAccount: fx().safe.address,
      simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: fx().safe.address }] },
    })
    expect(imageOf(of(changes, fx().safe.address)[0])).toBe('https://example.invalid/dape/4')
    expect(stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('NFTs only the logs reveal (a batch) go without a URI rather than cost another round trip', async () => {
    const { changes, stats } = await scanCall(
      fx().erc1155.address,
      encodeFunctionData({
        abi: erc1155,
        functionName: 'safeBatchTransferFrom',
        args: [owner(0), RECIPIENT, [1n, 2n], [1n, 1n], '0x'],
      }),
    )
    const mine = of(changes, owner(0))
    expect(mine.map((change) => change.rawInfo.kind)).toEqual(['ERC1155_TRANSFER', 'ERC1155_TRANSFER'])
    expect(mine.map(imageOf)).toEqual(['', ''])
    // The balances of a batch come from its logs: the second call this always took, and no more.
    expect(stats.roundTrips).toBe(2)
  })
})
