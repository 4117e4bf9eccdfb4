/** Smart accounts' execute calldata, unwrapped into the calls the account makes (and into expandCalls' list). */
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  pad,
  parseAbi,
  parseAbiParameters,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeAccountCalls } from '../../../src/engine/safe/accountCalls.ts'
import { expandCalls } from '../../../src/engine/safe/calls.ts'

const ACCOUNT_ABI = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function executeBatch(address[] dest, bytes[] func)',
  'function execute(bytes32 mode, bytes executionCalldata)',
])
const A = '0x1111111111111111111111111111111111111111' as Address
const B = '0x2222222222222222222222222222222222222222' as Address
const ACCOUNT = '0x3333333333333333333333333333333333333333' as Address
const TRANSFER = '0xa9059cbb' as Hex
/** ERC-7579 modes: the call type in the first byte, the rest zero (default execution). */
const mode = (callType: number) => pad(`0x${callType.toString(16).padStart(2, '0')}`, { dir: 'right', size: 32 })

describe('decodeAccountCalls', () => {
  it('reads execute(address,uint256,bytes)', () => {
    const data = encodeFunctionData({ abi: ACCOUNT_ABI, functionName: 'execute', args: [A, 5n, TRANSFER] })
    expect(decodeAccountCalls(data, ACCOUNT)).toEqual([{ to: A, value: 5n, data: TRANSFER }])
  })

  it('reads the three executeBatch forms (v0.8 tuples, v0.7 lists with and without values, v0.6 lists)', () => {
    const tuples = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'executeBatch',
      args: [
        [
          { target: A, value: 1n, data: '0x' },
          { target: B, value: 0n, data: TRANSFER },
        ],
      ],
    })
    const lists = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'executeBatch',
      args: [
        [A, B],
        [1n, 0n],
        ['0x', TRANSFER],
      ],
    })
    const noValues = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'executeBatch',
      args: [[A, B], [], ['0x', TRANSFER]],
    })
    const v06 = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'executeBatch',
      args: [
        [A, B],
        ['0x', TRANSFER],
      ],
    })
    const both = [
      { to: A, value: 1n, data: '0x' },
      { to: B, value: 0n, data: TRANSFER },
    ]
    expect(decodeAccountCalls(tuples, ACCOUNT)).toEqual(both)
    expect(decodeAccountCalls(lists, ACCOUNT)).toEqual(both)
    expect(decodeAccountCalls(noValues, ACCOUNT)).toEqual(both.map((call) => ({ ...call, value: 0n })))
    expect(decodeAccountCalls(v06, ACCOUNT)).toEqual(both.map((call) => ({ ...call, value: 0n })))
  })

  it('refuses lists whose lengths disagree, as the accounts do', () => {
    const lists = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'executeBatch',
      args: [[A, B], [1n], ['0x', TRANSFER]],
    })
    expect(decodeAccountCalls(lists, ACCOUNT)).toBeNull()
  })

  it("reads ERC-7579's single, batch and delegate executions", () => {
    const single = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'execute',
      args: [mode(0x00), encodePacked(['address', 'uint256', 'bytes'], [A, 7n, TRANSFER])],
    })
    const batch = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'execute',
      args: [
        mode(0x01),
        encodeAbiParameters(parseAbiParameters('(address target, uint256 value, bytes callData)[]'), [
          [
            { target: A, value: 1n, callData: '0x' },
            { target: B, value: 2n, callData: TRANSFER },
          ],
        ]),
      ],
    })
    const delegate = encodeFunctionData({
      abi: ACCOUNT_ABI,
      functionName: 'execute',
      args: [mode(0xff), concat([B, TRANSFER])],
    })
    expect(decodeAccountCalls(single, ACCOUNT)).toEqual([{ to: A, value: 7n, data: TRANSFER }])
    expect(decodeAccountCalls(batch, ACCOUNT)).toEqual([
      { to: A, value: 1n, data: '0x' },
      { to: B, value: 2n, data: TRANSFER },
    ])
    expect(decodeAccountCalls(delegate, ACCOUNT)).toEqual([{ to: B, value: 0n, data: TRANSFER, delegate: true }])
  })

  it('returns null for other calldata and for a malformed execution', () => {
    expect(decodeAccountCalls(TRANSFER, ACCOUNT)).toBeNull()
    const short = encodeFunctionData({ abi: ACCOUNT_ABI, functionName: 'execute', args: [mode(0x00), '0x1234'] })
    expect(decodeAccountCalls(short, ACCOUNT)).toBeNull()
  })
})

describe('expandCalls through an account', () => {
  it('lists the account as the sender of the calls it makes, nested calls too', () => {
    const inner = encodeFunctionData({ abi: ACCOUNT_ABI, functionName: 'execute', args: [B, 0n, TRANSFER] })
    const data = encodeFunctionData({ abi: ACCOUNT_ABI, functionName: 'execute', args: [ACCOUNT, 0n, inner] })
    const calls = expandCalls({ from: A, to: ACCOUNT, value: 0n, data, depth: 0 })
    expect(calls.map((call) => [call.from, call.to, call.depth])).toEqual([
      [A, ACCOUNT, 0],
      [ACCOUNT, ACCOUNT, 1],
      [ACCOUNT, B, 2],
    ])
  })
})
