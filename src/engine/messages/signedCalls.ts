/**
 * Typed data that authorizes a call in the signer's name, which a relayer then submits: an ERC-2771 `ForwardRequest`
 * (OpenZeppelin's forwarders, both versions), a native meta-transaction (`MetaTransaction`, as Polygon's bridged
 * tokens and Biconomy's contracts take it, which run `functionSignature` as the signer), an Aave V3 credit delegation
 * (`DelegationWithSig`, which `delegationWithSig` turns into the signer's `approveDelegation` on the debt token) or a
 * Compound III manager authorization (`Authorization`, which `allowBySig` turns into the owner's `allow` on the
 * market). Recognised by the shape of the primary type, so a renamed type is still caught; the call is simulated as
 * the signer's own transaction.
 */
import { encodeFunctionData } from 'viem'
import { lendingDelegationAbi } from '../abi/index.ts'
import type { Address, Hex } from '../api/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** The call a signature authorizes: what the target sees once the relayer submits it. */
export type SignedCall = { from: Address; to: Address; value: bigint; data: Hex }

const FORWARD_REQUEST = 'address from,address to,uint256 value,uint256 gas,uint256 nonce,bytes data'
const FORWARD_REQUEST_DEADLINE =
  'address from,address to,uint256 value,uint256 gas,uint256 nonce,uint48 deadline,bytes data'
const META_TRANSACTION = 'uint256 nonce,address from,bytes functionSignature'
const AAVE_DELEGATION = 'address delegatee,uint256 value,uint256 nonce,uint256 deadline'
const COMET_AUTHORIZATION = 'address owner,address manager,bool isAllowed,uint256 nonce,uint256 expiry'

/**
 * The call a payload authorizes in its signer's name, or null when it authorizes none. `signer` is the account asked
 * to sign: an Aave delegation does not name its delegator, whom the contract recovers from the signature.
 */
export function findSignedCall(typedData: TypedData, signer: Address): SignedCall | null {
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
  if (!target) return null
  if (shape === META_TRANSACTION) {
    return { from: message.from as Address, to: target, value: 0n, data: message.functionSignature as Hex }
  }
  if (shape === AAVE_DELEGATION) {
    const args = [message.delegatee as Address, message.value as bigint] as const
    const data = encodeFunctionData({ abi: lendingDelegationAbi, functionName: 'approveDelegation', args })
    return { from: signer, to: target, value: 0n, data }
  }
  if (shape === COMET_AUTHORIZATION) {
    const args = [message.manager as Address, message.isAllowed as boolean] as const
    const data = encodeFunctionData({ abi: lendingDelegationAbi, functionName: 'allow', args })
    return { from: message.owner as Address, to: target, value: 0n, data }
  }
  return null
}
