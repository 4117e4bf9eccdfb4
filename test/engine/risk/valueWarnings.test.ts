/**
 * TRADE_FOR_NOTHING for transactions, judged on what has a price: an unpriced token or an NFT among what comes back is
 * left out and named, and no longer silences the warning; with nothing priced coming back (an NFT bought for ETH, a
 * swap into a new token) there is nothing to compare and nothing is said.
 */
import type { Address } from 'viem'
import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import type { AssetPrice } from '../../../src/engine/api/index.ts'
import type { TransferChange } from '../../../src/engine/assets/index.ts'
import { valueWarnings } from '../../../src/engine/risk/valueWarnings.ts'
import type { AssetRef, TokenMetadata } from '../../../src/engine/simulation/index.ts'

const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEEP: Address = '0x0000000000000000000000000000000000000dee'
const DUST: Address = '0x0000000000000000000000000000000000000d57'
const PASS: Address = '0x0000000000000000000000000000000000000a55'

const priced = (dollars: number): AssetPrice => ({ source: 'Chainlink', updatedAt: 0, dollarValuePerToken: dollars })
/** ETH at $3,000 and DEEP at $30; DUST and every NFT have no price. */
const priceOf = (token: Address | null) => (token === null ? priced(3000) : token === DEEP ? priced(30) : null)
const symbols: Record<string, string> = { [DEEP]: 'DEEP', [DUST]: 'DUST', [PASS]: 'PASS' }
const metadataOf = (token: Address): TokenMetadata => ({
  name: null,
  symbol: symbols[token] ?? null,
  decimals: 18,
  is1155: false,
})
const change = (asset: AssetRef, before: bigint, after: bigint): TransferChange => ({
  type: 'transfer',
  account: USER,
  asset,
  before,
  after,
  counterparty: null,
})
const pass = (tokenId: bigint) => change({ standard: 'ERC721', token: PASS, tokenId }, 0n, 1n)
/** 10 ETH ($30,000) sent, 1 wei of DEEP (next to nothing) back. */
const swapped = [
  change({ standard: 'NATIVE' }, parseEther('10'), 0n),
  change({ standard: 'ERC20', token: DEEP }, 0n, 1n),
]
const warningsFor = (changes: TransferChange[]) => valueWarnings(31337, changes, USER, priceOf, metadataOf)
const judge = (changes: TransferChange[]) => warningsFor(changes).map((w) => [w.kind, w.severity, w.message])

describe('valueWarnings', () => {
  it('10 ETH for next to nothing: TRADE_FOR_NOTHING', () => {
    expect(judge(swapped)).toEqual([
      [
        'TRADE_FOR_NOTHING',
        'WARNING',
        'You send about $30,000.00 and get back about $0.00. Check the price and the slippage limit before you ' +
          'continue: at these prices the trade loses almost everything.',
      ],
    ])
  })

  it('the same swap plus 1 wei of an unpriced token, or an NFT: still TRADE_FOR_NOTHING, naming what has no price', () => {
    const dust = change({ standard: 'ERC20', token: DUST }, 0n, 1n)
    expect(judge([...swapped, dust])).toEqual([
      [
        'TRADE_FOR_NOTHING',
        'WARNING',
        'You send about $30,000.00 and get back about $0.00, besides one item Preflight has no price for ' +
          '(<0.000001 DUST). Check the price and the slippage limit before you continue: unless that item is what ' +
          'you trade for, at these prices the trade loses almost everything.',
      ],
    ])
    const [both] = warningsFor([...swapped, pass(1n), dust])
    expect(both?.message).toContain('besides 2 items Preflight has no price for (PASS #1, <0.000001 DUST)')
    expect(both?.message).toContain('unless those are what you trade for')
  })

  it('300 unpriced NFTs among what comes back are counted, not listed', () => {
    const passes = Array.from({ length: 300 }, (_, i) => pass(BigInt(1000 + i)))
    const [counted] = warningsFor([...swapped, ...passes])
    expect(counted?.kind).toBe('TRADE_FOR_NOTHING')
    expect(counted?.message).toContain('besides 300 items Preflight has no price for (300 PASS items)')
  })

  it('nothing priced comes back (an NFT bought for ETH), a fair trade, or a plain payment: nothing to say', () => {
    const eth = change({ standard: 'NATIVE' }, parseEther('10'), 0n)
    expect(judge([eth, pass(1n)])).toEqual([])
    expect(judge([eth, change({ standard: 'ERC20', token: DEEP }, 0n, parseEther('1000')), pass(1n)])).toEqual([])
    expect(judge([eth])).toEqual([])
  })
})
