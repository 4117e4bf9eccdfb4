import { describe, expect, it } from 'vitest'
import { ETHER_MAIL, NAMED_DOMAIN_FIELDS, type TypedDataField } from '../../../src/devnet/eip712.ts'
import { reorderedTextWarnings, walletDisagreementWarnings } from '../../../src/engine/messages/readability.ts'
import {
  decodeTypedMessage,
  hashTypedPayload,
  parseTypedData,
  structSignature,
  valuesOfType,
} from '../../../src/engine/messages/typedData.ts'

/** The example of the EIP-712 specification, whose digest the specification publishes; each call a fresh copy. */
const mail = () => ({
  types: { EIP712Domain: NAMED_DOMAIN_FIELDS, ...ETHER_MAIL.types } as Record<string, readonly TypedDataField[]>,
  primaryType: ETHER_MAIL.primaryType as string,
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1 as unknown,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  } as Record<string, unknown>,
  message: structuredClone(ETHER_MAIL.message) as Record<string, unknown>,
})

const MAIL_DIGEST = '0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2'

function errorOf(payload: unknown): string {
  const result = parseTypedData(payload)
  if (result.ok) throw new Error('expected an error')
  return `${result.error.field}: ${result.error.message}`
}

describe('parseTypedData + hashTypedPayload', () => {
  it('hashes the EIP-712 specification example to its published digest', () => {
    const result = parseTypedData(mail())
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const hashes = hashTypedPayload(result.typedData)
    expect(hashes.hash).toBe(MAIL_DIGEST)
    expect(hashes.domainHash).toBe('0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f')
    expect(hashes.messageHash).toBe('0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e')
  })

  it('accepts chainId as a number, a decimal string or a hex string, all hashing alike', () => {
    for (const chainId of [1, '1', '0x1']) {
      const payload = mail()
      payload.domain.chainId = chainId
      const result = parseTypedData(payload)
      expect(result.ok && hashTypedPayload(result.typedData).hash).toBe(MAIL_DIGEST)
    }
  })

  it('accepts addresses in any case and ignores message fields the types do not declare', () => {
    const payload = mail()
    payload.domain.verifyingContract = '0xcccccccccccccccccccccccccccccccccccccccc'
    payload.message.unsigned = 'not part of the signature'
    const result = parseTypedData(payload)
    expect(result.ok && hashTypedPayload(result.typedData).hash).toBe(MAIL_DIGEST)
  })

  it('keeps integers beyond 2^53 sent as strings exact', () => {
    const payload = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Big: [{ name: 'n', type: 'uint256' }] },
      primaryType: 'Big',
      domain: { chainId: '31337' },
      message: { n: '115792089237316195423570985008687907853269984665640564039457584007913129639935' },
    }
    const result = parseTypedData(payload)
    expect(result.ok && result.typedData.message.n).toBe(2n ** 256n - 1n)
  })

  it('decodes the primary type for display, nested structs as tuples', () => {
    const result = parseTypedData(mail())
    if (!result.ok) throw new Error(result.error.message)
    expect(decodeTypedMessage(result.typedData)).toEqual({
      primaryType: 'Mail',
      fields: [
        { name: 'from', type: 'Person', value: ['Cow', '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826'] },
        { name: 'to', type: 'Person', value: ['Bob', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] },
        { name: 'contents', type: 'string', value: 'Hello, Bob!' },
      ],
    })
    expect(structSignature(result.typedData.types, 'Person')).toBe('string name,address wallet')
  })
})

