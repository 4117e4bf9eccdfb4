/**
 * Orders paid only in what Preflight cannot value, judged on their items alone: prices and metadata are given here
 * (the devnet scans in test/engine/scan/messageUnvaluedPayments.test.ts read them on chain).
 */
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { AssetPrice } from '../../../src/engine/index.ts'
import type { SeaportItem, SeaportTrade } from '../../../src/engine/messages/seaport.ts'
import { type AssetKnowledge, unvaluedPaymentWarnings } from '../../../src/engine/messages/unvaluedPayments.ts'

const USER: Address = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const JUNK: Address = '0x00000000000000000000000000000000000a9e02'
const PRICED: Address = '0x00000000000000000000000000000000000d0a11'
const FAKE_APES: Address = '0x00000000000000000000000000000000000fa4e5'
const ITEMS: Address = '0x000000000000000000000000000000000001155e'
const APES: Address = '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d'
/** On mainnet's bundled list, and so valued with no price read. */
const DAI: Address = '0x6b175474e89094c44da98b954eedeac495271d0f'
const USDC: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'

const price: AssetPrice = { source: 'Chainlink', updatedAt: 0, dollarValuePerToken: 1 }
const known: AssetKnowledge = {
  chainId: 1,
  priceOf: (token) => (token === null || token.toLowerCase() === PRICED ? price : null),
  metadataOf: (token) =>
    token.toLowerCase() === JUNK
      ? { name: 'ApeCoin 2', symbol: 'APE2', decimals: 18, is1155: false }
      : token.toLowerCase() === FAKE_APES
        ? { name: 'Fake Apes', symbol: 'FAPE', decimals: null, is1155: false }
        : { name: null, symbol: null, decimals: 18, is1155: false },
}

const eth = (amount: bigint): SeaportItem => ({ kind: 'NATIVE', token: `0x${'00'.repeat(20)}`, identifier: 0n, amount })
const erc20 = (token: Address, amount: bigint): SeaportItem => ({ kind: 'ERC20', token, identifier: 0n, amount })
const nft = (token: Address, id: bigint): SeaportItem => ({ kind: 'ERC721', token, identifier: id, amount: 1n })
const trade = (gives: SeaportItem[], receives: SeaportItem[]): SeaportTrade => ({ offerer: USER, gives, receives })
const judge = (...trades: SeaportTrade[]) => unvaluedPaymentWarnings(trades, known, () => 'This order')
const MILLION = 10n ** 24n

