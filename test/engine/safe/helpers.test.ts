/** The preset's signatures, and MultiSend batches unwrapped into their calls. */
import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  pad,
  parseAbi,
  parseEther,
  size,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { multiSendAbi } from '../../../src/engine/abi/abis.ts'
import { safeAbi } from '../../../src/engine/abi/index.ts'
import { decodeMultiSend, expandCalls } from '../../../src/engine/safe/calls.ts'
import { multisigPreset, PRESET_SIGNERS, presetSignatures, rememberThreshold } from '../../../src/engine/safe/preset.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('Safe helpers', () => {
  it('the preset signatures are contract signatures sorted by signer, sharing empty data past the static parts', () => {
    const signature = presetSignatures([BOB, ALICE])
    expect(size(signature)).toBe(2 * 65 + 32)
    const part = (signer: string) =>
      concat([
        encodeAbiParameters([{ type: 'address' }], [signer as `0x${string}`]),
        encodeAbiParameters([{ type: 'uint256' }], [130n]),
        '0x00',
      ])
    // BOB (0x3C44…) sorts before ALICE (0x7099…); the data both point to is an empty bytes (length 0).
    expect(signature).toBe(concat([part(BOB), part(ALICE), encodeAbiParameters([{ type: 'uint256' }], [0n])]))
  })

  it('the preset makes 32 signers for a Safe no scan has read on that node, then as many as its threshold', () => {
    const safe = '0x00000000000000000000000000000000005afe01'
    const zero = '0x0000000000000000000000000000000000000000'
    const data = encodeFunctionData({
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [BOB, 1n, '0x', 0, 0n, 0n, 0n, zero, zero, '0x'],
    })
    const signers = (node: string) => multisigPreset([{ to: safe, data }], [safe], node).signers
    expect(signers('http://node-a')).toHaveLength(PRESET_SIGNERS)
    rememberThreshold('http://node-a', safe, 3n)
    const three = signers('http://node-a')
    expect(three).toHaveLength(3)
    // Drawn for each scan: a payload cannot know them.
    expect(signers('http://node-a')).not.toEqual(three)
    expect(signers('http://node-b')).toHaveLength(PRESET_SIGNERS)
    rememberThreshold('http://node-a', safe, 100n)
    expect(signers('http://node-a')).toHaveLength(PRESET_SIGNERS)
  })

  it('unwraps MultiSend batches into their calls, from the caller (delegatecall semantics)', () => {
    const transfer = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 value)']),
      functionName: 'transfer',
      args: [BOB, 5n],
    })
    const packed = concat([
      encodePacked(['uint8', 'address', 'uint256', 'uint256'], [0, BOB, parseEther('1'), 0n]),
      encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [1, ALICE, 0n, BigInt(size(transfer)), transfer],
      ),
    ])
    const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
    expect(decodeMultiSend(data)).toEqual({
      calls: [
        { to: BOB, value: parseEther('1'), data: '0x', delegate: false },
        { to: ALICE, value: 0n, data: transfer, delegate: true },
      ],
      complete: true,
    })
    const calls = expandCalls({ from: ALICE, to: BOB, value: 0n, data, depth: 0 })
    expect(calls.map((call) => [call.from, call.to, call.depth, call.delegate])).toEqual([
      [ALICE, BOB, 0, undefined],
      [ALICE, BOB, 1, false],
      [ALICE, ALICE, 1, true],
    ])
  })

  it('reads a MultiSend batch as MultiSend’s loop does: up to 32 trailing bytes are skipped, an entry past the end is not read', () => {
    const entry = packedEntry(1, ALICE, '0x12345678')
    const batch = (packed: Hex) =>
      decodeMultiSend(encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] }))
    const delegate = { to: ALICE, value: 0n, data: '0x12345678', delegate: true }
    // MultiSend starts an entry only while more than 32 bytes remain: these trailing bytes never run.
    expect(batch(concat([entry, '0x00']))).toEqual({ calls: [delegate], complete: true })
    expect(batch(concat([entry, pad('0x', { size: 32 })]))).toEqual({ calls: [delegate], complete: true })
    // 33 trailing bytes start an entry whose header runs past the end: MultiSend runs it on the memory that follows.
    expect(batch(concat([entry, pad('0x01', { size: 33, dir: 'right' })]))).toEqual({
      calls: [delegate],
      complete: false,
    })
    // A data length beyond the batch's end.
    const long = encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [1, ALICE, 0n, 5n, '0x12345678'])
    expect(batch(long)).toEqual({ calls: [], complete: false })
    // An operation other than call or delegatecall reverts the whole batch: nothing after it runs.
    expect(batch(concat([entry, packedEntry(2, BOB, '0x'), entry]))).toEqual({ calls: [delegate], complete: true })
    // A multiSend call whose arguments do not decode is not read either.
    expect(decodeMultiSend('0x8d80ff0a00')).toEqual({ calls: [], complete: false })
    expect(decodeMultiSend('0x12345678')).toBeNull()
  })

  it('marks as unread a batch it cannot read in full and a call nested past the depth it unwraps', () => {
    const entry = (to: Hex, data: Hex) => packedEntry(1, to, data)
    const multiSend = (packed: Hex) =>
      encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
    const unread = (data: Hex) =>
      expandCalls({ from: ALICE, to: BOB, value: 0n, data, depth: 0 }).flatMap((call) =>
        call.unread ? [call.depth] : [],
      )
    expect(unread(multiSend(concat([entry(ALICE, '0x'), pad('0x01', { size: 33 })])))).toEqual([0])
    let nested = multiSend(entry(ALICE, '0x12345678'))
    for (let level = 1; level < 5; level++) nested = multiSend(entry(BOB, nested))
    // Five batches: the outer call at depth 0 and four inner ones, the last at depth 4, are read.
    expect(unread(nested)).toEqual([])
    expect(unread(multiSend(entry(BOB, nested)))).toEqual([5])
  })
})

/** One MultiSend entry with no value. */
function packedEntry(operation: number, to: Hex, data: Hex): Hex {
  return encodePacked(
    ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
    [operation, to, 0n, BigInt(size(data)), data],
  )
}
