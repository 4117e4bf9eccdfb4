/**
 * A dapp's transaction object made into exactly what the wallet will be given: every field it would execute checked
 * and written one way (0x-hex quantities, 0x-prefixed data), `from` and `chainId` filled in from the wallet, and
 * anything a wallet could read differently from what the window shows refused: `data` and `input` that disagree,
 * `gas` and `gasLimit` that disagree, a fee of both kinds, authorizations and blobs Preflight cannot judge yet, a
 * transaction type it does not simulate, and any field it does not read (a chain's own, such as Celo's `feeCurrency`
 * or zkSync's `eip712Meta` and `customData`): a wallet for that chain executes it, so dropping it would send another
 * transaction than the dapp built, and forwarding it would send one the window did not show. Null and undefined
 * fields are absent, as a wallet reads them; a client library's own options (ethers' `enableCcipRead`) are dropped.
 */
import { type Address, isAddress, isHex, numberToHex } from 'viem'
import type { ProviderError } from '../relay/protocol.ts'
import { TX_QUANTITIES, TX_UNSUPPORTED } from './txFields.ts'

export type TxFields = {
  from: Address
  to?: Address
  data?: `0x${string}`
  input?: `0x${string}`
  value?: `0x${string}`
  gas?: `0x${string}`
  gasLimit?: `0x${string}`
  gasPrice?: `0x${string}`
  maxFeePerGas?: `0x${string}`
  maxPriorityFeePerGas?: `0x${string}`
  nonce?: `0x${string}`
  type?: `0x${string}`
  chainId?: `0x${string}`
  accessList?: { address: Address; storageKeys: `0x${string}`[] }[]
}

/** Every transaction field Preflight reads, checks and forwards; a transaction setting any other is refused. */
const TX_FIELDS: ReadonlySet<string> = new Set([
  'from',
  'to',
  'data',
  'input',
  'chainId',
  'accessList',
  ...TX_QUANTITIES,
  ...Object.keys(TX_UNSUPPORTED),
])

/**
 * Options of a client library's own transaction request (ethers: CCIP-read for its calls, the block a call reads at)
 * that ride along when a dapp hands such an object to the wallet as it is: no wallet or chain acts on them, so they are
 * dropped rather than refused.
 */
const CLIENT_OPTIONS: ReadonlySet<string> = new Set(['ccipReadEnabled', 'enableCcipRead', 'blockTag'])

/** The transaction types Preflight simulates: legacy, EIP-2930 (access list) and EIP-1559. */
const TX_TYPES: readonly string[] = ['0x0', '0x1', '0x2']

export class ParamError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
  toProviderError(): ProviderError {
    return { code: this.code, message: this.message }
  }
}

/**
 * The refusal of a signed transaction that could not be decoded (-32602) or could not be decoded here at all (-32603:
 * the scanner page that decodes them did not answer); either way it is not forwarded.
 */
export const notDecoded = (code: -32602 | -32603, why: string) =>
  new ParamError(code, `Preflight could not decode this signed transaction, so it is not forwarded: ${why}`)

/**
 * The refusal of a request that names no account when the wallet gave none: its eth_accounts answer was an empty list,
 * or no answer at all (it failed, timed out or was malformed), and the message must not claim which.
 */
export const noAccount = () =>
  new ParamError(
    4100,
    'Preflight got no account from the wallet (it listed none, or did not answer eth_accounts): connect the wallet first.',
  )

const invalid = (field: string, why: string) => new ParamError(-32602, `Preflight: ${field} ${why}.`)

const MAX_UINT256 = 2n ** 256n - 1n

/** A quantity (safe integer, bigint, decimal or 0x-hex string) as minimal 0x-hex; throws naming the field. */
export function toQuantity(value: unknown, field: string): `0x${string}` {
  let parsed: bigint | undefined
  if (typeof value === 'bigint') parsed = value
  // A number past 2^53 is still one exact integer, the one the wallet would read.
  else if (typeof value === 'number' && Number.isInteger(value)) parsed = BigInt(value)
  else if (typeof value === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(value)) parsed = BigInt(value.toLowerCase())
  else if (value === '0x') parsed = 0n
  if (parsed === undefined)
    throw invalid(field, 'must be a non-negative integer (a number, or a decimal or 0x-hex string)')
  if (parsed < 0n || parsed > MAX_UINT256) throw invalid(field, 'is out of range for a uint256')
  return numberToHex(parsed)
}

