/**
 * A token's own words in the window (symbol, collection name) are isolated in <bdi>: a symbol in a right-to-left
 * script, or one a contract wrote to reverse its surroundings, keeps its direction to itself instead of reordering
 * the amount and words beside it.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../src/engine/index.ts'
import { StateChanges } from '../../src/extension/ui/components/StateChanges.tsx'
import { describeChange, groupByAccount } from '../../src/extension/ui/lib/stateChangeView.ts'

const USER = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'
const TOKEN = '0x00000000000000000000000000000000000c0200'
/** "שקל" (Hebrew letters): drawn right to left, it would carry a neighbouring number with it. */
const RTL_SYMBOL = '\u05e9\u05e7\u05dc'

const receipt = (symbol: string, name: string): StateChange => ({
  humanReadableDiff: `Receive 1,000 ${symbol}`,
  rawInfo: {
    kind: 'ERC20_TRANSFER',
    data: {
      amount: { before: '0', after: '1000000000' },
      counterparty: { address: OTHER, kind: 'ACCOUNT' },
      asset: { address: TOKEN, symbol, name, decimals: 6, verified: false, lists: [], imageUrl: null, price: null },
    },
  },
})

const collectionApproval = (name: string): StateChange => ({
  humanReadableDiff: `Approve ${OTHER} to move all your ${name}`,
  rawInfo: {
    kind: 'ERC721_APPROVAL_FOR_ALL',
    data: {
      owner: { address: USER, kind: 'ACCOUNT' },
      spender: { address: OTHER, kind: 'ACCOUNT' },
      amount: { before: '0', after: '1' },
      asset: { address: TOKEN, symbol: 'NFT', name, collection: name, price: null },
    },
  },
})

const rendered = (changes: StateChange[]) =>
  renderToStaticMarkup(
    createElement(StateChanges, { groups: groupByAccount({ [USER]: changes }, USER), pending: false }),
  )

describe('token text in the window', () => {
  it('a row names the words that are the token’s own', () => {
    expect(describeChange(receipt(RTL_SYMBOL, 'Shekel')).assetText).toBe(RTL_SYMBOL)
    expect(describeChange(collectionApproval('Apes')).assetText).toBe('Apes')
  })

  it('a right-to-left symbol is drawn in <bdi>, apart from the amount before it', () => {
    expect(rendered([receipt(RTL_SYMBOL, 'Shekel')])).toContain(`+1,000 <bdi>${RTL_SYMBOL}</bdi>`)
  })

  it('a collection name is drawn in <bdi> in an approval, and the rest of the sentence is not', () => {
    const html = rendered([collectionApproval(`${RTL_SYMBOL} Apes`)])
    expect(html).toContain(`to move all your <bdi>${RTL_SYMBOL} Apes</bdi>`)
    expect(html).not.toContain('<bdi>Allow')
  })
})
