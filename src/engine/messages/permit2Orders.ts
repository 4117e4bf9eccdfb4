/**
 * What a Permit2 signature transfer's witness promises the signer in return. A PermitWitnessTransferFrom signs a
 * one-time transfer together with an order (UniswapX's Dutch, exclusive Dutch, V2 Dutch, priority and limit orders):
 * the order's outputs — structs with a `token`, a `recipient` and an amount (`amount`, or `startAmount`/`endAmount`
 * for an auction) — say what the filler must pay whom. Recognised by those fields, not by the order's name.
 */
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem'
import type { TypedData, TypedStruct } from './typedData.ts'

/** The least of `token` the signer is paid when the order is filled (an auction is shown at its worst). */
export type WitnessOutput = { token: Address; amount: bigint }

type Fields = Record<string, { name: string; type: string }[]>

/** A payment an order's witness promises: `amount` of `token` (the least, for an auction) to `recipient`. */
export type WitnessPayment = WitnessOutput & { recipient: Address }

/** The outputs of a signature transfer's witness paid to `signer`, merged per token; empty without a witness. */
export function witnessOutputs(typedData: TypedData, signer: Address): WitnessOutput[] {
  const found = new Map<string, WitnessOutput>()
  for (const payment of witnessPayments(typedData)) {
    if (!isAddressEqual(payment.recipient, signer)) continue
    const key = payment.token.toLowerCase()
    found.set(key, { token: payment.token, amount: (found.get(key)?.amount ?? 0n) + payment.amount })
  }
  return [...found.values()]
}

/** Every output of a signature transfer's witness, whoever it pays, in order; empty without a witness. */
export function witnessPayments(typedData: TypedData): WitnessPayment[] {
  const { types, primaryType, message } = typedData
  const witnessField = (types as Fields)[primaryType]?.find((field) => field.name === 'witness')
  if (!witnessField || message.witness === undefined) return []
  const payments: WitnessPayment[] = []
  const visit = (type: string, value: unknown) => {
    if (type.endsWith('[]')) {
      if (Array.isArray(value)) for (const item of value) visit(type.slice(0, -2), item)
      return
    }
    const fields = (types as Fields)[type]
    if (!fields || typeof value !== 'object' || value === null) return
    const struct = value as TypedStruct
    const output = asOutput(fields, struct)
    if (output) payments.push(output)
    for (const field of fields) visit(field.type, struct[field.name])
  }
  visit(witnessField.type, message.witness)
  return payments
}

/** An order output: token, recipient and the least amount paid, or null when the struct is not one. */
function asOutput(
  fields: { name: string; type: string }[],
  struct: TypedStruct,
): { token: Address; recipient: Address; amount: bigint } | null {
  const has = (name: string, type: string) => fields.some((field) => field.name === name && field.type === type)
  if (!has('token', 'address') || !has('recipient', 'address')) return null
  const amounts = ['amount', 'startAmount', 'endAmount']
    .filter((name) => has(name, 'uint256') && typeof struct[name] === 'bigint')
    .map((name) => struct[name] as bigint)
  if (amounts.length === 0) return null
  const [least] = amounts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    token: getAddress(struct.token as string),
    recipient: getAddress(struct.recipient as string),
    amount: least as bigint,
  }
}

/** UniswapX pays native currency as the zero address. */
export function isNativeOutput(output: WitnessOutput): boolean {
  return isAddressEqual(output.token, zeroAddress)
}
