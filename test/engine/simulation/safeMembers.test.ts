/** The addresses a Safe is asked about: those calldata mentions at any offset, and the candidates' order and bounds. */
import { type Address, concat, encodeAbiParameters, encodeFunctionData, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { safeAbi } from '../../../src/engine/abi/index.ts'
import {
  loggedCandidates,
  MAX_MEMBER_CANDIDATES,
  memberCandidates,
  mentionedAddresses,
} from '../../../src/engine/simulation/safeMembers.ts'

const MODULE: Address = '0x7099797051812dc3a010c7d01b50e0d17dc79c8a'
const VANITY: Address = '0x000000219ab540356cbb839cbe05303d7705fa11'
const SAFE: Address = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
const abi = parseAbi(['function install(address module)', 'function run(address to, bytes data)'])

describe('mentionedAddresses', () => {
  it('finds an address nested in calldata off the word grid, and one with leading zero bytes', () => {
    const inner = encodeFunctionData({ abi, functionName: 'install', args: [MODULE] })
    // The inner call starts 4 + 2 * 32 + 32 bytes in: its argument sits 8 bytes off the outer word grid.
    const outer = encodeFunctionData({ abi, functionName: 'run', args: [SAFE, inner] })
    expect(mentionedAddresses(outer)).toEqual(expect.arrayContaining([SAFE, MODULE]))
    const vanity = encodeAbiParameters([{ type: 'address' }], [VANITY])
    expect(mentionedAddresses(concat(['0xff', vanity]))).toContain(VANITY)
  })

  it('finds nothing in bytes without a run of twelve zero bytes', () => {
    expect(mentionedAddresses(`0x${'ab'.repeat(100)}`)).toEqual([])
  })
})

describe('memberCandidates', () => {
  it('asks about the accounts and calls first, then what calldata mentions, never about the excluded', () => {
    const data = encodeFunctionData({ abi, functionName: 'install', args: [MODULE] })
    const call = { from: SAFE, to: VANITY, value: 0n, data, depth: 0 }
    expect(memberCandidates([SAFE], [call], [])).toEqual([SAFE, VANITY, MODULE])
    expect(memberCandidates([SAFE], [call], [MODULE])).toEqual([SAFE, VANITY])
  })

  it("searches what a Safe transaction runs, not its signatures (under the preset, the simulation's own)", () => {
    const zero = '0x0000000000000000000000000000000000000000'
    const signer: Address = '0x1111111111111111111111111111111111111111'
    const signatures = concat([encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [signer, 65n]), '0x00'])
    const inner = encodeFunctionData({ abi, functionName: 'install', args: [MODULE] })
    const data = encodeFunctionData({
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [VANITY, 0n, inner, 1, 0n, 0n, 0n, zero, zero, signatures],
    })
    const candidates = memberCandidates([SAFE], [{ from: SAFE, to: SAFE, value: 0n, data, depth: 0 }], [])
    expect(candidates).toContain(MODULE)
    expect(candidates).not.toContain(signer)
  })

  it('asks about at most MAX_MEMBER_CANDIDATES', () => {
    const many = Array.from({ length: 400 }, (_, index) =>
      encodeAbiParameters([{ type: 'uint160' }], [BigInt(index + 1) << 100n]),
    )
    const call = { from: SAFE, to: null, value: 0n, data: concat(many), depth: 0 }
    expect(memberCandidates([], [call], [])).toHaveLength(MAX_MEMBER_CANDIDATES)
  })

  it('takes from logs only what the calls did not mention', () => {
    const log = { address: SAFE, topics: [encodeAbiParameters([{ type: 'address' }], [MODULE])], data: '0x' as const }
    expect(loggedCandidates([log], [SAFE], [])).toEqual([MODULE])
  })
})
