import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../../src/engine/index.ts'
import { imbalancedValueWarnings } from '../../../src/engine/risk/value.ts'

const price = (dollarValuePerToken: number) => ({ source: 'Coingecko' as const, updatedAt: 0, dollarValuePerToken })

const nft = (before: string, after: string, dollars: number | null): StateChange => ({
  humanReadableDiff: 'Send Devnet Apes #1',
  rawInfo: {
    kind: 'ERC721_TRANSFER',
    data: {
      amount: { before, after },
      metadata: { rawImageUrl: '' },
      tokenId: '1',
      asset: {
        address: '0x1',
        symbol: 'DAPE',
        name: 'Devnet Apes',
        collection: 'Devnet Apes',
        price: dollars === null ? null : price(dollars),
      },
    },
  },
})

const eth = (before: bigint, after: bigint, dollars: number | null): StateChange => ({
  humanReadableDiff: 'Receive ETH',
  rawInfo: {
    kind: 'NATIVE_ASSET_TRANSFER',
    data: {
      amount: { before: before.toString(), after: after.toString() },
      asset: {
        address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
        symbol: 'ETH',
        name: 'Ether',
        decimals: 18,
        verified: true,
        imageUrl: null,
        price: dollars === null ? null : price(dollars),
      },
    },
  },
})

/** An NFT of collection PASS that comes back, with no price. */
const pass = (tokenId: number): StateChange => ({
  humanReadableDiff: `Receive PASS #${tokenId}`,
  rawInfo: {
    kind: 'ERC721_TRANSFER',
    data: {
      amount: { before: '0', after: '1' },
      metadata: { rawImageUrl: '' },
      tokenId: String(tokenId),
      asset: { address: '0x2', symbol: 'PASS', name: 'Airdrop Pass', collection: 'Airdrop Pass', price: null },
    },
  },
})

describe('imbalancedValueWarnings', () => {
  it('warns when the user gets back less than half the dollars given, once every asset has a price', () => {
    const warnings = imbalancedValueWarnings([nft('1', '0', 10_000), eth(0n, 10n ** 18n, 2_000)])
    expect(warnings.map((w) => [w.kind, w.severity, w.message])).toEqual([
      [
        'IMBALANCED_DOLLAR_VALUE',
        'WARNING',
        'You give about $10,000 and get about $2,000 back. Make sure this is the trade you meant.',
      ],
    ])
  })

  it('says nothing for a fair trade, or when an asset given has no price', () => {
    expect(imbalancedValueWarnings([nft('1', '0', 2_000), eth(0n, 10n ** 18n, 2_000)])).toEqual([])
    expect(imbalancedValueWarnings([nft('1', '0', null), eth(0n, 10n ** 18n, 2_000)])).toEqual([])
  })

  it('an unpriced item among what comes back is named, and no longer hides the imbalance', () => {
    const given = nft('1', '0', 10_000)
    const warnings = imbalancedValueWarnings([given, eth(0n, 10n ** 18n, 2_000), pass(7)])
    expect(warnings.map((w) => w.message)).toEqual([
      'You give about $10,000 and get about $2,000 back, besides one item Preflight has no price for (PASS #7). ' +
        'Make sure this is the trade you meant.',
    ])
    const many = Array.from({ length: 300 }, (_, i) => pass(i))
    const [counted] = imbalancedValueWarnings([given, eth(0n, 10n ** 18n, 2_000), ...many])
    expect(counted?.message).toContain('besides 300 items Preflight has no price for (300 PASS items)')
  })

  it('says nothing when all that comes back is unpriced: there is nothing to compare', () => {
    expect(imbalancedValueWarnings([nft('1', '0', 10_000), pass(7)])).toEqual([])
  })
})
