/**
 * Typed data that authorizes a call in the signer's name, which a relayer then submits: an ERC-2771 `ForwardRequest`
 * (OpenZeppelin's forwarders, both versions) or a native meta-transaction (`MetaTransaction`, as Polygon's bridged
 * tokens and Biconomy's contracts take it, which run `functionSignature` as the signer). Recognised by the shape of
 * the primary type, so a renamed type is still caught; the call is simulated as the signer's own transaction.
 */
import type { Address, Hex } from '../api/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** The call a signature authorizes: what the target sees once the relayer submits it. */
export type SignedCall = { from: Address; to: Address; value: bigint; data: Hex }

const FORWARD_REQUEST = 'address from,address to,uint256 value,uint256 gas,uint256 nonce,bytes data'
const FORWARD_REQUEST_DEADLINE =
  'address from,address to,uint256 value,uint256 gas,uint256 nonce,uint48 deadline,bytes data'
const META_TRANSACTION = 'uint256 nonce,address from,bytes functionSignature'

/** The call a payload authorizes in its signer's name, or null when it authorizes none. */
export function findSignedCall(typedData: TypedData): SignedCall | null {
  const { types, primaryType, message, domain } = typedData
  const shape = structSignature(types, primaryType)
  if (shape === FORWARD_REQUEST || shape === FORWARD_REQUEST_DEADLINE) {
    return {
      from: message.from as Address,
      to: message.to as Address,
      value: message.value as bigint,
      data: message.data as Hex,
    }
  }
  const target = domain.verifyingContract as Address | undefined
  if (shape === META_TRANSACTION && target) {
    return { from: message.from as Address, to: target, value: 0n, data: message.functionSignature as Hex }
  }
  return null
}
