/**
 * Addresses and numbers in typed data are read as MetaMask's own encoder (@metamask/eth-sig-util, the library behind
 * its eth_signTypedData_v4) reads them: the digest Preflight computes is the digest the wallet signs, for every form
 * the wallet accepts, and every address not written canonically is noted.
 */
import { SignTypedDataVersion, TypedDataUtils } from '@metamask/eth-sig-util'
import { bytesToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { EIP2612_PERMIT_FIELDS, NAMED_DOMAIN_FIELDS } from '../../../src/devnet/eip712.ts'
import { hashTypedPayload, parseTypedData } from '../../../src/engine/messages/typedData.ts'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const SPENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function permit(verifyingContract: unknown, spender: unknown, value: unknown = '1000') {
  return {
    types: { EIP712Domain: NAMED_DOMAIN_FIELDS, Permit: EIP2612_PERMIT_FIELDS },
    primaryType: 'Permit',
    domain: { name: 'USD Coin', version: '1', chainId: 31337, verifyingContract },
    message: { owner: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', spender, value, nonce: 0, deadline: '99999999999' },
  }
}

/** The digest MetaMask signs, or its error. */
function walletDigest(payload: object): string {
  try {
    return bytesToHex(TypedDataUtils.eip712Hash(payload as never, SignTypedDataVersion.V4))
  } catch (error) {
    return `refused: ${(error as Error).message}`
  }
}

function preflight(payload: object) {
  const parsed = parseTypedData(JSON.parse(JSON.stringify(payload)))
  if (!parsed.ok) return { digest: `refused: ${parsed.error.message}`, unusual: [] }
  return { digest: hashTypedPayload(parsed.typedData).hash, unusual: parsed.typedData.unusualAddresses }
}

const canonicalDigest = walletDigest(permit(TOKEN, SPENDER))

describe('typed data read as the wallet reads it', () => {
  it.each([
    ['lowercase', SPENDER.toLowerCase(), true],
    ['uppercase hex', `0x${SPENDER.slice(2).toUpperCase()}`, true],
    ['decimal text', BigInt(SPENDER).toString(), false],
    ['a wrong checksum', '0x70997970c51812dc3a010c7d01b50e0d17dc79C8', false],
    ['0X prefix', `0X${SPENDER.slice(2)}`, false],
    ['decimal with leading zeros', `000${BigInt(SPENDER).toString()}`, false],
  ])('a spender written as %s is the same address, signed alike', (_form, written, canonical) => {
    const payload = permit(TOKEN, written)
    expect(walletDigest(payload)).toBe(canonicalDigest)
    const read = preflight(payload)
    expect(read.digest).toBe(canonicalDigest)
    expect(read.unusual).toEqual(
      canonical ? [] : [{ field: 'message.spender', written, address: SPENDER.toLowerCase() }],
    )
  })

  it.each([
    ['hex without 0x', SPENDER.slice(2)],
    ['a short hex', '0x4d2'],
    ['a number', 1234],
    ['text with letters', 'drainer'],
  ])('a spender written as %s is read as the wallet reads it, whatever address that is', (_form, written) => {
    const payload = permit(TOKEN, written)
    const wallet = walletDigest(payload)
    expect(wallet).toMatch(/^0x[0-9a-f]{64}$/)
    const read = preflight(payload)
    expect(read.digest).toBe(wallet)
    expect(read.unusual).toHaveLength(1)
    expect(read.unusual[0]?.written).toBe(String(written))
  })

  it('a verifying contract written in decimal hashes like the canonical one, and is noted', () => {
    const payload = permit(BigInt(TOKEN).toString(), SPENDER)
    expect(walletDigest(payload)).toBe(canonicalDigest)
    const read = preflight(payload)
    expect(read.digest).toBe(canonicalDigest)
    expect(read.unusual.map((u) => u.field)).toEqual(['domain.verifyingContract'])
  })

  it('an address longer than 20 bytes is refused by both, even when the extra bytes are zeros', () => {
    const payload = permit(TOKEN, `0x000000${SPENDER.slice(2)}`)
    expect(walletDigest(payload)).toMatch(/^refused/)
    expect(preflight(payload).digest).toMatch(/^refused: .*more than 20 bytes/)
  })

  it.each([
    ['decimal', '1000'],
    ['hex', '0x3e8'],
    ['binary', '0b1111101000'],
    ['padded with spaces', ' 1000 '],
    ['a JSON number', 1000],
  ])('an amount written as %s is the same number to both', (_form, value) => {
    const payload = permit(TOKEN, SPENDER, value)
    expect(walletDigest(payload)).toBe(canonicalDigest)
    expect(preflight(payload).digest).toBe(canonicalDigest)
  })

  it.each([['1e3'], ['1.0'], ['-1'], ['ff']])('an amount written as %s is refused by both', (value) => {
    const payload = permit(TOKEN, SPENDER, value)
    expect(walletDigest(payload)).toMatch(/^refused/)
    expect(preflight(payload).digest).toMatch(/^refused/)
  })

  it('bytes written as text are signed as their UTF-8 bytes, as the wallet signs them', () => {
    const payload = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Note: [{ name: 'data', type: 'bytes' }] },
      primaryType: 'Note',
      domain: { chainId: 1 },
      message: { data: 'hello' },
    }
    expect(preflight(payload).digest).toBe(walletDigest(payload))
    expect(preflight({ ...payload, message: { data: '0xabc' } }).digest).toBe(
      walletDigest({ ...payload, message: { data: '0xabc' } }),
    )
  })

  /** Hyperliquid's agent approval, as its SDKs send it: a struct named `HyperliquidTransaction:ApproveAgent`. */
  const approveAgent = (fields: { name: string; type: string }[], extra: object = {}) => ({
    types: { EIP712Domain: NAMED_DOMAIN_FIELDS, 'HyperliquidTransaction:ApproveAgent': fields, ...extra },
    primaryType: 'HyperliquidTransaction:ApproveAgent',
    domain: {
      name: 'HyperliquidSignTransaction',
      version: '1',
      chainId: 42161,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    },
    message: { hyperliquidChain: 'Mainnet', agentAddress: SPENDER, agentName: 'bot', nonce: 1764254000000 },
  })
  const AGENT_FIELDS = [
    { name: 'hyperliquidChain', type: 'string' },
    { name: 'agentAddress', type: 'address' },
    { name: 'agentName', type: 'string' },
    { name: 'nonce', type: 'uint64' },
  ]

  it("a struct named past word characters that holds no struct (Hyperliquid's) is signed alike, and read", () => {
    const payload = approveAgent(AGENT_FIELDS)
    expect(walletDigest(payload)).toMatch(/^0x[0-9a-f]{64}$/)
    expect(preflight(payload).digest).toBe(walletDigest(payload))
  })

  it('a struct named past word characters that holds a struct is refused: wallets drop what it holds', () => {
    const payload = approveAgent([...AGENT_FIELDS, { name: 'limit', type: 'Limit' }], {
      Limit: [{ name: 'amount', type: 'uint256' }],
    })
    expect(preflight(payload).digest).toMatch(/"HyperliquidTransaction:ApproveAgent" is not a valid struct type name/)
  })
})
