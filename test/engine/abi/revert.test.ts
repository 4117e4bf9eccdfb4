/** Revert data as a reason a person can read: Error(string) with Safe's GS codes, Panic, OpenZeppelin errors. */
import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevert, explainSafeCode } from '../../../src/engine/abi/revert.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('decodeRevert', () => {
  const errorString = (message: string) =>
    encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [message] })

  it('explains Safe GS codes in plain English', () => {
    expect(decodeRevert(errorString('GS013'))).toEqual({
      reason: 'execution reverted: GS013',
      explanation:
        'The transaction would fail. Safe error GS013: the Safe transaction itself failed (its inner call reverted) and neither safeTxGas nor gasPrice was set.',
    })
    expect(explainSafeCode('GS026')).toMatch(/not an owner/)
    expect(explainSafeCode('Ownable: caller is not the owner')).toBeNull()
  })

  it('decodes Error(string), Panic and OpenZeppelin custom errors', () => {
    expect(decodeRevert(errorString('forward failed')).explanation).toBe('The transaction would fail: forward failed.')
    const panic = encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] })
    expect(decodeRevert(panic)).toEqual({
      reason: 'execution reverted: Panic(0x11)',
      explanation: 'The transaction would fail: an arithmetic operation overflowed or underflowed.',
    })
    const allowance = encodeErrorResult({
      abi: parseAbi(['error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)']),
      errorName: 'ERC20InsufficientAllowance',
      args: [ALICE, 1n, 2n],
    })
    expect(decodeRevert(allowance).explanation).toBe(
      `The transaction would fail: the spender ${ALICE} is allowed 1 base units of the token but 2 are needed.`,
    )
  })

  it('reports unknown errors by selector and empty reverts as such', () => {
    expect(decodeRevert('0xdeadbeef').reason).toBe('execution reverted: custom error 0xdeadbeef')
    expect(decodeRevert('0x')).toEqual({
      reason: 'execution reverted',
      explanation: 'The transaction reverted without giving a reason.',
    })
  })
})
