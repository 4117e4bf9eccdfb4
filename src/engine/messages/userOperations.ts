/**
 * ERC-4337 user operations signed as typed data: EntryPoint v0.8 and later hash a `PackedUserOperation` with EIP-712
 * (domain "ERC4337"), and Safe's 4337 module has each owner sign a `SafeOp` (v0.2.0 for EntryPoint v0.6, v0.3.0 for
 * v0.7). The account accepts its owners' signatures over that hash, so whoever holds them can have any bundler run
 * `callData` on the account: the EntryPoint calls the account, which executes it. The operation is simulated as that
 * call, after the account's deployment when `initCode` names a factory.
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
  /** Whether the signer signs as one of a Safe's owners (a SafeOp), whose signatures count up to its threshold. */
  safeOwners: boolean
  /** The gas the account pays for at most, and at what price; null when a paymaster pays. */
  gas: { limit: bigint; fees: TxFees } | null
}

const PACKED_USER_OPERATION =
  'address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,' +
  'bytes32 gasFees,bytes paymasterAndData'

/** Safe4337Module v0.3.0 (EntryPoint v0.7): the packed gas fields, unpacked. */
const SAFE_OP_V07 =
  'address safe,uint256 nonce,bytes initCode,bytes callData,uint128 verificationGasLimit,uint128 callGasLimit,' +
  'uint256 preVerificationGas,uint128 maxPriorityFeePerGas,uint128 maxFeePerGas,bytes paymasterAndData,' +
  'uint48 validAfter,uint48 validUntil,address entryPoint'
/** Safe4337Module v0.2.0 (EntryPoint v0.6). */
const SAFE_OP_V06 =
  'address safe,uint256 nonce,bytes initCode,bytes callData,uint256 callGasLimit,uint256 verificationGasLimit,' +
  'uint256 preVerificationGas,uint256 maxFeePerGas,uint256 maxPriorityFeePerGas,bytes paymasterAndData,' +
  'uint48 validAfter,uint48 validUntil,address entryPoint'

/** The fields every version signs, read from its own layout. */
type SignedFields = {
  entryPoint: unknown
  safeOwners: boolean
  sender: Address
  initCode: Hex
  callData: Hex
  gasLimit: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymasterAndData: Hex
}

/** The EntryPoint deploys accounts through the SenderCreator its constructor creates: its first CREATE, nonce 1. */
function senderCreator(entryPoint: Address): Address {
  return getContractAddress({ from: entryPoint, nonce: 1n })
}

/** The two 16-byte halves of a packed bytes32 (`accountGasLimits`, `gasFees`): high, then low. */
function halves(word: Hex): [bigint, bigint] {
  return [hexToBigInt(slice(word, 0, 16)), hexToBigInt(slice(word, 16, 32))]
}

/** The signed fields of a `PackedUserOperation` or a `SafeOp`, or null when the payload is neither. */
function signedFields(typedData: TypedData): SignedFields | null {
  const { types, primaryType, message, domain } = typedData
  const shape = structSignature(types, primaryType)
  const common = {
    initCode: message.initCode as Hex,
    callData: message.callData as Hex,
    paymasterAndData: message.paymasterAndData as Hex,
  }
  if (shape === PACKED_USER_OPERATION) {
    const [verificationGasLimit, callGasLimit] = halves(message.accountGasLimits as Hex)
    const [maxPriorityFeePerGas, maxFeePerGas] = halves(message.gasFees as Hex)
    return {
      ...common,
      entryPoint: domain.verifyingContract,
      safeOwners: false,
      sender: message.sender as Address,
      gasLimit: verificationGasLimit + callGasLimit + (message.preVerificationGas as bigint),
      maxFeePerGas,
      maxPriorityFeePerGas,
    }
  }
  if (shape === SAFE_OP_V07 || shape === SAFE_OP_V06) {
    return {
      ...common,
      entryPoint: message.entryPoint,
      safeOwners: true,
      sender: message.safe as Address,
      gasLimit:
        (message.verificationGasLimit as bigint) +
        (message.callGasLimit as bigint) +
        (message.preVerificationGas as bigint),
      maxFeePerGas: message.maxFeePerGas as bigint,
      maxPriorityFeePerGas: message.maxPriorityFeePerGas as bigint,
    }
  }
  return null
}

/** The user operation a payload signs, or null when it is not one. */
export function findUserOperation(typedData: TypedData): UserOperation | null {
  const fields = signedFields(typedData)
  if (!fields || typeof fields.entryPoint !== 'string' || !isAddress(fields.entryPoint, { strict: false })) return null
  const { entryPoint, sender, initCode } = fields
  const execution: SignedCall = { from: entryPoint, to: sender, value: 0n, data: fields.callData }
  // A factory needs calldata to create an account; 20 bytes alone are an EIP-7702 account's delegate, already set.
  const deployment: SignedCall | null =
    size(initCode) > 20
      ? { from: senderCreator(entryPoint), to: slice(initCode, 0, 20), value: 0n, data: slice(initCode, 20) }
      : null
  const { maxFeePerGas, maxPriorityFeePerGas } = fields
  return {
    entryPoint,
    sender,
    safeOwners: fields.safeOwners,
    calls: deployment ? [deployment, execution] : [execution],
    gas:
      size(fields.paymasterAndData) > 0
        ? null
        : { limit: fields.gasLimit, fees: { kind: 'eip1559', maxFeePerGas, maxPriorityFeePerGas } },
  }
}
