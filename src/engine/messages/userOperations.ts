/**
 * ERC-4337 user operations signed as typed data (EntryPoint v0.8 and later hash a `PackedUserOperation` with EIP-712,
 * domain "ERC4337"). The smart account accepts its owner's signature over that hash, so whoever holds the signature can
 * have any bundler run `callData` on the account: the EntryPoint calls the account, which executes it. The operation is
 * simulated as that call, after the account's deployment when `initCode` names a factory.
 */
import { type Address, getContractAddress, type Hex, hexToBigInt, isAddress, size, slice } from 'viem'
import type { TxFees } from '../simulation/index.ts'
import type { SignedCall } from './signedCalls.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** What a signed user operation runs, and who pays for it. */
export type UserOperation = {
  entryPoint: Address
  /** The smart account the operation runs on: its changes are the ones reported. */
  sender: Address
  /** The calls a bundler's submission makes: the account's deployment (when `initCode` names a factory), then `callData`. */
  calls: SignedCall[]
  /** The gas the account pays for at most, and at what price; null when a paymaster pays. */
  gas: { limit: bigint; fees: TxFees } | null
}

const PACKED_USER_OPERATION =
  'address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,' +
  'bytes32 gasFees,bytes paymasterAndData'

/** The EntryPoint deploys accounts through the SenderCreator its constructor creates: its first CREATE, nonce 1. */
function senderCreator(entryPoint: Address): Address {
  return getContractAddress({ from: entryPoint, nonce: 1n })
}

/** The two 16-byte halves of a packed bytes32 (`accountGasLimits`, `gasFees`): high, then low. */
function halves(word: Hex): [bigint, bigint] {
  return [hexToBigInt(slice(word, 0, 16)), hexToBigInt(slice(word, 16, 32))]
}

/** The user operation a payload signs, or null when it is not one. */
export function findUserOperation(typedData: TypedData): UserOperation | null {
  const { types, primaryType, message, domain } = typedData
  const entryPoint = domain.verifyingContract
  if (structSignature(types, primaryType) !== PACKED_USER_OPERATION) return null
  if (typeof entryPoint !== 'string' || !isAddress(entryPoint, { strict: false })) return null
  const sender = message.sender as Address
  const initCode = message.initCode as Hex
  const execution: SignedCall = { from: entryPoint, to: sender, value: 0n, data: message.callData as Hex }
  // A factory needs calldata to create an account; 20 bytes alone are an EIP-7702 account's delegate, already set.
  const deployment: SignedCall | null =
    size(initCode) > 20
      ? { from: senderCreator(entryPoint), to: slice(initCode, 0, 20), value: 0n, data: slice(initCode, 20) }
      : null
  const [verificationGasLimit, callGasLimit] = halves(message.accountGasLimits as Hex)
  const [maxPriorityFeePerGas, maxFeePerGas] = halves(message.gasFees as Hex)
  const sponsored = size(message.paymasterAndData as Hex) > 0
  const limit = verificationGasLimit + callGasLimit + (message.preVerificationGas as bigint)
  return {
    entryPoint,
    sender,
    calls: deployment ? [deployment, execution] : [execution],
    gas: sponsored ? null : { limit, fees: { kind: 'eip1559', maxFeePerGas, maxPriorityFeePerGas } },
  }
}
