import { maxUint160, maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  DAI_PERMIT_FIELDS,
  EIP2612_PERMIT_FIELDS,
  ERC721_PERMIT_FIELDS,
  PERMIT2_DOMAIN_FIELDS,
  PERMIT2_TYPES,
} from '../../../src/devnet/eip712.ts'
import type { Address } from '../../../src/engine/index.ts'
import {
  findNftPermit,
  findTokenPermits,
  isPracticallyPermanent,
  isPracticallyUnlimited,
  type PermitContext,
  permitWarnings,
} from '../../../src/engine/messages/permits.ts'
import { parseTypedData, type TypedData } from '../../../src/engine/messages/typedData.ts'

const USER = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045' as Address
const TOKEN = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' as Address
const SPENDER = '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45' as Address
const NOW = 1_700_000_000

const domain = (verifyingContract: string) => ({
  types: PERMIT2_DOMAIN_FIELDS,
  values: { name: 'Token', chainId: '1', verifyingContract },
})

function typed(
  primaryType: string,
  types: Record<string, { name: string; type: string }[]>,
  message: object,
): TypedData {
  const d = domain(TOKEN)
  const result = parseTypedData({ types: { EIP712Domain: d.types, ...types }, primaryType, domain: d.values, message })
  if (!result.ok) throw new Error(`${result.error.field}: ${result.error.message}`)
  return result.typedData
}

const { PermitDetails, PermitSingle, PermitBatch, TokenPermissions, transferFields } = PERMIT2_TYPES

const context = (overrides: Partial<PermitContext> = {}): PermitContext => ({
  now: NOW,
  spenderHasCode: () => true,
  totalSupply: () => null,
  symbol: () => 'USDC',
  balance: () => null,
  ...overrides,
})

describe('findTokenPermits', () => {
  it('reads an EIP-2612 permit: the token is the verifying contract', () => {
    const td = typed(
      'Permit',
      { Permit: EIP2612_PERMIT_FIELDS },
      { owner: USER, spender: SPENDER, value: '123000000', nonce: '7', deadline: NOW + 3600 },
    )
    expect(findTokenPermits(td, USER)).toEqual([
      {
        standard: 'EIP2612',
        token: TOKEN,
        owner: USER,
        spender: SPENDER,
        amount: 123000000n,
        nonce: 7n,
        expiresAt: BigInt(NOW + 3600),
      },
    ])
  })

  it('reads a DAI-style permit: allowed=true is max uint256, expiry 0 never expires', () => {
    const td = typed(
      'Permit',
      { Permit: DAI_PERMIT_FIELDS },
      { holder: USER, spender: SPENDER, nonce: 0, expiry: 0, allowed: true },
    )
    const [permit] = findTokenPermits(td, USER)
    expect(permit).toMatchObject({ standard: 'DAI', amount: maxUint256, expiresAt: null, owner: USER })
  })

  it('reads Permit2 PermitSingle and PermitBatch (one permit per token), owned by the signer', () => {
    const other = '0x1111111111111111111111111111111111111111'
    const single = typed(
      'PermitSingle',
      { PermitSingle, PermitDetails },
      {
        details: { token: TOKEN, amount: maxUint160.toString(), expiration: '281474976710655', nonce: '0' },
        spender: SPENDER,
        sigDeadline: NOW + 1800,
      },
    )
    expect(findTokenPermits(single, USER)).toEqual([
      {
        standard: 'PERMIT2_ALLOWANCE',
        token: TOKEN,
        owner: USER,
        spender: SPENDER,
        amount: maxUint160,
        nonce: 0n,
        expiresAt: 281474976710655n,
      },
    ])
    const batch = typed(
      'PermitBatch',
      { PermitBatch, PermitDetails },
      {
        details: [
          { token: TOKEN, amount: '5', expiration: NOW + 60, nonce: 1 },
          { token: other, amount: '9', expiration: 0, nonce: 2 },
        ],
        spender: SPENDER,
        sigDeadline: NOW + 1800,
      },
    )
    const permits = findTokenPermits(batch, USER)
    expect(permits.map((p) => [p.token, p.amount, p.expiresAt])).toEqual([
      [TOKEN, 5n, BigInt(NOW + 60)],
      // Permit2's expiration 0 means "this block": the signature deadline bounds it.
      [other, 9n, BigInt(NOW + 1800)],
    ])
  })

  it('reads Permit2 PermitTransferFrom and PermitWitnessTransferFrom', () => {
    const plain = typed(
      'PermitTransferFrom',
      {
        PermitTransferFrom: [{ name: 'permitted', type: 'TokenPermissions' }, ...transferFields],
        TokenPermissions,
      },
      { permitted: { token: TOKEN, amount: '13675000000' }, spender: SPENDER, nonce: '0', deadline: '281474976710655' },
    )
    expect(findTokenPermits(plain, USER)).toMatchObject([
      { standard: 'PERMIT2_TRANSFER', token: TOKEN, amount: 13675000000n, expiresAt: 281474976710655n },
    ])
    const witness = typed(
      'PermitWitnessTransferFrom',
      {
        PermitWitnessTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          ...transferFields,
          { name: 'witness', type: 'MockWitness' },
        ],
        TokenPermissions,
        MockWitness: [{ name: 'mock', type: 'uint256' }],
      },
      {
        permitted: { token: TOKEN, amount: '1' },
        spender: SPENDER,
        nonce: '3',
        deadline: NOW + 10,
        witness: { mock: '0x00' },
      },
    )
    expect(findTokenPermits(witness, USER)).toMatchObject([{ standard: 'PERMIT2_TRANSFER', nonce: 3n, owner: USER }])
  })

  it('finds nothing in typed data of another shape, and an ERC-721 permit only where it is one', () => {
    const nft = typed(
      'Permit',
      { Permit: ERC721_PERMIT_FIELDS },
      { spender: SPENDER, tokenId: '42', nonce: '0', deadline: NOW },
    )
    expect(findTokenPermits(nft, USER)).toEqual([])
    expect(findNftPermit(nft, USER)).toEqual({
      token: TOKEN,
      owner: USER,
      spender: SPENDER,
      tokenId: 42n,
      nonce: 0n,
      deadline: BigInt(NOW),
    })
  })
})

