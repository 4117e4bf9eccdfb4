/**
 * How the window words a Compound III market's approval: the engine sends it as an ERC-20 approval of the market's
 * token (what Comet's event and `allowance` say), with a sentence naming a manager of the whole account; the row must
 * say that, not "spend unlimited cUSDCv3" (the engine's side is proven on the devnet in
 * test/engine/scan/lendingDelegation.test.ts).
 */
import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../src/engine/index.ts'
import { describeChange } from '../../src/extension/ui/lib/stateChangeView.ts'

const OWNER = '0x1111111111111111111111111111111111111111'
const MANAGER = '0x2222222222222222222222222222222222222222'
const COMET = '0x00000000000000000000000000000000000c0e01'

const approval = (humanReadableDiff: string, after: bigint): StateChange => ({
  humanReadableDiff,
  rawInfo: {
    kind: 'ERC20_APPROVAL',
    data: {
      owner: { address: OWNER, kind: 'ACCOUNT' },
      spender: { address: MANAGER, kind: 'ACCOUNT' },
      amount: { before: '0', after: after.toString() },
      asset: {
        address: COMET,
        symbol: 'cUSDCv3',
        name: 'Compound USDC',
        decimals: 6,
        verified: false,
        lists: [],
        imageUrl: null,
        price: null,
      },
      canTakeNow: { amount: '5000000', dollarValue: null },
    },
  },
})

describe('a Compound III manager in the window', () => {
  it("shows the engine's sentence, names the manager, and claims no 'can take now' of the token", () => {
    const row = describeChange(
      approval('Make 0x2222…2222 manager of your whole Compound III account in Compound USDC', maxUint256),
    )
    expect(row.text).toBe('Make 0x2222…2222 manager of your whole Compound III account in Compound USDC')
    expect(row.party).toEqual({ label: 'manager', address: MANAGER })
    expect(row.canTake).toBeNull()
    expect(row.direction).toBe('approval')
  })

  it('shows a removed manager as such, and a plain token approval as before', () => {
    const removed = describeChange(
      approval('Remove 0x2222…2222 as manager of your Compound III account in Compound USDC', 0n),
    )
    expect([removed.text, removed.direction]).toEqual([
      'Remove 0x2222…2222 as manager of your Compound III account in Compound USDC',
      'revoke',
    ])
    const plain = describeChange(approval('Approve 0x2222…2222 to spend unlimited cUSDCv3', maxUint256))
    expect(plain.text).toBe('Allow 0x2222…2222 to spend unlimited cUSDCv3')
    expect(plain.party?.label).toBe('spender')
  })
})
