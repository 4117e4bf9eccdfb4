/**
 * Safe transaction messages in every shape real clients send them, and how each Safe version hashes them: the domain
 * without chainId before 1.3.0, 1.0.0's dataGas, the chain id as number, decimal or hex.
 */
import {
  type Address,
  concat,
  encodeAbiParameters,
  getTypesForEIP712Domain,
  type Hex,
  keccak256,
  parseAbiParameters,
  serializeTypedData,
  toHex,
  zeroAddress,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { SAFE_TX_TYPES } from '../../../src/devnet/eip712.ts'
import { findSafeTransaction, multisigWarnings } from '../../../src/engine/messages/safeTx.ts'
import { parseTypedData } from '../../../src/engine/messages/typedData.ts'
import { safeHashing, safeTxHash } from '../../../src/engine/safe/versions.ts'

const SAFE = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const fields = SAFE_TX_TYPES.SafeTx
const CHAIN_DOMAIN = [
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]
const SAFE_ONLY_DOMAIN = [{ name: 'verifyingContract', type: 'address' }]

const tx = {
  to: TO as Address,
  value: 10n ** 18n,
  data: '0x' as Hex,
  operation: 0,
  safeTxGas: 0n,
  baseGas: 0n,
  gasPrice: 0n,
  gasToken: zeroAddress,
  refundReceiver: zeroAddress,
  nonce: 3n,
}

function safeMessage(primaryType = 'SafeTx', domainTypes = CHAIN_DOMAIN, gasField = 'baseGas') {
  return {
    types: {
      EIP712Domain: domainTypes,
      [primaryType]: fields.map((field) => (field.name === 'baseGas' ? { ...field, name: gasField } : field)),
    },
    primaryType,
    domain: domainTypes.length === 2 ? { chainId: '0x7a69', verifyingContract: SAFE } : { verifyingContract: SAFE },
    message: {
      to: TO,
      value: '1000000000000000000',
      data: '0x',
      operation: 0,
      safeTxGas: '0',
      [gasField]: '0',
      gasPrice: '0',
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce: '3',
    },
  }
}

function parse(payload: unknown) {
  const result = parseTypedData(typeof payload === 'string' ? JSON.parse(payload) : payload)
  if (!result.ok) throw new Error(result.error.message)
  return result.typedData
}

/** The Safe contract's own hashing, written out from its Solidity (typehash strings and abi.encode). */
function contractHash(domainTypehash: string, txTypehash: string, chainId: bigint | null): Hex {
  const domainSeparator = keccak256(
    chainId === null
      ? encodeAbiParameters(parseAbiParameters('bytes32, address'), [keccak256(toHex(domainTypehash)), SAFE])
      : encodeAbiParameters(parseAbiParameters('bytes32, uint256, address'), [
          keccak256(toHex(domainTypehash)),
          chainId,
          SAFE,
        ]),
  )
  const structHash = keccak256(
    encodeAbiParameters(
      parseAbiParameters(
        'bytes32, address, uint256, bytes32, uint8, uint256, uint256, uint256, address, address, uint256',
      ),
      [
        keccak256(toHex(txTypehash)),
        tx.to,
        tx.value,
        keccak256(tx.data),
        tx.operation,
        tx.safeTxGas,
        tx.baseGas,
        tx.gasPrice,
        tx.gasToken,
        tx.refundReceiver,
        tx.nonce,
      ],
    ),
  )
  return keccak256(concat(['0x1901', domainSeparator, structHash]))
}

const TX_TYPEHASH = (gas: string) =>
  `SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 ${gas},uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)`

describe('findSafeTransaction', () => {
  it('recognises the Safe transaction struct whatever the primary type is called', () => {
    for (const name of ['SafeTx', 'MultisigTx']) {
      const found = findSafeTransaction(parse(safeMessage(name)))
      expect(found).toMatchObject({
        wallet: SAFE.toLowerCase(),
        chainId: 31337n,
        to: TO.toLowerCase(),
        value: 10n ** 18n,
        data: '0x',
        operation: 0,
        nonce: 3n,
      })
      expect(found?.safeTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    }
  })

  it('hashes the domain alike under any type name, while the struct hash includes the name', () => {
    const a = findSafeTransaction(parse(safeMessage('SafeTx')))
    const b = findSafeTransaction(parse(safeMessage('MultisigTx')))
    expect(a?.domainHash).toBe(b?.domainHash)
    // The type name is part of the type hash, so the struct hashes differ: the Safe only accepts "SafeTx".
    expect(a?.messageHash).not.toBe(b?.messageHash)
  })

  it('recognises the pre-1.3.0 domain (no chainId) and 1.0.0’s dataGas, hashing as those Safes do', () => {
    const preChain = findSafeTransaction(parse(safeMessage('SafeTx', SAFE_ONLY_DOMAIN)))
    expect(preChain).toMatchObject({ chainId: null, nonce: 3n })
    expect(preChain?.safeTxHash).toBe(
      contractHash('EIP712Domain(address verifyingContract)', TX_TYPEHASH('baseGas'), null),
    )
    const v100 = findSafeTransaction(parse(safeMessage('SafeTx', SAFE_ONLY_DOMAIN, 'dataGas')))
    expect(v100).toMatchObject({ baseGas: 0n, nonce: 3n })
    expect(v100?.safeTxHash).toBe(contractHash('EIP712Domain(address verifyingContract)', TX_TYPEHASH('dataGas'), null))
  })

  it('recognises the shapes clients send: viem/protocol-kit, Safe{Wallet} (v3, numbers) and a hardware-wallet flow (hex)', () => {
    const expected = contractHash(
      'EIP712Domain(uint256 chainId,address verifyingContract)',
      TX_TYPEHASH('baseGas'),
      31337n,
    )
    // protocol-kit signs through viem's signTypedData, which sends this: EIP712Domain derived from the domain, bigints
    // as decimal strings, the chain id a JSON number.
    const domain = { chainId: 31337, verifyingContract: SAFE as Address }
    const protocolKit = serializeTypedData({
      domain,
      types: { EIP712Domain: getTypesForEIP712Domain({ domain }), SafeTx: fields },
      primaryType: 'SafeTx',
      message: tx,
    } as Parameters<typeof serializeTypedData>[0])
    // Safe{Wallet}'s own payload: types spelled out, the nonce and chain as JSON numbers.
    const safeWallet = {
      types: { EIP712Domain: CHAIN_DOMAIN, SafeTx: fields },
      domain: { chainId: 31337, verifyingContract: SAFE },
      primaryType: 'SafeTx',
      message: { ...safeMessage().message, nonce: 3, operation: 0 },
    }
    // A hardware-wallet bridge re-serialises every integer as 0x-hex and checksums nothing.
    const hardware = {
      ...safeMessage(),
      domain: { chainId: '0x7a69', verifyingContract: SAFE.toLowerCase() },
      message: { ...safeMessage().message, value: '0xde0b6b3a7640000', nonce: '0x3', safeTxGas: '0x0' },
    }
    for (const payload of [protocolKit, safeWallet, hardware]) {
      const found = findSafeTransaction(parse(payload))
      expect(found?.safeTxHash).toBe(expected)
      expect(found?.chainId).toBe(31337n)
    }
  })

  it('does not treat fields in another order, or another domain, as a Safe transaction', () => {
    const reordered = safeMessage()
    reordered.types.SafeTx = [...fields].reverse()
    expect(findSafeTransaction(parse(reordered))).toBeNull()
    const named = safeMessage('SafeTx', [{ name: 'name', type: 'string' }, ...CHAIN_DOMAIN])
    const domain = { name: 'Safe', chainId: 1, verifyingContract: SAFE }
    expect(findSafeTransaction(parse({ ...named, domain }))).toBeNull()
  })
})

describe('Safe versions', () => {
  it('knows which versions put the chain in the domain and which call baseGas dataGas', () => {
    expect(safeHashing('1.0.0')).toEqual({ domainHasChainId: false, gasField: 'dataGas' })
    expect(safeHashing('1.1.1')).toEqual({ domainHasChainId: false, gasField: 'baseGas' })
    expect(safeHashing('1.2.0')).toEqual({ domainHasChainId: false, gasField: 'baseGas' })
    for (const version of ['1.3.0', '1.3.0+L2', '1.4.1', '1.5.0']) {
      expect(safeHashing(version)).toEqual({ domainHasChainId: true, gasField: 'baseGas' })
    }
  })

  it('computes each version’s safeTxHash as its contract does', () => {
    const chainDomain = 'EIP712Domain(uint256 chainId,address verifyingContract)'
    const safeDomain = 'EIP712Domain(address verifyingContract)'
    expect(safeTxHash('1.0.0', 1, SAFE, tx)).toBe(contractHash(safeDomain, TX_TYPEHASH('dataGas'), null))
    expect(safeTxHash('1.1.1', 1, SAFE, tx)).toBe(contractHash(safeDomain, TX_TYPEHASH('baseGas'), null))
    expect(safeTxHash('1.4.1', 1, SAFE, tx)).toBe(contractHash(chainDomain, TX_TYPEHASH('baseGas'), 1n))
    expect(safeTxHash('1.5.0', 10, SAFE, tx)).toBe(contractHash(chainDomain, TX_TYPEHASH('baseGas'), 10n))
  })

  it('warns when the message is shaped for another version than the Safe runs', () => {
    const context = {
      address: SAFE as Address,
      version: '1.4.1',
      owners: [TO as Address],
      threshold: 1,
      nonce: 3n,
      singleton: null,
    }
    const current = findSafeTransaction(parse(safeMessage()))
    const old = findSafeTransaction(parse(safeMessage('SafeTx', SAFE_ONLY_DOMAIN)))
    if (!current || !old) throw new Error('not recognised')
    expect(multisigWarnings(current, context, TO as Address, 31337)).toEqual([])
    const warnings = multisigWarnings(old, context, TO as Address, 31337)
    expect(warnings.map((warning) => [warning.kind, warning.severity])).toEqual([['MULTISIG_HASH_MISMATCH', 'WARNING']])
    expect(warnings[0]?.message).toContain('hashes its transactions with the chain id')
    // The same pre-1.3.0 message is exactly right for a 1.1.1 Safe, on any chain.
    expect(multisigWarnings(old, { ...context, version: '1.1.1' }, TO as Address, 1)).toEqual([])
    // Safe 1.0.0 names the gas refund field dataGas: a baseGas message hashes to something else there.
    const onOneZero = multisigWarnings(old, { ...context, version: '1.0.0' }, TO as Address, 1)
    expect(onOneZero.map((warning) => warning.kind)).toEqual(['MULTISIG_HASH_MISMATCH'])
  })
})
