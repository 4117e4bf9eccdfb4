/** The preset's pre-validated signature, and MultiSend batches unwrapped into their calls. */
import { concat, encodeAbiParameters, encodeFunctionData, encodePacked, parseAbi, parseEther, size } from 'viem'
import { describe, expect, it } from 'vitest'
import { multiSendAbi } from '../../../src/engine/abi/abis.ts'
import { decodeMultiSend, expandCalls } from '../../../src/engine/safe/calls.ts'
import { prevalidatedSignature } from '../../../src/engine/safe/preset.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('Safe helpers', () => {
  it('the pre-validated signature is r = owner, s = 0, v = 1 (65 bytes)', () => {
    const signature = prevalidatedSignature(ALICE)
    expect(size(signature)).toBe(65)
    expect(signature).toBe(
      concat([
        encodeAbiParameters([{ type: 'address' }], [ALICE]),
        encodeAbiParameters([{ type: 'uint256' }], [0n]),
        '0x01',
      ]),
    )
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
    expect(decodeMultiSend(data)).toEqual([
      { to: BOB, value: parseEther('1'), data: '0x', delegate: false },
      { to: ALICE, value: 0n, data: transfer, delegate: true },
    ])
    const calls = expandCalls({ from: ALICE, to: BOB, value: 0n, data, depth: 0 })
    expect(calls.map((call) => [call.from, call.to, call.depth, call.delegate])).toEqual([
      [ALICE, BOB, 0, undefined],
      [ALICE, BOB, 1, false],
      [ALICE, ALICE, 1, true],
    ])
  })
})
