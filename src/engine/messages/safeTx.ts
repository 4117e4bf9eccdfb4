/**
 * Safe (multisig) transaction messages: a primary type of any name whose fields are exactly the Safe transaction
 * struct of some Safe version (1.0.0 names `baseGas` `dataGas`), under a domain of the wallet alone (before 1.3.0) or
 * of chainId and the wallet. Yields the transaction to simulate, the hashes a signer compares with a hardware wallet,
 * and what is off about the request — including a shape the Safe's own version would not hash the same way.
 */
import { encodeFunctionData, isAddressEqual } from 'viem'
import { safeAbi } from '../abi/index.ts'
import type { Address, Hex, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import {
  type ExecTransaction,
  SAFE_NONCE_SLOT,
  type SafeContext,
  safeHashing,
  safeTxHash,
  safeTxTypeFields,
} from '../safe/index.ts'
import { type SimulationInput, type SimulationTx, toWord } from '../simulation/index.ts'
import { hashMismatchWarnings, SAFE_DOMAINS, safeSignerWarnings } from './safeChecks.ts'
import { hashTypedPayload, structSignature, type TypedData } from './typedData.ts'

/** The SafeTx struct as encodeType writes its fields (seed §2.3), for matching a message's primary type. */
const safeTxFields = (gasField: 'baseGas' | 'dataGas') =>
  structSignature({ SafeTx: safeTxTypeFields(gasField) }, 'SafeTx')
const SAFE_TX_SHAPES = new Map([
  [safeTxFields('baseGas'), 'baseGas'],
  [safeTxFields('dataGas'), 'dataGas'],
] as const)

/** The fields of a Safe transaction as the SafeTx message carries them: execTransaction's, with the nonce to sign. */
export type SafeTx = Omit<ExecTransaction, 'signatures'> & { readonly nonce: bigint }

/** A Safe transaction as signed: the wallet, the chain the domain names, the call and its hashes. */
export type SafeTxMessage = SafeTx & {
  wallet: Address
  /** The chain the domain names; null for a pre-1.3.0 domain, valid wherever the Safe has this address. */
  chainId: bigint | null
  /** What the typehash calls the gas refund field: `dataGas` in Safe 1.0.0, `baseGas` after. */
  gasField: 'baseGas' | 'dataGas'
  /** keccak256 of the EIP-712 encoding: the hash the owners sign and the Safe checks. */
  safeTxHash: Hex
  domainHash: Hex
  messageHash: Hex
}

/** The Safe transaction a validated payload describes, or null when it is not one. */
export function findSafeTransaction(typedData: TypedData): SafeTxMessage | null {
  const { types, primaryType, message, domain } = typedData
  const gasField = SAFE_TX_SHAPES.get(structSignature(types, primaryType))
  if (!gasField || !SAFE_DOMAINS.has(structSignature(types, 'EIP712Domain'))) return null
  const hashes = hashTypedPayload(typedData)
  return {
    wallet: domain.verifyingContract as Address,
    chainId: typeof domain.chainId === 'bigint' ? domain.chainId : null,
    gasField,
    to: message.to as Address,
    value: message.value as bigint,
    data: message.data as Hex,
    operation: Number(message.operation as bigint),
    safeTxGas: message.safeTxGas as bigint,
    baseGas: message[gasField] as bigint,
    gasPrice: message.gasPrice as bigint,
    gasToken: message.gasToken as Address,
    refundReceiver: message.refundReceiver as Address,
    nonce: message.nonce as bigint,
    safeTxHash: hashes.hash,
    domainHash: hashes.domainHash,
    messageHash: hashes.messageHash,
  }
}

/** The simulation of a Safe transaction message: execTransaction from `from`, under the preset, at the message's nonce. */
export function safeSimulationInput(safeTx: SafeTxMessage, wallet: Address, from: Address): SimulationInput {
  const tx: SimulationTx = {
    from,
    to: wallet,
    // The preset swaps these empty signatures for confirmations enough.
    data: encodeFunctionData({
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [
        safeTx.to,
        safeTx.value,
        safeTx.data,
        safeTx.operation,
        safeTx.safeTxGas,
        safeTx.baseGas,
        safeTx.gasPrice,
        safeTx.gasToken,
        safeTx.refundReceiver,
        '0x',
      ],
    }),
    value: 0n,
    gas: null,
  }
  return {
    txs: [tx],
    userAccount: wallet,
    blockNumber: null,
    balances: [],
    storage: [],
    multisigWallets: [wallet],
    transactionStorage: [{ address: wallet, slot: SAFE_NONCE_SLOT, value: toWord(safeTx.nonce) }],
  }
}

/**
 * What is off about a Safe transaction request: the signer and chain checks every Safe signature gets (see
 * safeSignerWarnings), a used nonce, which can never execute (WARNING: a stale or replayed request), and a shape the
 * Safe's version hashes differently, which cannot confirm anything here (WARNING: made for another Safe version or
 * another Safe).
 */
export function multisigWarnings(
  safeTx: SafeTxMessage,
  safe: SafeContext,
  signer: Address,
  chainId: number,
): Warning[] {
  const warnings = safeSignerWarnings('transaction', safe, signer, safeTx.chainId, chainId)
  if (safeTx.nonce < safe.nonce) {
    warnings.push(
      makeWarning(
        'MULTISIG_NONCE_USED',
        'WARNING',
        `This Safe transaction uses nonce ${safeTx.nonce}, and the Safe ${shortAddress(safe.address)} is already at ` +
          `nonce ${safe.nonce}: the transaction with this nonce was already executed or replaced, so this one can ` +
          'never be executed and nothing was simulated. The request is stale or a replay.',
        { messageNonce: safeTx.nonce.toString(), currentNonce: safe.nonce.toString() },
      ),
    )
  }
  // Hashed for the chain the message names: a chain of its own is reported above, not again here. A message built
  // under this Safe's own rules (its domain shape and gas field name, this Safe) hashes to what the Safe computes, so
  // only a message built under other rules is hashed again.
  const { domainHasChainId, gasField } = safeHashing(safe.version)
  const sameRules =
    (safeTx.chainId !== null) === domainHasChainId &&
    safeTx.gasField === gasField &&
    isAddressEqual(safeTx.wallet, safe.address)
  const expected = sameRules
    ? safeTx.safeTxHash
    : safeTxHash(safe.version, safeTx.chainId ?? BigInt(chainId), safe.address, safeTx)
  const rule = `${domainHasChainId ? 'with' : 'without'} the chain id in the domain`
  warnings.push(...hashMismatchWarnings('transaction', safe, rule, expected, safeTx.safeTxHash))
  return warnings
}
