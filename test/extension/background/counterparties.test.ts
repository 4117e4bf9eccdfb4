import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ScanTransactionsResponse, StateChange } from '../../../src/engine/index.ts'
import {
  COUNTERPARTIES_KEY,
  COUNTERPARTIES_LIMIT,
  createCounterparties,
  REMEMBERED_PER_REQUEST,
  scanRecipients,
  withPoisonedAddressWarnings,
} from '../../../src/extension/background/counterparties.ts'
import type { ScanState } from '../../../src/extension/shared/pending.ts'
import { memoryArea } from './support/memoryArea.ts'

const ME = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' as Address
const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address
const LOOKALIKE = '0x7099deadbeefdeadbeefdeadbeefdeadbeef79c8' as Address
/** Mimics the signer's own address, as poisoners also do. */
const MY_LOOKALIKE = '0xf39f0000000000000000000000000000000b2266' as Address

const sendEth = (to: Address): StateChange =>
  ({
    humanReadableDiff: 'Send 1 ETH',
    rawInfo: {
      kind: 'NATIVE_ASSET_TRANSFER',
      data: {
        amount: { before: '2000000000000000000', after: '1000000000000000000' },
        counterparty: { address: to, kind: 'ACCOUNT' },
        asset: { address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', symbol: 'ETH', name: 'Ether', decimals: 18 },
      },
    },
  }) as StateChange

function scanned(to: Address): ScanState {
  const response = {
    requestId: 'r',
    action: 'NONE',
    warnings: [],
    simulationResults: {
      aggregated: { error: null, userAccount: ME, expectedStateChanges: { [ME]: [sendEth(to)] } },
      perTransaction: [],
    },
  } as unknown as ScanTransactionsResponse
  return { status: 'DONE', kind: 'transactions', response }
}

describe('counterparties', () => {
  it('remembers recipients newest first, once each, up to the limit, and ignores what is not an address', async () => {
    const area = memoryArea()
    const counterparties = createCounterparties(area)
    await area.set({ [COUNTERPARTIES_KEY]: ['not an address', LOOKALIKE, 42] })
    expect([...(await counterparties.known())]).toEqual([LOOKALIKE])
    await Promise.all([
      counterparties.remember([FRIEND]),
      counterparties.remember([LOOKALIKE.toUpperCase() as Address]),
    ])
    expect((await area.get(COUNTERPARTIES_KEY))[COUNTERPARTIES_KEY]).toEqual([LOOKALIKE, FRIEND])
    const many = Array.from(
      { length: COUNTERPARTIES_LIMIT + 5 },
      (_, index) => `0x${index.toString(16).padStart(40, '0')}`,
    )
    await counterparties.remember(many as Address[])
    const kept = (await area.get(COUNTERPARTIES_KEY))[COUNTERPARTIES_KEY] as string[]
    expect(kept).toHaveLength(COUNTERPARTIES_LIMIT)
    expect(kept[0]).toBe(many[0])
  })

  it('flags a recipient that mimics a known one or the signer, and blocks; a known recipient passes', () => {
    const known = new Set([FRIEND])
    const poisoned = withPoisonedAddressWarnings(scanned(LOOKALIKE), ME, known)
    expect(poisoned).toMatchObject({
      status: 'DONE',
      response: { action: 'BLOCK', warnings: [{ kind: 'POISONED_ADDRESS', data: { lookalikeOf: FRIEND } }] },
    })
    expect(withPoisonedAddressWarnings(scanned(MY_LOOKALIKE), ME, known)).toMatchObject({
      response: { action: 'BLOCK', warnings: [{ kind: 'POISONED_ADDRESS', data: { lookalikeOf: ME } }] },
    })
    const honest = scanned(FRIEND)
    expect(withPoisonedAddressWarnings(honest, ME, known)).toBe(honest)
    const failed: ScanState = { status: 'ERROR', error: { kind: 'TIMEOUT', message: 'late' } }
    expect(withPoisonedAddressWarnings(failed, ME, known)).toBe(failed)
    expect(scanRecipients(scanned(FRIEND), ME)).toEqual([FRIEND])
  })

  it("looks only at the signer's own assets, and takes at most a few recipients from one request", () => {
    const pool = scanned(FRIEND)
    if (pool.status !== 'DONE' || pool.kind !== 'transactions') throw new Error('a transaction scan')
    // A swap: the pool pays a lookalike of a known address, which is not the user's doing.
    pool.response.simulationResults.aggregated.expectedStateChanges[FRIEND] = [sendEth(LOOKALIKE)]
    expect(withPoisonedAddressWarnings(pool, ME, new Set([FRIEND]))).toBe(pool)
    expect(scanRecipients(pool, ME)).toEqual([FRIEND])
    const payout = scanned(FRIEND)
    if (payout.status !== 'DONE' || payout.kind !== 'transactions') throw new Error('a transaction scan')
    payout.response.simulationResults.aggregated.expectedStateChanges[ME] = Array.from({ length: 50 }, (_, index) =>
      sendEth(`0x${(index + 1).toString(16).padStart(40, '0')}` as Address),
    )
    expect(scanRecipients(payout, ME)).toHaveLength(REMEMBERED_PER_REQUEST)
  })
})
