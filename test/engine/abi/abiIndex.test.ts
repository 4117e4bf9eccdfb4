/** The selector index: the same answers as viem's decodeFunctionData and decodeEventLog, without their ABI search. */
import { decodeFunctionData, encodeEventTopics, encodeFunctionData, getAbiItem, type Hex, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  decodeArguments,
  eventsForTopic,
  functionDecoder,
  functionsForCalldata,
} from '../../../src/engine/abi/abiIndex.ts'
import { erc20Abi, erc721Abi, safeAbi, wethAbi } from '../../../src/engine/abi/abis.ts'

const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BOB, parseUnits('5', 6)] })

describe('functions by selector', () => {
  it('finds every known function a selector may mean, in decodingAbis order, and decodes as viem does', () => {
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [BOB, 7n] })
    // ERC-20 and ERC-721 approve(address,uint256) share a selector: both are candidates, ERC-20 first.
    expect(functionsForCalldata(approve).map(({ abi, item }) => [abi === erc20Abi, item.name])).toEqual([
      [true, 'approve'],
      [false, 'approve'],
    ])
    const [candidate] = functionsForCalldata(transfer)
    if (!candidate) throw new Error('transfer not indexed')
    expect(decodeArguments(candidate.item, transfer)).toEqual(
      decodeFunctionData({ abi: erc20Abi, data: transfer }).args,
    )
  })

  it('knows nothing of unknown selectors, short data or an upper-case selector (viem compares case too)', () => {
    expect(functionsForCalldata('0xdeadbeef')).toEqual([])
    expect(functionsForCalldata('0x')).toEqual([])
    expect(functionsForCalldata(transfer.toUpperCase().replace('0X', '0x') as Hex)).toEqual([])
  })

  it('decodes a function without inputs to [] and throws on arguments that do not fit', () => {
    const deposit = getAbiItem({ abi: wethAbi, name: 'deposit' })
    expect(decodeArguments(deposit, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }))).toEqual([])
    const [candidate] = functionsForCalldata(transfer)
    if (!candidate) throw new Error('transfer not indexed')
    expect(() => decodeArguments(candidate.item, transfer.slice(0, 50) as Hex)).toThrow()
  })

  it('a function decoder answers null for other calls and the arguments for its own', () => {
    const decodeExec = functionDecoder(getAbiItem({ abi: safeAbi, name: 'execTransaction' }))
    expect(decodeExec(transfer)).toBeNull()
    const exec = encodeFunctionData({
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [BOB, 1n, '0x', 0, 0n, 0n, 0n, BOB, BOB, '0x1234'],
    })
    expect(decodeExec(exec)).toEqual(decodeFunctionData({ abi: safeAbi, data: exec }).args)
  })
})

describe('events by topic', () => {
  it('lists both Transfer layouts (ERC-20 and ERC-721) under their shared signature hash', () => {
    const [topic] = encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer' })
    expect(eventsForTopic(topic as Hex).map(({ abi }) => abi)).toEqual([erc20Abi, erc721Abi])
    expect(eventsForTopic(`0x${'00'.repeat(32)}`)).toEqual([])
  })
})