describe('unvaluedPaymentWarnings', () => {
  it('a listing of an NFT paid only in a token with no price and no list entry → SUSPECTED_MALICIOUS, naming it', () => {
    const [warning, ...rest] = judge(trade([nft(APES, 7n)], [erc20(JUNK, MILLION)]))
    expect(rest).toEqual([])
    expect(warning).toMatchObject({ kind: 'SUSPECTED_MALICIOUS', severity: 'WARNING', data: { unvalued: [JUNK] } })
    expect(warning?.message).toMatch(/^This order pays you only in 1,000,000 APE2 \(0x0000…9e02\)\. Preflight/)
    expect(warning?.message).toContain('cannot establish this payment is worth anything')
    expect(warning?.message).toContain('Scammers pay in tokens they minted themselves')
    expect(warning?.message).toMatch(/Do not sign unless you know the token you are paid in and have checked its/)
  })

  it('priced tokens sold for an unvalued one (a memecoin buy, or a phishing swap) → a warning worded for a buyer', () => {
    const [warning] = judge(trade([erc20(PRICED, 10n ** 21n)], [erc20(JUNK, MILLION)]))
    expect(warning?.kind).toBe('SUSPECTED_MALICIOUS')
    expect(warning?.message).toMatch(/If you are buying this token on purpose, check that its address is the one/)
    expect(judge(trade([eth(10n ** 18n)], [erc20(JUNK, MILLION)]))).toHaveLength(1)
    expect(judge(trade([erc20(DAI, 10n ** 21n)], [erc20(JUNK, MILLION)]))).toHaveLength(1)
  })

  it("a listing paid in the chain's wrapped native currency is valued where no price is read and no list has it", () => {
    // WXDAI on Gnosis: the bundled token list has no entry for it, the protocol list names it.
    const WXDAI: Address = '0xe91D153E0b41518A2Ce8Dd3D7944Fa863463a97d'
    const onGnosis: AssetKnowledge = { ...known, chainId: 100, priceOf: () => null }
    expect(
      unvaluedPaymentWarnings([trade([nft(APES, 7n)], [erc20(WXDAI, 10n ** 18n)])], onGnosis, () => 'This order'),
    ).toEqual([])
    expect(
      unvaluedPaymentWarnings([trade([nft(APES, 7n)], [erc20(JUNK, MILLION)])], onGnosis, () => 'This order'),
    ).toHaveLength(1)
  })

  it('an NFT paid only in NFTs → TRADE_FOR_UNVERIFIED_NFT, naming each', () => {
    const criteria: SeaportItem = { kind: 'ERC721_WITH_CRITERIA', token: FAKE_APES, identifier: 0n, amount: 2n }
    const items: SeaportItem = { kind: 'ERC1155', token: ITEMS, identifier: 3n, amount: 5n }
    const [warning, ...rest] = judge(trade([nft(APES, 7n)], [nft(FAKE_APES, 1n), criteria, items]))
    expect(rest).toEqual([])
    expect(warning).toMatchObject({ kind: 'TRADE_FOR_UNVERIFIED_NFT', severity: 'WARNING' })
    expect(warning?.data).toEqual({ unvalued: [FAKE_APES, ITEMS] })
    expect(warning?.message).toMatch(
      /^This order pays you only in Fake Apes #1 \(0x0000…a4e5\), any 2 Fake Apes \(0x0000…a4e5\), 5 ERC-1155 token #3 \(0x0000…155e\)\. Preflight cannot verify the collection/,
    )
  })

  it('says nothing when something valued comes back: ETH, a priced token, a listed token, beside junk or alone', () => {
    const ape = [nft(APES, 7n)]
    expect(judge(trade(ape, [eth(10n ** 18n)]))).toEqual([])
    expect(judge(trade(ape, [erc20(PRICED, 10n ** 18n)]))).toEqual([])
    expect(judge(trade(ape, [erc20(USDC, 10n ** 9n)]))).toEqual([])
    expect(judge(trade(ape, [erc20(JUNK, MILLION), eth(10n ** 18n)]))).toEqual([])
    expect(judge(trade([erc20(USDC, 10n ** 9n)], [erc20(DAI, 10n ** 21n)]))).toEqual([])
  })

  it('says nothing of a purchase: fungible tokens given for an NFT (an offer), with or without junk beside it', () => {
    expect(judge(trade([erc20(PRICED, 10n ** 18n)], [nft(FAKE_APES, 1n)]))).toEqual([])
    expect(judge(trade([eth(10n ** 18n)], [nft(FAKE_APES, 1n), erc20(JUNK, MILLION)]))).toEqual([])
  })

  it('says nothing when nothing of value is given: junk for junk, or nothing at all', () => {
    expect(judge(trade([erc20(JUNK, MILLION)], [erc20(FAKE_APES, MILLION)]))).toEqual([])
    expect(judge(trade([], [erc20(JUNK, MILLION)]))).toEqual([])
  })

  it('counts the flagged orders of a bulk signature and adds up what they pay', () => {
    const listing = (id: bigint) => trade([nft(APES, id)], [erc20(JUNK, MILLION)])
    const honest = trade([nft(APES, 9n)], [eth(10n ** 18n)])
    const [warning] = unvaluedPaymentWarnings(
      [listing(1n), honest, listing(2n)],
      known,
      (count) => `${count} of the 3 orders in this bulk signature`,
    )
    expect(warning?.message).toMatch(/^2 of the 3 orders in this bulk signature pay you only in 2,000,000 APE2 /)
  })
})
