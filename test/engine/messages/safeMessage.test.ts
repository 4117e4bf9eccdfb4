/**
 * Safe messages as each Safe version hashes them (the domain without chainId before 1.3.0), against the contracts'
 * own hashing written out from their Solidity, and what the scan makes of a message a Safe would not check.
 */
import { type Address, concat, encodeAbiParameters, type Hex, keccak256, parseAbiParameters, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { findSafeMessage, type SafeMessage, safeMessageWarnings } from '../../../src/engine/messages/safeMessage.ts'
import { parseTypedData } from '../../../src/engine/messages/typedData.ts'
import type { SafeContext } from '../../../src/engine/safe/index.ts'
import { safeMessageHash } from '../../../src/engine/safe/versions.ts'

const SAFE: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const OWNER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SIGNED = keccak256(toHex('a dapp’s message'))

/** getMessageHash as the Safe contracts write it: SafeMessage(bytes message) under the Safe's domain separator. */
function contractHash(chainId: bigint | null, message: Hex): Hex {
  const domainSeparator = keccak256(
    chainId === null
      ? encodeAbiParameters(parseAbiParameters('bytes32, address'), [
          keccak256(toHex('EIP712Domain(address verifyingContract)')),
          SAFE,
        ])
      : encodeAbiParameters(parseAbiParameters('bytes32, uint256, address'), [
          keccak256(toHex('EIP712Domain(uint256 chainId,address verifyingContract)')),
          chainId,
          SAFE,
        ]),
  )
  const structHash = keccak256(
    encodeAbiParameters(parseAbiParameters('bytes32, bytes32'), [
      keccak256(toHex('SafeMessage(bytes message)')),
      keccak256(message),
    ]),
  )
  return keccak256(concat(['0x1901', domainSeparator, structHash]))
}

function parsed(domain: Record<string, unknown>, primaryType = 'SafeMessage', field = 'message') {
  const domainTypes = Object.keys(domain).map((name) => ({
    name,
    type: name === 'chainId' ? 'uint256' : 'address',
  }))
  const result = parseTypedData({
    types: { EIP712Domain: domainTypes, [primaryType]: [{ name: field, type: 'bytes' }] },
    primaryType,
    domain,
    message: { [field]: SIGNED },
  })
  if (!result.ok) throw new Error(result.error.message)
  return result.typedData
}

const safe = (version: string): SafeContext => ({
  address: SAFE,
  owners: [OWNER],
  threshold: 1,
  nonce: 0n,
  version,
  singleton: null,
})

function found(domain: Record<string, unknown>, field?: string): SafeMessage {
  const message = findSafeMessage(parsed(domain, 'SafeMessage', field))
  if (!message) throw new Error('not read as a Safe message')
  return message
}

describe('safeMessageHash', () => {
  it('hashes as Safe 1.3.0 and later do, with the chain id, and as earlier Safes do, without', () => {
    expect(safeMessageHash('1.4.1', 31337n, SAFE, SIGNED)).toBe(contractHash(31337n, SIGNED))
    expect(safeMessageHash('1.3.0+L2', 1, SAFE, SIGNED)).toBe(contractHash(1n, SIGNED))
    expect(safeMessageHash('1.1.1', 31337n, SAFE, SIGNED)).toBe(contractHash(null, SIGNED))
  })
})

describe('findSafeMessage and safeMessageWarnings', () => {
  it('reads a message under either Safe domain, and the Safe’s own version checks it without a mismatch', () => {
    const current = found({ chainId: 31337, verifyingContract: SAFE })
    const legacy = found({ verifyingContract: SAFE })
    expect(current.hash).toBe(contractHash(31337n, SIGNED))
    expect(legacy).toMatchObject({ chainId: null, message: SIGNED, hash: contractHash(null, SIGNED) })
    const kinds = (warnings: { kind: string }[]) => warnings.map((warning) => warning.kind)
    expect(kinds(safeMessageWarnings(current, safe('1.4.1'), OWNER, 31337))).toEqual(['MULTISIG_BLIND_SIGNATURE'])
    expect(kinds(safeMessageWarnings(legacy, safe('1.1.1'), OWNER, 31337))).toEqual(['MULTISIG_BLIND_SIGNATURE'])
    // The other version's domain is a hash the Safe never checks.
    expect(kinds(safeMessageWarnings(legacy, safe('1.4.1'), OWNER, 31337))).toEqual([
      'MULTISIG_HASH_MISMATCH',
      'MULTISIG_BLIND_SIGNATURE',
    ])
  })

  it('says how the Safe hashes when a renamed field makes the signature worthless', () => {
    const renamed = found({ chainId: 31337, verifyingContract: SAFE }, 'data')
    const [mismatch] = safeMessageWarnings(renamed, safe('1.4.1'), OWNER, 31337)
    expect(mismatch?.kind).toBe('MULTISIG_HASH_MISMATCH')
    expect(mismatch?.message).toContain('hashes its messages as SafeMessage(bytes message) with the chain id')
    expect(mismatch?.message).toContain(contractHash(31337n, SIGNED))
  })

  it('does not take a struct of two fields, or a bytes32 field, for a Safe message', () => {
    const two = parseTypedData({
      types: {
        EIP712Domain: [{ name: 'verifyingContract', type: 'address' }],
        Note: [
          { name: 'message', type: 'bytes' },
          { name: 'to', type: 'address' },
        ],
      },
      primaryType: 'Note',
      domain: { verifyingContract: SAFE },
      message: { message: SIGNED, to: OWNER },
    })
    const fixed = parseTypedData({
      types: { EIP712Domain: [{ name: 'verifyingContract', type: 'address' }], Note: [{ name: 'h', type: 'bytes32' }] },
      primaryType: 'Note',
      domain: { verifyingContract: SAFE },
      message: { h: SIGNED },
    })
    for (const result of [two, fixed]) {
      if (!result.ok) throw new Error(result.error.message)
      expect(findSafeMessage(result.typedData)).toBeNull()
    }
  })
})
