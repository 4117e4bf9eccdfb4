import { describe, expect, it } from 'vitest'
import {
  type Address,
  type Erc20Asset,
  NATIVE_ASSET_ADDRESS,
  type ScanTransactionsResponse,
  type StateChange,
  type Warning,
} from '../../../src/engine/index.ts'
import { outcomeDrift } from '../../../src/extension/background/outcomeDrift.ts'

const USER = '0x1111111111111111111111111111111111111111' as Address
const SAFE = '0x5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe' as Address
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' as Address
const NFT = '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d' as Address
const SPENDER = '0x2222222222222222222222222222222222222222' as Address

const account = (address: Address) => ({ address, kind: 'ACCOUNT' as const })
const usdc: Erc20Asset = {
  address: USDC,
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  verified: true,
  lists: [],
  imageUrl: null,
  price: null,
}

function native(before: bigint, after: bigint): StateChange {
  const sign = after > before ? 'Receive' : 'Send'
  return {
    humanReadableDiff: `${sign} ${after > before ? after - before : before - after} wei`,
    rawInfo: {
      kind: 'NATIVE_ASSET_TRANSFER',
      data: {
        amount: { before: String(before), after: String(after) },
        asset: {
          address: NATIVE_ASSET_ADDRESS,
          symbol: 'ETH',
          name: 'Ether',
          decimals: 18,
          verified: true,
          imageUrl: null,
          price: null,
        },
      },
    },
  }
}

function token(before: bigint, after: bigint): StateChange {
  return {
    humanReadableDiff: `${after > before ? 'Receive' : 'Send'} USDC ${before} → ${after}`,
    rawInfo: {
      kind: 'ERC20_TRANSFER',
      data: { amount: { before: String(before), after: String(after) }, asset: usdc },
    },
  }
}

function approval(allowance: bigint): StateChange {
  return {
    humanReadableDiff: `Approve ${allowance} USDC`,
    rawInfo: {
      kind: 'ERC20_APPROVAL',
      data: {
        owner: account(USER),
        spender: account(SPENDER),
        amount: { before: '0', after: String(allowance) },
        asset: usdc,
      },
    },
  }
}

function nft(tokenId: string, before: bigint, after: bigint): StateChange {
  return {
    humanReadableDiff: `${after > before ? 'Receive' : 'Send'} BAYC #${tokenId}`,
    rawInfo: {
      kind: 'ERC721_TRANSFER',
      data: {
        amount: { before: String(before), after: String(after) },
        metadata: { rawImageUrl: '' },
        tokenId,
        asset: { address: NFT, symbol: 'BAYC', name: 'Bored Ape', collection: 'BAYC', price: null },
      },
    },
  }
}

function threshold(after: string): StateChange {
  return {
    humanReadableDiff: `Threshold becomes ${after}`,
    rawInfo: {
      kind: 'SAFE_CONFIGURATION_CHANGE',
      data: { contract: account(SAFE), field: 'threshold', before: '2', after },
    },
  }
}

const warning = (kind: Warning['kind'], severity: Warning['severity'] = 'WARNING'): Warning => ({
  kind,
  severity,
  message: `${kind} said`,
  data: null,
})

function scan(
  changes: StateChange[],
  options: {
    warnings?: Warning[]
    action?: ScanTransactionsResponse['action']
    failed?: boolean
    safe?: StateChange[]
  } = {},
): ScanTransactionsResponse {
  return {
    requestId: 'r',
    action: options.action ?? 'NONE',
    warnings: options.warnings ?? [],
    simulationResults: {
      aggregated: {
        error: options.failed
          ? { kind: 'SIMULATION_FAILED', humanReadableError: 'The transaction reverts: not enough', reason: 'x' }
          : null,
        expectedStateChanges: { [USER]: changes, ...(options.safe ? { [SAFE]: options.safe } : {}) },
        userAccount: USER,
      },
      perTransaction: [],
    },
  }
}