describe('malformed payloads: an error naming the field, never a throw', () => {
  it('no EIP712Domain', () => {
    const payload = mail()
    delete payload.types.EIP712Domain
    expect(errorOf(payload)).toMatch(/^message\.data\.types\.EIP712Domain: missing/)
  })

  it('undefined primary type', () => {
    expect(errorOf({ ...mail(), primaryType: 'Letter' })).toBe(
      'message.data.primaryType: "Letter" is not defined in message.data.types',
    )
  })

  it('a field of an undefined type', () => {
    const payload = mail()
    payload.types.Mail = [{ name: 'from', type: 'Sender' }]
    expect(errorOf(payload)).toMatch(/^message\.data\.types\.Mail\[0\]\.type: "Sender" is neither/)
  })

  it('wrong field types, named down to the nested field', () => {
    const permit = {
      types: {
        EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
        ],
        PermitDetails: [{ name: 'amount', type: 'uint160' }],
      },
      primaryType: 'PermitSingle',
      domain: { chainId: 1 },
      message: { details: { amount: 'abc' }, spender: '0x0000000000000000000000000000000000000001' },
    }
    expect(errorOf(permit)).toBe('message.data.message.details.amount: expected uint160, got "abc"')
    expect(errorOf({ ...permit, message: { details: { amount: '1' }, spender: `0x00${'12'.repeat(20)}` } })).toMatch(
      /^message\.data\.message\.spender: expected address, got "0x0012.*" \(more than 20 bytes\)$/,
    )
    const mailWithBadWallet = mail()
    mailWithBadWallet.message.to = { name: 'Bob', wallet: true }
    expect(errorOf(mailWithBadWallet)).toBe('message.data.message.to.wallet: expected address, got true')
  })

  it('array items are named by index and fixed lengths enforced', () => {
    const payload = {
      types: {
        EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
        Batch: [
          { name: 'flags', type: 'bool[2]' },
          { name: 'hashes', type: 'bytes32[]' },
        ],
      },
      primaryType: 'Batch',
      domain: { chainId: 1 },
      message: { flags: [true, false], hashes: [`0x${'ab'.repeat(32)}`, '0xabcd'] },
    }
    expect(errorOf(payload)).toBe('message.data.message.hashes[1]: expected bytes32, got "0xabcd"')
    expect(errorOf({ ...payload, message: { flags: [true], hashes: [] } })).toBe(
      'message.data.message.flags: expected bool[2] with 2 items, got 1',
    )
  })

  it('empty domain', () => {
    expect(errorOf({ ...mail(), domain: {} })).toMatch(/^message\.data\.domain: empty/)
  })

  it('a domain value of the wrong type, and a declared domain field with no value', () => {
    const payload = mail()
    payload.domain.chainId = 'mainnet'
    expect(errorOf(payload)).toBe('message.data.domain.chainId: expected uint256, got "mainnet"')
    delete payload.domain.chainId
    expect(errorOf(payload)).toBe('message.data.domain.chainId: missing (declared as uint256 in EIP712Domain)')
  })

  it('huge numbers: out of range, unsafe JSON numbers, absurdly long strings', () => {
    const payload = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], P: [{ name: 'amount', type: 'uint160' }] },
      primaryType: 'P',
      domain: { chainId: 1 },
      message: { amount: (2n ** 160n).toString() } as Record<string, unknown>,
    }
    expect(errorOf(payload)).toMatch(/^message\.data\.message\.amount: expected uint160, got ".*" \(out of range/)
    payload.message.amount = 1e30
    expect(errorOf(payload)).toMatch(
      /^message\.data\.message\.amount: expected uint160, got the number 1e\+30, beyond 2\^53/,
    )
    payload.message.amount = '9'.repeat(5000)
    expect(errorOf(payload)).toBe(
      'message.data.message.amount: expected uint160, got a 5000-character number (out of range)',
    )
    payload.message.amount = -1
    expect(errorOf(payload)).toMatch(/^message\.data\.message\.amount: expected uint160, got -1 \(out of range/)
  })

  it('cyclic types', () => {
    const payload = {
      types: {
        EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
        Node: [{ name: 'next', type: 'Link' }],
        Link: [{ name: 'nodes', type: 'Node[]' }],
      },
      primaryType: 'Node',
      domain: { chainId: 1 },
      message: { next: { nodes: [] } },
    }
    expect(errorOf(payload)).toBe('message.data.types.Node: cyclic type: Node → Link → Node refers back to itself')
  })

  it('not an object at all, and a domain field declared with the wrong type', () => {
    expect(errorOf('hello')).toMatch(/^message\.data: expected an object/)
    expect(errorOf(null)).toMatch(/^message\.data: expected an object/)
    const payload = mail()
    payload.types.EIP712Domain = [{ name: 'chainId', type: 'string' }]
    expect(errorOf(payload)).toBe('message.data.types.EIP712Domain[0].type: chainId must be uint256, got "string"')
  })

  it('more types than any protocol needs', () => {
    const payload = mail()
    for (let index = 0; index < 300; index++) payload.types[`T${index}`] = [{ name: 'n', type: 'uint8' }]
    expect(errorOf(payload)).toBe('message.data.types: declares 303 types; at most 256')
  })

  it('a field type longer, or with more array dimensions, than any protocol writes', () => {
    const typed = (type: string) => ({
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], P: [{ name: 'v', type }] },
      primaryType: 'P',
      domain: { chainId: 1 },
      message: { v: [] },
    })
    expect(errorOf(typed(`uint8${'[]'.repeat(400_000)}`))).toBe(
      'message.data.types.P[0].type: longer than 256 characters',
    )
    expect(errorOf(typed(`uint8${'[]'.repeat(9)}`))).toBe('message.data.types.P[0].type: more than 8 array dimensions')
    expect(parseTypedData(typed(`uint8${'[]'.repeat(8)}`)).ok).toBe(true)
  })

  it('bool values must be booleans: the string "false" would be signed as true by some wallets', () => {
    const payload = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], P: [{ name: 'allowed', type: 'bool' }] },
      primaryType: 'P',
      domain: { chainId: 1 },
      message: { allowed: 'false' },
    }
    expect(errorOf(payload)).toBe('message.data.message.allowed: expected bool, got "false"')
  })
})