describe('permit warnings', () => {
  const permit = {
    standard: 'EIP2612' as const,
    token: TOKEN,
    owner: USER,
    spender: SPENDER,
    amount: 100n,
    nonce: 0n,
    expiresAt: BigInt(NOW + 3600),
  }

  it('calls max uint160, max uint256 and anything above the total supply unlimited, and no more', () => {
    expect(isPracticallyUnlimited(maxUint160, null)).toBe(true)
    expect(isPracticallyUnlimited(maxUint256, null)).toBe(true)
    expect(isPracticallyUnlimited(2n ** 159n, null)).toBe(true)
    expect(isPracticallyUnlimited(2n ** 159n - 2n, null)).toBe(false)
    expect(isPracticallyUnlimited(1_000_001n, 1_000_000n)).toBe(true)
    expect(isPracticallyUnlimited(1_000_000n, 1_000_000n)).toBe(false)
  })

  it('calls no expiry and expiries more than ten years away permanent', () => {
    expect(isPracticallyPermanent(null, NOW)).toBe(true)
    expect(isPracticallyPermanent(2n ** 48n - 1n, NOW)).toBe(true)
    expect(isPracticallyPermanent(BigInt(NOW + 9 * 365 * 86400), NOW)).toBe(false)
  })

  it('warns about an unlimited, permanent permit to a plain account, once per token and spender', () => {
    const unlimited = { ...permit, amount: maxUint256, expiresAt: null }
    const warnings = permitWarnings([unlimited, unlimited], [], context({ spenderHasCode: () => false }))
    expect(warnings.map((w) => [w.kind, w.severity])).toEqual([
      ['PERMIT_UNLIMITED_ALLOWANCE', 'WARNING'],
      ['PERMIT_NO_EXPIRATION', 'WARNING'],
      ['APPROVAL_TO_EOA', 'WARNING'],
    ])
    expect(warnings[0]?.message).toContain('all of your USDC')
  })

  it('says nothing about a bounded, short permit to a contract', () => {
    expect(permitWarnings([permit], [], context({ totalSupply: () => 10_000n }))).toEqual([])
  })
})
