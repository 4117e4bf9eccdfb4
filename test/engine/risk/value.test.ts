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

  it('says nothing for a fair trade, or when any asset has no price', () => {
    expect(imbalancedValueWarnings([nft('1', '0', 2_000), eth(0n, 10n ** 18n, 2_000)])).toEqual([])
    expect(imbalancedValueWarnings([nft('1', '0', null), eth(0n, 10n ** 18n, 2_000)])).toEqual([])
  })
})