describe('names that are also properties of every object', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`primaryType "${name}" is an undefined type, not a crash`, () => {
      expect(errorOf({ ...mail(), primaryType: name })).toBe(
        `message.data.primaryType: "${name}" is not defined in message.data.types`,
      )
    })
  }

  it('a declared field named "constructor" with no value is missing, not Object', () => {
    const payload = mail()
    payload.types.Mail = [{ name: 'constructor', type: 'string' }]
    expect(errorOf(payload)).toBe('message.data.message.constructor: missing (declared as string in Mail)')
  })

  it('a struct type named "constructor" still hashes', () => {
    const payload = mail()
    Object.defineProperty(payload.types, 'constructor', {
      value: [{ name: 'contents', type: 'string' }],
      enumerable: true,
    })
    payload.primaryType = 'constructor'
    const result = parseTypedData(payload)
    expect(result.ok && hashTypedPayload(result.typedData).hash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})

describe('text that reorders its own display', () => {
  it('names every string field holding a reordering character, in the domain and nested structs alike', () => {
    const payload = mail()
    payload.domain.name = 'Ether \u202EliaM'
    ;(payload.message.to as Record<string, unknown>).name = 'Bob\u2066'
    payload.message.contents = 'Swap: \u200F1 → 500'
    const result = parseTypedData(payload)
    if (!result.ok) throw new Error(result.error.message)
    const [warning, ...rest] = reorderedTextWarnings(result.typedData)
    expect(rest).toEqual([])
    expect(warning).toMatchObject({ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE', severity: 'WARNING' })
    expect(warning?.message).toContain(
      'domain.name, message.to.name, message.contents hold characters that change the order',
    )
  })

  it('finds nothing in the plain example, and reads each value of a type by its path', () => {
    const result = parseTypedData(mail())
    if (!result.ok) throw new Error(result.error.message)
    expect(reorderedTextWarnings(result.typedData)).toEqual([])
    expect(valuesOfType(result.typedData, 'string').map(({ path }) => path)).toEqual([
      'domain.name',
      'domain.version',
      'message.from.name',
      'message.to.name',
      'message.contents',
    ])
  })
})

describe('where wallets sign different things for the same payload', () => {
  const parsed = (payload: unknown) => {
    const result = parseTypedData(payload)
    if (!result.ok) throw new Error(result.error.message)
    return result.typedData
  }

  it('a domain field the types leave out: MetaMask signs without it, ethers-based wallets with it, so WARN', () => {
    const payload = mail()
    payload.types = { ...payload.types, EIP712Domain: NAMED_DOMAIN_FIELDS.slice(0, 2) }
    const typedData = parsed(payload)
    expect(typedData.undeclaredDomainFields).toEqual(['chainId', 'verifyingContract'])
    expect(Object.keys(typedData.domain)).toEqual(['name', 'version'])
    const [warning] = walletDisagreementWarnings(typedData)
    expect(warning).toMatchObject({ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE', severity: 'WARNING' })
    expect(warning?.message).toMatch(/holds chainId, verifyingContract but its types do not declare them/)
    expect(walletDisagreementWarnings(parsed(mail()))).toEqual([])
  })

  it('a primaryType that is not the one type the others belong to: ethers-based wallets sign that one instead', () => {
    const payload = {
      ...mail(),
      primaryType: 'Person',
      message: { name: 'Bob', wallet: mail().domain.verifyingContract },
    }
    const typedData = parsed(payload)
    expect(typedData.otherRoot).toBe('Mail')
    expect(walletDisagreementWarnings(typedData)[0]?.message).toMatch(
      /sign a Person, but its types are built around a Mail/,
    )
    // Two types nothing refers to: no wallet can pick one but by primaryType, so nothing to warn about.
    const unrelated = { ...payload, types: { ...payload.types, Note: [{ name: 'text', type: 'string' }] } }
    expect(parsed(unrelated).otherRoot).toBeUndefined()
  })

  it('text that wallets read as different values is refused, and a malformed address is an error, not a crash', () => {
    const typed = (type: string, value: unknown) => ({
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], P: [{ name: 'v', type }] },
      primaryType: 'P',
      domain: { chainId: 1 },
      message: { v: value },
    })
    expect(errorOf(typed('uint256', '0X01'))).toMatch(/^message\.data\.message\.v: .*write 0x in lowercase/)
    expect(errorOf(typed('bytes', '0X1234'))).toMatch(/^message\.data\.message\.v: .*write 0x in lowercase/)
    expect(parseTypedData(typed('uint256', '0x01')).ok).toBe(true)
    expect(errorOf(typed('address', ' 0x70997970c51812dc3a010c7d01b50e0d17dc79c8'))).toMatch(
      /^message\.data\.message\.v: expected address/,
    )
    expect(errorOf(typed('address', '-1'))).toMatch(/^message\.data\.message\.v: expected address/)
  })

  it('a struct name with characters past word characters, which MetaMask reads only up to, is refused', () => {
    const payload = {
      types: {
        EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
        Main: [{ name: 'a', type: 'Z:x' }],
        'Z:x': [{ name: 'v', type: 'uint256' }],
      },
      primaryType: 'Main',
      domain: { chainId: 1 },
      message: { a: { v: 1 } },
    }
    expect(errorOf(payload)).toMatch(/"Z:x" is not a valid struct type name/)
  })
})
