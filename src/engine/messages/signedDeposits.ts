/**
 * Across deposits signed as typed data for its SpokePoolPeriphery (gasless bridging: the `DepositData` or
 * `SwapAndDepositData` a Permit2 transfer carries as its witness, or signs beside an EIP-2612 permit). The signature
 * shows only a transfer to the periphery, a contract of Across's; what it then does with the funds is in the signed
 * struct: which SpokePool it hands them to (the periphery takes any contract named), who is paid out on the other
 * chain, who may take an unfilled deposit back or redirect it, and what fee the submitter keeps.
 */
import { type Address, getAddress, type Hex, isAddressEqual, pad } from 'viem'
import type { Warning } from '../api/index.ts'
import { accountInWords, isListedContract, makeWarning } from '../risk/index.ts'
import { chainInWords } from '../simulation/index.ts'
import { structSignature, type TypedData, type TypedStruct, valuesOfType } from './typedData.ts'

/** What a signed deposit does with the funds: their SpokePool, the deposit's accounts, and the submitter's fee. */
export type SignedDeposit = {
  spokePool: Address
  depositor: Address
  recipient: Hex
  destinationChainId: bigint
  amount: bigint
  fee: { amount: bigint; recipient: Address }
}

const BASE_DEPOSIT_DATA =
  'address inputToken,bytes32 outputToken,uint256 outputAmount,address depositor,bytes32 recipient,' +
  'uint256 destinationChainId,bytes32 exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,' +
  'uint32 exclusivityParameter,bytes message'
const FEES = 'uint256 amount,address recipient'

/**
 * The periphery's signed structs (PeripherySigningLib), by field list: where each keeps its deposit and the amount
 * that deposit starts from (a swap's is what it sells, in another token than the deposit's fee).
 */
const DEPOSIT_SHAPES: { fields: string; deposit: string; amount: string }[] = [
  {
    fields: 'Fees submissionFees,BaseDepositData baseDepositData,uint256 inputAmount,address spokePool,uint256 nonce',
    deposit: 'baseDepositData',
    amount: 'inputAmount',
  },
  {
    fields:
      'Fees submissionFees,BaseDepositData depositData,address swapToken,address exchange,uint8 transferType,' +
      'uint256 swapTokenAmount,uint256 minExpectedInputTokenAmount,bytes routerCalldata,' +
      'bool enableProportionalAdjustment,address spokePool,uint256 nonce',
    deposit: 'depositData',
    amount: 'swapTokenAmount',
  },
]

/** Every periphery deposit the typed data signs, wherever it sits (a Permit2 witness, or the message itself). */
export function findSignedDeposits(typedData: TypedData): SignedDeposit[] {
  const { types } = typedData
  const isShape = (name: string, fields: string) => structSignature(types, name) === fields
  if (!isShape('BaseDepositData', BASE_DEPOSIT_DATA) || !isShape('Fees', FEES)) return []
  return DEPOSIT_SHAPES.flatMap((shape) =>
    Object.keys(types)
      .filter((name) => isShape(name, shape.fields))
      .flatMap((name) => valuesOfType(typedData, name))
      .map(({ value }) => {
        const struct = value as TypedStruct
        const deposit = struct[shape.deposit] as TypedStruct
        const fees = struct.submissionFees as TypedStruct
        return {
          spokePool: getAddress(struct.spokePool as string),
          depositor: getAddress(deposit.depositor as string),
          recipient: (deposit.recipient as string).toLowerCase() as Hex,
          destinationChainId: deposit.destinationChainId as bigint,
          amount: struct[shape.amount] as bigint,
          fee: { amount: fees.amount as bigint, recipient: getAddress(fees.recipient as string) },
        }
      }),
  )
}

/**
 * Warnings for a signed deposit of the signer's funds: a SpokePool that is not Across's on a chain whose pools
 * Preflight knows (CRITICAL: that contract is handed the funds), and, as TRADE_PROCEEDS_TO_OTHER_ADDRESS warnings, a
 * payout or a depositor other than the signer, and a fee to someone else of more than a tenth of the amount (a
 * submitter's fee pays its gas; more is a payout).
 */
export function signedDepositWarnings(deposit: SignedDeposit, signer: Address, chainId: number | null): Warning[] {
  const warnings: Warning[] = []
  const data = { bridge: 'Across', spokePool: deposit.spokePool, recipient: deposit.recipient }
  if (chainId !== null && isListedContract('across', chainId, deposit.spokePool) === false) {
    warnings.push(
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'CRITICAL',
        `This signature has Across's periphery hand the funds it takes from you to ${accountInWords(pad(deposit.spokePool))}` +
          ', which is not an Across SpokePool: that contract can keep them. Do not sign it.',
        data,
      ),
    )
  }
  if (deposit.recipient !== pad(signer).toLowerCase()) {
    const who = accountInWords(deposit.recipient)
    warnings.push(
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This signature makes an Across deposit that pays out on ${chainInWords(Number(deposit.destinationChainId))} ` +
          `to ${who}, not to you. Sign it only if ${who} is yours.`,
        data,
      ),
    )
  }
  if (!isAddressEqual(deposit.depositor, signer)) {
    const who = accountInWords(pad(deposit.depositor))
    warnings.push(
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This signature makes an Across deposit that names ${who} as its depositor, not you: if it is not filled ` +
          `the funds are refunded to ${who}, who can also sign a new recipient for it. Sign it only if ${who} is yours.`,
        data,
      ),
    )
  }
  if (!isAddressEqual(deposit.fee.recipient, signer) && deposit.fee.amount * 10n > deposit.amount) {
    const who = accountInWords(pad(deposit.fee.recipient))
    warnings.push(
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This signature pays ${who} a fee of more than a tenth of the Across deposit it makes. Sign it only if you ` +
          'agreed to that fee.',
        data,
      ),
    )
  }
  return warnings
}
