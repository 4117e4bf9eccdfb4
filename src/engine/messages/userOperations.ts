/**
 * ERC-4337 user operations signed as typed data: EntryPoint v0.8 and later hash a `PackedUserOperation` with EIP-712
 * (domain "ERC4337"), and Safe's 4337 module has each owner sign a `SafeOp` (v0.2.0 for EntryPoint v0.6, v0.3.0 for
 * v0.7). The account accepts its owners' signatures over that hash, so whoever holds them can have any bundler run
 * `callData` on the account: the EntryPoint calls the account, which executes it. The operation is simulated as that
 * call, after what `initCode` runs first (a factory's deployment, or an EIP-7702 account's setup call).
 */
import {
  type Address,
  concat,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  hexToBigInt,
  isAddress,
  isAddressEqual,
  pad,
  size,
  slice,
  toHex,
} from 'viem'
import { accountExecuteAbi } from '../abi/index.ts'
import type { TxFees } from '../simulation/index.ts'
import type { SignedCall } from './signedCalls.ts'
import { hashTypedPayload, structSignature, type TypedData } from './typedData.ts'

/** What `initCode` asks the EntryPoint to run before the operation: `target` called with `data` by the SenderCreator. */
export type AccountInit = { target: Address; data: Hex }

/** What a signed user operation runs, and who pays for it. */
export type UserOperation = {
  entryPoint: Address
  /** The smart account the operation runs on: its changes are the ones reported. */
  sender: Address
  /** What `initCode` runs first, when it carries a call; where it goes depends on the account's code (initCall). */
  init: AccountInit | null
  /** The EntryPoint's call of the account that runs `callData`. */
  execution: SignedCall
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

/** IAccountExecute's `executeUserOp` selector: a `callData` starting with it is run through that function. */
const EXECUTE_USER_OP_SELECTOR = '0x8dd7712f'

/** The fields every version signs, read from its own layout, and the gas fields packed as the EntryPoint takes them. */
type SignedFields = {
  entryPoint: unknown
  safeOwners: boolean
  sender: Address
  nonce: bigint
  initCode: Hex
  callData: Hex
  accountGasLimits: Hex
  preVerificationGas: bigint
  gasFees: Hex
  paymasterAndData: Hex
}

/** Two 16-byte halves packed into a bytes32 (`accountGasLimits`, `gasFees`): high, then low. */
function packHalves(high: bigint, low: bigint): Hex {
  return concat([pad(toHex(high), { size: 16 }), pad(toHex(low), { size: 16 })])
}

/** The two 16-byte halves of a packed bytes32: high, then low. */
function halves(word: Hex): [bigint, bigint] {
  return [hexToBigInt(slice(word, 0, 16)), hexToBigInt(slice(word, 16, 32))]
}

/** The EntryPoint deploys accounts through the SenderCreator its constructor creates: its first CREATE, nonce 1. */
export function senderCreator(entryPoint: Address): Address {
  return getContractAddress({ from: entryPoint, nonce: 1n })
}

/** The signed fields of a `PackedUserOperation` or a `SafeOp`, or null when the payload is neither. */
function signedFields(typedData: TypedData): SignedFields | null {
  const { types, primaryType, message, domain } = typedData
  const shape = structSignature(types, primaryType)
  const common = {
    nonce: message.nonce as bigint,
    initCode: message.initCode as Hex,
    callData: message.callData as Hex,
    preVerificationGas: message.preVerificationGas as bigint,
    paymasterAndData: message.paymasterAndData as Hex,
  }
  if (shape === PACKED_USER_OPERATION) {
    return {
      ...common,
      entryPoint: domain.verifyingContract,
      safeOwners: false,
      sender: message.sender as Address,
      accountGasLimits: message.accountGasLimits as Hex,
      gasFees: message.gasFees as Hex,
    }
  }
  if (shape === SAFE_OP_V07 || shape === SAFE_OP_V06) {
    const field = (name: string) => message[name] as bigint
    return {
      ...common,
      entryPoint: message.entryPoint,
      safeOwners: true,
      sender: message.safe as Address,
      accountGasLimits: packHalves(field('verificationGasLimit'), field('callGasLimit')),
      gasFees: packHalves(field('maxPriorityFeePerGas'), field('maxFeePerGas')),
    }
  }
  return null
}

/**
 * The call the EntryPoint makes of the account: `callData` as it is, or, for IAccountExecute's form, `executeUserOp`
 * with the operation (its signature not yet made) and the digest the owner signs.
 */
function executionData(fields: SignedFields, typedData: TypedData): Hex {
  if (!fields.callData.toLowerCase().startsWith(EXECUTE_USER_OP_SELECTOR)) return fields.callData
  const { sender, nonce, initCode, callData, accountGasLimits, preVerificationGas, gasFees, paymasterAndData } = fields
  const userOp = { sender, nonce, initCode, callData, accountGasLimits, preVerificationGas, gasFees, paymasterAndData }
  const args = [{ ...userOp, signature: '0x' as Hex }, hashTypedPayload(typedData).hash] as const
  return encodeFunctionData({ abi: accountExecuteAbi, functionName: 'executeUserOp', args })
}

/** The user operation a payload signs, or null when it is not one. */
export function findUserOperation(typedData: TypedData): UserOperation | null {
  const fields = signedFields(typedData)
  if (!fields || typeof fields.entryPoint !== 'string' || !isAddress(fields.entryPoint, { strict: false })) return null
  const { entryPoint, sender, initCode } = fields
  const [verificationGasLimit, callGasLimit] = halves(fields.accountGasLimits)
  const [maxPriorityFeePerGas, maxFeePerGas] = halves(fields.gasFees)
  const limit = verificationGasLimit + callGasLimit + fields.preVerificationGas
  return {
    entryPoint,
    sender,
    // 20 bytes alone name a factory without calldata, which creates nothing, or an EIP-7702 delegate with no setup.
    init: size(initCode) > 20 ? { target: slice(initCode, 0, 20), data: slice(initCode, 20) } : null,
    execution: { from: entryPoint, to: sender, value: 0n, data: executionData(fields, typedData) },
    safeOwners: fields.safeOwners,
    gas:
      size(fields.paymasterAndData) > 0
        ? null
        : { limit, fees: { kind: 'eip1559', maxFeePerGas, maxPriorityFeePerGas } },
  }
}

/** The code an EIP-7702 delegation leaves on an account: 0xef0100 followed by the delegate's address. */
const DELEGATION_PREFIX = '0xef0100'

/**
 * What the EntryPoint runs for `init`, given the account's code now: a factory's deployment for an account without
 * code; the account's own setup call when it is an EIP-7702 account delegating to `init.target` (the signed `initCode`
 * holds the delegate where the EntryPoint reads its marker); null for any other account, which the EntryPoint refuses
 * to run the operation for (AA10: the sender exists already).
 */
export function initCall(operation: UserOperation, init: AccountInit, accountCode: Hex): SignedCall | null {
  const from = senderCreator(operation.entryPoint)
  if (size(accountCode) === 0) return { from, to: init.target, value: 0n, data: init.data }
  const code = accountCode.toLowerCase()
  const delegate = code.startsWith(DELEGATION_PREFIX) && size(accountCode) === 23 ? slice(accountCode, 3) : null
  if (delegate && isAddressEqual(delegate, init.target))
    return { from, to: operation.sender, value: 0n, data: init.data }
  return null
}
