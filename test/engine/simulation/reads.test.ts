/**
 * The reads' decoders: a one-word uint256 answer is read directly, and reads as the ABI decoder reads it; and the
 * reader's static-call wrapper, encoded by concatenation, is what the ABI encoder makes.
 */
import {
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseAbi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import {
  allowanceRead,
  erc20BalanceRead,
  nativeBalanceRead,
  readOnlyCall,
  tokenMetadataReads,
} from '../../../src/engine/simulation/reads.ts'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const word = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])
const viemBalance = (data: Hex) => decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data })

describe('read decoders', () => {
  it('read a one-word uint256 answer as its value, as the ABI decoder does', () => {
    for (const value of [0n, 1n, 10n ** 18n, maxUint256]) {
      expect(nativeBalanceRead(ACCOUNT).decode(word(value))).toBe(value)
      expect(erc20BalanceRead(TOKEN, ACCOUNT).decode(word(value))).toBe(viemBalance(word(value)))
      expect(allowanceRead(TOKEN, ACCOUNT, TOKEN).decode(word(value))).toBe(value)
    }
  })

  it('leave any other length to the ABI decoder: the first word of a longer answer, an error for a short one', () => {
    const longer = `${word(7n)}${word(9n).slice(2)}` as Hex
    expect(erc20BalanceRead(TOKEN, ACCOUNT).decode(longer)).toBe(viemBalance(longer))
    expect(erc20BalanceRead(TOKEN, ACCOUNT).decode(longer)).toBe(7n)
    expect(() => erc20BalanceRead(TOKEN, ACCOUNT).decode('0x01')).toThrow()
  })

  it('decode other return types with the ABI decoder (decimals as a number, not a bigint)', () => {
    const decimals = tokenMetadataReads(TOKEN).find((read) => read.key.startsWith('decimals:'))
    expect(decimals?.decode(word(18n))).toBe(18)
  })
})

describe('readOnlyCall', () => {
  const readOnly = parseAbi(['function readOnly(address target, bytes data)'])

  it('is readOnly(target, data) as the ABI encodes it, for data of no, part, one and several words', () => {
    const reads = [allowanceRead(TOKEN, ACCOUNT, TOKEN), ...tokenMetadataReads(TOKEN)].map((read) => read.data)
    for (const data of ['0x', '0xab', `0x${'cd'.repeat(32)}`, `0x${'ef'.repeat(100)}`, ...reads] as Hex[]) {
      const expected = encodeFunctionData({ abi: readOnly, functionName: 'readOnly', args: [TOKEN, data] })
      expect(readOnlyCall(TOKEN, data)).toBe(expected)
    }
  })
})
