import { describe, expect, it } from 'vitest'
import { findSafeTransaction, SAFE_TX_FIELDS } from '../../../src/engine/messages/safeTx.ts'
import { parseTypedData } from '../../../src/engine/messages/typedData.ts'

const SAFE = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const fields = SAFE_TX_FIELDS.split(',').map((field) => {
  const [type, name] = field.split(' ')
  return { name: name as string, type: type as string }
})

function safeMessage(
  primaryType = 'SafeTx',
  domainTypes = [
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
) {
  return {
    types: { EIP712Domain: domainTypes, [primaryType]: fields },
    primaryType,
    domain: { chainId: '0x7a69', verifyingContract: SAFE },
    message: {
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: '1000000000000000000',
      data: '0x',
      operation: 0,
      safeTxGas: '0',
      baseGas: '0',
      gasPrice: '0',
      gasToken: '0x0000000000000000000000000000000000000000',
      refundReceiver: '0x0000000000000000000000000000000000000000',
      nonce: '3',
    },
  }
}

function parse(payload: unknown) {
  const result = parseTypedData(payload)
  if (!result.ok) throw new Error(result.error.message)
  return result.typedData
}

describe('findSafeTransaction', () => {
  it('recognises the Safe transaction struct whatever the primary type is called', () => {
    for (const name of ['SafeTx', 'MultisigTx']) {
      const tx = findSafeTransaction(parse(safeMessage(name)))
      expect(tx).toMatchObject({
        wallet: SAFE.toLowerCase(),
        chainId: 31337n,
        to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
        value: 10n ** 18n,
        data: '0x',
        operation: 0,
        nonce: 3n,
      })
      expect(tx?.safeTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    }
  })

  it('hashes the domain alike under any type name, while the struct hash includes the name', () => {
    const a = findSafeTransaction(parse(safeMessage('SafeTx')))
    const b = findSafeTransaction(parse(safeMessage('MultisigTx')))
    expect(a?.domainHash).toBe(b?.domainHash)
    // The type name is part of the type hash, so the struct hashes differ: the Safe only accepts "SafeTx".
    expect(a?.messageHash).not.toBe(b?.messageHash)
  })

  it('does not treat fields in another order, or a domain without chainId, as a Safe transaction', () => {
    const reordered = safeMessage()
    reordered.types.SafeTx = [...fields].reverse()
    expect(findSafeTransaction(parse(reordered))).toBeNull()
    const noChain = safeMessage('SafeTx', [{ name: 'verifyingContract', type: 'address' }])
    expect(findSafeTransaction(parse(noChain))).toBeNull()
  })
})