/** A chain id as a number: a quantity (see toQuantity) that is positive and below 2^53, as every chain's id is. */
export function toChainId(value: unknown, field: string): number {
  const chainId = BigInt(toQuantity(value, field))
  if (chainId === 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(field, 'is not a chain id')
  return Number(chainId)
}

/** Calldata as lowercase 0x-hex of whole bytes; bare hex gets its prefix. */
export function toData(value: unknown, field: string): `0x${string}` {
  if (typeof value !== 'string') throw invalid(field, 'must be a hex string')
  const hex = (value.startsWith('0x') || value.startsWith('0X') ? `0x${value.slice(2)}` : `0x${value}`).toLowerCase()
  if (!isHex(hex, { strict: true }) || hex.length % 2 !== 0)
    throw invalid(field, 'must be hex bytes (an even number of digits)')
  return hex as `0x${string}`
}

/** An address, lowercase; throws naming the field. */
export function toAddress(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw invalid(field, 'is not an address')
  return value.toLowerCase() as Address
}

function toAccessList(value: unknown, field: string): TxFields['accessList'] {
  if (!Array.isArray(value)) throw invalid(field, 'must be a list')
  return value.map((entry, index) => {
    const item = entry as { address?: unknown; storageKeys?: unknown }
    if (!item || typeof item !== 'object' || !Array.isArray(item.storageKeys)) {
      throw invalid(`${field}[${index}]`, 'must be { address, storageKeys[] }')
    }
    return {
      address: toAddress(item.address, `${field}[${index}].address`),
      storageKeys: item.storageKeys.map((key, at) => {
        const hex = toData(key, `${field}[${index}].storageKeys[${at}]`)
        if (hex.length !== 66) throw invalid(`${field}[${index}].storageKeys[${at}]`, 'must be 32 bytes')
        return hex
      }),
    }
  })
}

/**
 * The transaction to forward. `account` is the wallet's account (used when `from` is missing); `chainId` the
 * wallet's chain (0 when unknown): a transaction for another chain is refused, and one without a chain gets the
 * wallet's, so a wallet that switched chains during the review refuses it rather than sending it elsewhere.
 */
export function normalizeTx(raw: unknown, field: string, account: Address | undefined, chainId: number): TxFields {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(field, 'must be a transaction object')
  const tx = raw as Record<string, unknown>
  for (const key of Object.keys(TX_UNSUPPORTED)) {
    if (tx[key] !== undefined && tx[key] !== null)
      throw new ParamError(-32602, `Preflight: this transaction ${TX_UNSUPPORTED[key]}.`)
  }
  const present = (key: string) => tx[key] !== undefined && tx[key] !== null
  for (const key of Object.keys(tx)) {
    if (present(key) && !TX_FIELDS.has(key) && !CLIENT_OPTIONS.has(key)) {
      const name = key.length > 40 ? `${key.slice(0, 40)}…` : key
      throw new ParamError(
        -32602,
        `Preflight: this transaction sets "${name}", which Preflight does not check (a wallet for some chain acts on it), so it is not forwarded.`,
      )
    }
  }
  const from = present('from') ? toAddress(tx.from, `${field}.from`) : account
  if (!from) throw noAccount()
  const out: TxFields = { from }
  // MetaMask's spelling of a contract creation: `to: '0x'` (or '') with code to deploy; forwarded without `to`, as
  // MetaMask reads it, so any wallet creates the contract the window showed.
  const creation = (tx.to === '0x' || tx.to === '') && (present('data') || present('input'))
  if (present('to') && !creation) out.to = toAddress(tx.to, `${field}.to`)
  for (const key of ['data', 'input'] as const) if (present(key)) out[key] = toData(tx[key], `${field}.${key}`)
  if (out.data !== undefined && out.input !== undefined && out.data !== out.input) {
    throw invalid(field, 'has both data and input and they differ (a node executes input and refuses the pair)')
  }
  for (const key of TX_QUANTITIES) if (present(key)) out[key] = toQuantity(tx[key], `${field}.${key}`)
  if (out.type !== undefined && !TX_TYPES.includes(out.type)) {
    throw new ParamError(
      -32602,
      `Preflight: this transaction is of type ${out.type}, which Preflight cannot check (it checks types ${TX_TYPES.join(', ')}).`,
    )
  }
  if (out.gas !== undefined && out.gasLimit !== undefined && out.gas !== out.gasLimit) {
    throw invalid(field, 'has both gas and gasLimit and they differ')
  }
  if (out.gasPrice !== undefined && (out.maxFeePerGas !== undefined || out.maxPriorityFeePerGas !== undefined)) {
    throw invalid(field, 'sets both gasPrice and maxFeePerGas/maxPriorityFeePerGas')
  }
  if (present('accessList')) out.accessList = toAccessList(tx.accessList, `${field}.accessList`)
  if (present('chainId')) {
    const asked = toChainId(tx.chainId, `${field}.chainId`)
    if (chainId !== 0 && asked !== chainId) {
      throw new ParamError(
        4901,
        `Preflight: this transaction is for chain ${asked}, but the wallet is on chain ${chainId}.`,
      )
    }
    out.chainId = numberToHex(asked)
  } else if (chainId !== 0) {
    out.chainId = numberToHex(chainId)
  }
  return out
}

/** The calldata a transaction executes (data and input agree when both are set). */
export const calldataOf = (tx: Pick<TxFields, 'data' | 'input'>) => tx.data ?? tx.input

/** The gas limit a transaction sets (gas and gasLimit agree when both are set). */
export const gasOf = (tx: Pick<TxFields, 'gas' | 'gasLimit'>) => tx.gas ?? tx.gasLimit