describe('outcomeDrift: what got worse between the scan shown and a fresh one', () => {
  it('finds nothing when the outcome is the same, or better for the user', () => {
    const shown = scan([native(10n ** 18n, 9n * 10n ** 17n), token(0n, 1_000_000n)])
    expect(outcomeDrift(shown, shown)).toEqual([])
    expect(outcomeDrift(shown, scan([native(10n ** 18n, 9n * 10n ** 17n), token(0n, 1_200_000n)]))).toEqual([])
    expect(outcomeDrift(shown, scan([native(10n ** 18n, 95n * 10n ** 16n), token(0n, 1_000_000n)]))).toEqual([])
  })

  it('lets a swap pay up to 2 % less, as its pool moves between blocks, and no more', () => {
    const shown = scan([native(10n ** 18n, 0n), token(0n, 1_000_000n)])
    expect(outcomeDrift(shown, scan([native(10n ** 18n, 0n), token(0n, 980_000n)]))).toEqual([])
    expect(outcomeDrift(shown, scan([native(10n ** 18n, 0n), token(0n, 979_999n)]))).toEqual([
      'Now: Receive USDC 0 → 979999 (it showed: Receive USDC 0 → 1000000)',
    ])
  })

  it('names a payment that vanished, and a loss that appeared or grew', () => {
    const shown = scan([native(10n ** 18n, 9n * 10n ** 17n), token(0n, 5n)])
    const drained = scan([native(10n ** 18n, 0n)])
    expect(outcomeDrift(shown, drained)).toEqual([
      `Now: Send ${10n ** 18n} wei (it showed: Send ${10n ** 17n} wei)`,
      'No longer: Receive USDC 0 → 5',
    ])
    expect(outcomeDrift(scan([]), scan([token(7n, 0n)]))).toEqual(['Now: Send USDC 7 → 0 (it showed nothing of this)'])
  })

  it('counts any NFT that leaves, any new or larger approval, and any change to a Safe', () => {
    expect(outcomeDrift(scan([nft('1', 0n, 1n)]), scan([]))).toEqual(['No longer: Receive BAYC #1'])
    expect(outcomeDrift(scan([]), scan([nft('9', 1n, 0n)]))).toEqual(['Now: Send BAYC #9 (it showed nothing of this)'])
    expect(outcomeDrift(scan([approval(10n)]), scan([approval(11n)]))).toEqual([
      'Now: Approve 11 USDC (it showed: Approve 10 USDC)',
    ])
    expect(outcomeDrift(scan([approval(10n)]), scan([approval(5n)]))).toEqual([])
    expect(outcomeDrift(scan([approval(10n)]), scan([]))).toEqual([])
    expect(outcomeDrift(scan([], { safe: [threshold('1')] }), scan([], { safe: [threshold('1')] }))).toEqual([])
    expect(outcomeDrift(scan([], { safe: [] }), scan([], { safe: [threshold('1')] }))).toEqual([
      'Now: Threshold becomes 1 (it showed nothing of this)',
    ])
  })

  it('counts the NFTs that come in per collection: a mint may pick another item each time it runs', () => {
    const minted = (...ids: string[]) => scan(ids.map((id) => nft(id, 0n, 1n)))
    expect(outcomeDrift(minted('1'), minted('9'))).toEqual([])
    expect(outcomeDrift(minted('1', '2'), minted('7', '9'))).toEqual([])
    expect(outcomeDrift(minted('1', '2'), minted('9'))).toEqual(['Now: Receive BAYC #9 (it showed: Receive BAYC #2)'])
    // What leaves is still the very item.
    expect(outcomeDrift(scan([nft('1', 1n, 0n)]), scan([nft('2', 1n, 0n)]))).toEqual([
      'Now: Send BAYC #2 (it showed nothing of this)',
    ])
  })

  it('names warnings of a new kind, a stricter advice and a transaction that would now fail', () => {
    const shown = scan([], { warnings: [warning('APPROVAL_TO_EOA')], action: 'WARN' })
    expect(outcomeDrift(shown, scan([], { warnings: [warning('APPROVAL_TO_EOA')], action: 'WARN' }))).toEqual([])
    expect(
      outcomeDrift(
        shown,
        scan([], {
          warnings: [warning('APPROVAL_TO_EOA'), warning('SUSPECTED_MALICIOUS', 'CRITICAL')],
          action: 'BLOCK',
        }),
      ),
    ).toEqual(['New warning: SUSPECTED_MALICIOUS said'])
    expect(outcomeDrift(scan([]), scan([], { action: 'WARN' }))).toEqual([
      "Preflight's advice is now WARN, where it was NONE.",
    ])
    expect(outcomeDrift(scan([]), scan([], { failed: true }))).toEqual([
      'It would now fail: The transaction reverts: not enough',
    ])
    expect(outcomeDrift(scan([], { failed: true }), scan([], { failed: true }))).toEqual([])
  })

  it('compares what it cannot read as numbers by equality, so a scan API answer cannot hide a change', () => {
    const odd = (text: string) => {
      const change = token(0n, 1n)
      if (change.rawInfo.kind === 'ERC20_TRANSFER') change.rawInfo.data.amount.after = text
      return change
    }
    expect(outcomeDrift(scan([odd('1.5')]), scan([odd('1.5')]))).toEqual([])
    expect(outcomeDrift(scan([odd('1.5')]), scan([odd('0.5')]))).toHaveLength(1)
  })
})
