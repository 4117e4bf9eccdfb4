/** The comparison behind SIMULATION_EVASION: what the user's side gets in the scan against the environment probe. */
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { simulationEvasionWarnings, stateWritingReadWarnings } from '../../../src/engine/risk/simulationEvasion.ts'
import type { Movement, TxOutcome } from '../../../src/engine/simulation/index.ts'
import { etherMovement, tokenMovement } from '../movementSupport.ts'

const USER = '0x00000000000000000000000000000000000000a1' as Address
const OTHER = '0x00000000000000000000000000000000000000b2' as Address
const TOKEN = '0x00000000000000000000000000000000000000c3' as Address
const NFT = '0x00000000000000000000000000000000000000d4' as Address
const ETH = 10n ** 18n

const outcome = (status: TxOutcome['status']) => ({ status }) as TxOutcome
const nft = (from: Address, to: Address, tokenId: bigint): Movement => ({
  asset: { standard: 'ERC721', token: NFT, tokenId },
  from,
  to,
  amount: 1n,
})
const metadata = () => ({ name: 'Token', symbol: 'TKN', decimals: 6, is1155: false })

function judge(
  simulated: Movement[],
  real: Movement[],
  statuses: { scan?: TxOutcome['status']; probe?: boolean } = {},
) {
  return simulationEvasionWarnings(
    [outcome(statuses.scan ?? 'success')],
    simulated,
    { succeeded: [statuses.probe ?? true], movements: real },
    (address) => address === USER,
    1,
    metadata,
  )
}

describe('SIMULATION_EVASION', () => {
  it('a loss the simulation does not show is CRITICAL, naming both amounts', () => {
    const gift = [etherMovement(USER, OTHER, ETH / 10n), etherMovement(OTHER, USER, ETH / 5n)]
    const [warning, ...rest] = judge(gift, [etherMovement(USER, OTHER, ETH / 10n)])
    expect(rest).toEqual([])
    expect(warning).toMatchObject({ kind: 'SIMULATION_EVASION', severity: 'CRITICAL' })
    expect(warning?.message).toContain('-0.1 ETH for real, where the simulation shows +0.1 ETH')
  })

  it('a smaller gain past 2 % is a WARNING; within 2 %, or better for real, nothing', () => {
    const paid = (amount: bigint) => [tokenMovement(TOKEN, OTHER, USER, amount)]
    expect(judge(paid(1_000_000n), paid(900_000n))).toMatchObject([{ severity: 'WARNING' }])
    expect(judge(paid(1_000_000n), paid(900_000n))[0]?.message).toContain('+0.9 TKN for real')
    expect(judge(paid(1_000_000n), paid(985_000n))).toEqual([])
    expect(judge(paid(1_000_000n), paid(1_200_000n))).toEqual([])
  })

  it('an NFT counts by the collection: another id is the same outcome, one item fewer is not', () => {
    expect(judge([nft(OTHER, USER, 1n)], [nft(OTHER, USER, 7n)])).toEqual([])
    expect(judge([nft(OTHER, USER, 1n)], [])).toMatchObject([{ severity: 'WARNING' }])
    expect(judge([], [nft(USER, OTHER, 3n)])).toMatchObject([{ severity: 'CRITICAL' }])
  })

  it('says nothing when the probe failed where the scan succeeded; judges a scan that failed and a probe that did not', () => {
    const drained = [etherMovement(USER, OTHER, ETH)]
    expect(judge([], drained, { probe: false })).toEqual([])
    expect(judge([], drained, { scan: 'failed' })).toMatchObject([{ severity: 'CRITICAL' }])
  })

  it('no probe, no verdict', () => {
    const drained = [etherMovement(USER, OTHER, ETH)]
    expect(simulationEvasionWarnings([outcome('success')], [], null, () => true, 1, metadata)).toEqual([])
    expect(judge(drained, drained)).toEqual([])
  })

  it('a contract whose reads write is named with its symbol; two are named together, in the plural', () => {
    const [one, two] = [
      '0x00000000000000000000000000000000000000a1',
      '0x00000000000000000000000000000000000000b2',
    ] as Address[]
    const metadataOf = (token: Address) => ({ name: null, symbol: token === one ? 'WGIFT' : null, decimals: null })
    const [single] = stateWritingReadWarnings([one as Address], metadataOf as never)
    expect(single?.message).toMatch(
      /^WGIFT \(0x0000…00a1\) writes to its own state when only read .* treat it as hostile\.$/,
    )
    const [both] = stateWritingReadWarnings([one as Address, two as Address], metadataOf as never)
    expect(both?.message).toMatch(
      /^WGIFT \(0x0000…00a1\), 0x0000…00b2 write to their own state when only read .* treat them as hostile\.$/,
    )
    expect(both?.data).toEqual({ contracts: [one, two] })
  })
})
