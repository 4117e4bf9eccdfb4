/**
 * CoW pre-signatures found in calldata and in the settlement's events: one warning per order signed, whichever route
 * shows it, none for a withdrawn one or for an ID that is not an order's.
 */
import { type Address, concat, encodeAbiParameters, encodeFunctionData, type Hex, keccak256, pad, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { cowSettlementAbi } from '../../../src/engine/abi/abis.ts'
import { preSignatureWarnings } from '../../../src/engine/risk/orderPreSignatures.ts'
import type { Call } from '../../../src/engine/safe/index.ts'
import type { SimulatedLog } from '../../../src/engine/simulation/index.ts'

const SAFE: Address = '0x1111111111111111111111111111111111111111'
const SETTLEMENT: Address = '0x9008D19f58AAbD9eD0D60971565AA8510560ab41'
const DIGEST = keccak256(toHex('an order the transaction names only by its digest'))
const UID = concat([DIGEST, SAFE, toHex(1_900_000_000, { size: 4 })])
const PRE_SIGNATURE_TOPIC = keccak256(toHex('PreSignature(address,bytes,bool)'))

const call = (uid: Hex, signed = true): Call => ({
  from: SAFE,
  to: SETTLEMENT,
  value: 0n,
  data: encodeFunctionData({ abi: cowSettlementAbi, functionName: 'setPreSignature', args: [uid, signed] }),
  depth: 1,
})
const event = (uid: Hex, signed = true): SimulatedLog => ({
  address: SETTLEMENT,
  topics: [PRE_SIGNATURE_TOPIC, pad(SAFE)],
  data: encodeAbiParameters([{ type: 'bytes' }, { type: 'bool' }], [uid, signed]),
})
const isSafe = (owner: Address) => owner.toLowerCase() === SAFE.toLowerCase()

describe('preSignatureWarnings', () => {
  it('reads the order’s digest, owner and expiry from its ID, once for the call and its event', () => {
    const warnings = preSignatureWarnings([call(UID)], [event(UID)], isSafe)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({
      kind: 'MULTISIG_BLIND_SIGNATURE',
      severity: 'WARNING',
      data: { owner: SAFE.toLowerCase(), orderDigest: DIGEST, validTo: 1_900_000_000, orderUid: UID.toLowerCase() },
    })
  })

  it('an event alone (a module, an inner call) still warns; an owner that is no Safe gets the unreadable kind', () => {
    const [warning] = preSignatureWarnings([], [event(UID)], () => false)
    expect(warning?.kind).toBe('RELIABLE_SIMULATION_NOT_POSSIBLE')
    expect(warning?.message).toContain(UID.toLowerCase())
  })

  it('nothing for a withdrawn pre-signature, an ID of another length, or another event with the same topic', () => {
    expect(preSignatureWarnings([call(UID, false)], [event(UID, false)], isSafe)).toEqual([])
    const short = concat([DIGEST, SAFE])
    expect(preSignatureWarnings([call(short)], [event(short)], isSafe)).toEqual([])
    const garbled: SimulatedLog = { ...event(UID), data: '0x1234' }
    expect(preSignatureWarnings([], [garbled], isSafe)).toEqual([])
  })
})
