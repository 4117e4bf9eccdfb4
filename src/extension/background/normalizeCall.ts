/**
 * Makes a call the hook intercepted whole: from the detached copy of the dapp's params and the wallet's own answers
 * (accounts, chain), the exact params the wallet will receive on Continue, the signer and the chain. This runs in the
 * worker, where nothing the page can touch exists; the hook forwards what comes out of here and nothing else.
 *
 * - Transactions (eth_sendTransaction, its wallet_sendTransaction alias, eth_signTransaction): see txParams.ts (from
 *   and chainId filled, contradictions refused).
 * - Typed data (v1, v3, v4 and plain eth_signTypedData): the signer and the data are found whichever order they
 *   come in; a JSON string is parsed without losing big integers and forwarded re-serialised from that parse, so
 *   the wallet cannot read duplicate keys or huge numbers differently from the window.
 * - personal_sign in either order, eth_sign (its hex lowercase, an odd count padded as wallets pad it), wallet_sendCalls
 *   (1.0 and 2.0.0), eth_sendRawTransaction (decoded).
 */
import { type Address, isAddress, isHex, numberToHex } from 'viem'
import { isRecord, rawMessageHex } from '../../engine/index.ts'
import type { HookCall, ProviderError } from '../relay/protocol.ts'
import { parseJsonLossless } from '../shared/losslessJson.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import type { SignedTx } from '../shared/signedTx.ts'
import { noAccount, normalizeTx, ParamError, toAddress, toChainId, toData, toQuantity } from '../shared/txParams.ts'

export type NormalCall = {
  method: InterceptedMethod
  /** What the wallet receives on Continue, exactly. */
  params: unknown[]
  /** The account that signs (lowercase). */
  account: Address
  /** The chain the request is for (0 when the wallet did not say). */
  chainId: number
}

export type Normalized = { ok: true; call: NormalCall } | { ok: false; error: ProviderError }

const isAddr = (value: unknown): value is string => typeof value === 'string' && isAddress(value, { strict: false })

/** The wallet's first account, when it reported one. */
function walletAccount(accounts: unknown): Address | undefined {
  const first = Array.isArray(accounts) ? accounts[0] : undefined
  return isAddr(first) ? (first.toLowerCase() as Address) : undefined
}

/** The wallet's chain as a number; 0 when it did not answer with a chain id. */
export function walletChain(chainId: unknown): number {
  if (typeof chainId === 'number') return Number.isSafeInteger(chainId) && chainId > 0 ? chainId : 0
  if (typeof chainId !== 'string' || !/^(0x[0-9a-f]+|\d+)$/i.test(chainId)) return 0
  const value = Number(chainId.toLowerCase())
  return Number.isSafeInteger(value) && value > 0 ? value : 0
}

/** The params as a list (a few dapps pass a single object). */
const listOf = (params: unknown): unknown[] => (Array.isArray(params) ? params : params === undefined ? [] : [params])

/** Bigints, and numbers a double cannot hold exactly, as decimal strings, recursively: how a wallet must read them. */
export function exactNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return BigInt(value).toString()
  }
  if (Array.isArray(value)) return value.map(exactNumbers)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exactNumbers(inner)]))
  }
  return value
}

/** Typed data in the form to forward (string stays string, re-serialised) and parsed for the scan. */
function typedDataOf(raw: unknown, field: string): unknown {
  if (typeof raw !== 'string') {
    if (raw === null || typeof raw !== 'object') throw new ParamError(-32602, `Preflight: ${field} must be typed data.`)
    return exactNumbers(raw)
  }
  let parsed: unknown
  try {
    parsed = parseJsonLossless(raw)
  } catch {
    throw new ParamError(-32602, `Preflight: ${field} is not valid JSON.`)
  }
  if (parsed === null || typeof parsed !== 'object')
    throw new ParamError(-32602, `Preflight: ${field} must be typed data.`)
  return JSON.stringify(parsed)
}

/** The methods that sign typed data, whose domain can bind them to a chain. */
export const TYPED_DATA_METHODS: ReadonlySet<string> = new Set([
  'eth_signTypedData_v4',
  'eth_signTypedData_v3',
  'eth_signTypedData_v1',
  'eth_signTypedData',
])

function typedData(method: InterceptedMethod, list: unknown[], account: Address | undefined) {
  const [first, second] = list
  // The address is found by its shape: v1 puts the data first, v3/v4 the address, and dapps mix them up.
  const dataFirst = isAddr(second) && !isAddr(first)
  const signerParam = dataFirst ? second : isAddr(first) ? first : undefined
  const dataIndex = dataFirst || signerParam === undefined ? 0 : 1
  const signer = signerParam === undefined ? account : toAddress(signerParam, `params[${1 - dataIndex}]`)
  if (!signer) throw noAccount()
  const data = typedDataOf(list[dataIndex], `params[${dataIndex}]`)
  const parsed: unknown = typeof data === 'string' ? JSON.parse(data) : data
  const legacy = Array.isArray(parsed)
  // v3/v4 wallets take [address, data] and v1 [data, address]; plain eth_signTypedData keeps the dapp's order.
  const dataFirstOut =
    method === 'eth_signTypedData_v1' ||
    (method === 'eth_signTypedData' && (signerParam === undefined ? legacy : dataFirst))
  return { account: signer, params: dataFirstOut ? [data, signer] : [signer, data], chainId: domainChain(parsed) }
}

/**
 * The chain a typed-data signature is bound to by its domain, which is the chain to simulate it on whatever the page
 * says the wallet is on; undefined when the domain binds none: no chainId, one a chain could not have (the scan says it
 * is malformed), or one `types.EIP712Domain` does not declare, which is not signed and so binds nothing.
 */
function domainChain(typedData: unknown): number | undefined {
  const data = isRecord(typedData) ? typedData : {}
  const domain = isRecord(data.domain) ? data.domain : {}
  const domainType = isRecord(data.types) && Object.hasOwn(data.types, 'EIP712Domain') ? data.types.EIP712Domain : []
  const signed = Array.isArray(domainType) && domainType.some((field) => isRecord(field) && field.name === 'chainId')
  if (!signed || !Object.hasOwn(domain, 'chainId') || domain.chainId === null) return undefined
  // As the scan and the wallet's encoder read it (BigInt's text forms: " 1", "+1", "0o1"), so the chain the request is
  // simulated on is the one its signature binds.
  // Text longer than any chain id is not parsed (BigInt takes time on page-sized text), only refused by toChainId.
  const written = domain.chainId
  try {
    return toChainId(typeof written === 'string' && written.length <= 80 ? BigInt(written) : written, 'domain.chainId')
  } catch {
    return undefined
  }
}

function personalSign(list: unknown[], account: Address | undefined) {
  const [first, second] = list
  // The standard order is [message, account]; some dapps send [account, message].
  const [message, signer] = isAddr(second) || !isAddr(first) ? [first, second] : [second, first]
  if (typeof message !== 'string') throw new ParamError(-32602, 'Preflight: the message to sign must be a string.')
  const address = signer === undefined ? account : toAddress(signer, 'the signing address')
  if (!address) throw noAccount()
  return { account: address, params: [message, address] }
}

function ethSign(list: unknown[], account: Address | undefined) {
  const [signer, data] = list
  const address = signer === undefined ? account : toAddress(signer, 'params[0]')
  if (!address) throw noAccount()
  if (typeof data !== 'string' || !isHex(data, { strict: true })) {
    throw new ParamError(-32602, 'Preflight: params[1] of eth_sign must be 0x-hex data.')
  }
  return { account: address, params: [address, rawMessageHex(data) ?? data] }
}

/** The account an ERC-7715 entry grants from: `from` (the current draft) or `address` (the 2024 one), if it names one. */
function grantingAccount(entry: Record<string, unknown>, field: string): Address | undefined {
  const named = (['from', 'address'] as const).flatMap((key) =>
    entry[key] === undefined || entry[key] === null ? [] : [toAddress(entry[key], `${field}.${key}`)],
  )
  if (named.length === 2 && named[0] !== named[1]) {
    throw new ParamError(
      -32602,
      `Preflight: ${field}.from and ${field}.address name different accounts, and a wallet could grant from either: name one account.`,
    )
  }
  return named[0]
}

/**
 * An ERC-7715 request, `[[{ chainId, from/address?, to/signer, permission, rules/expiry }, …]]`: forwarded as copied
 * (numbers exact), with each entry's chain as minimal hex (the wallet's own when the entry names none), so the chain
 * the window names for every entry is the one the wallet reads; on the chain and for the account the first names.
 */
function permissionRequest(list: unknown[], account: Address | undefined, chainId: number) {
  const requests = list[0]
  if (!Array.isArray(requests) || requests.length === 0 || !requests.every(isRecord)) {
    throw new ParamError(-32602, 'Preflight: params[0] of a permission request must be a non-empty list of objects.')
  }
  const entries = (requests as Record<string, unknown>[]).map((entry, index) => {
    const field = `params[0][${index}]`
    const named = entry.chainId === undefined || entry.chainId === null ? undefined : entry.chainId
    if (named === undefined && chainId === 0) {
      throw new ParamError(
        -32602,
        `Preflight: ${field}.chainId is missing, and the wallet did not say its chain: name the chain of each entry.`,
      )
    }
    const chain = named === undefined ? chainId : toChainId(named, `${field}.chainId`)
    const out = { ...(exactNumbers(entry) as Record<string, unknown>), chainId: numberToHex(chain) }
    return { account: grantingAccount(entry, field), chain, out }
  })
  const [first] = entries
  const address = first?.account ?? account
  if (!address || !first) throw noAccount()
  return { account: address, params: [entries.map((entry) => entry.out)], chainId: first.chain }
}

const CALL_KEYS = new Set(['to', 'data', 'value', 'chainId', 'capabilities'])

/**
 * The chain a call of a batch names, which must be the batch's (`batchChain`, 0 when not known yet: the call's is then
 * the batch's). EIP-5792 as revised in July 2024 put a chainId on each call, and a wallet built to it sends each call
 * on the chain it names, while the batch is simulated and shown on one chain.
 */
function callChain(value: unknown, field: string, batchChain: number): number {
  const named = toChainId(value, field)
  if (batchChain !== 0 && named !== batchChain) {
    throw new ParamError(
      -32602,
      `Preflight: ${field} is chain ${named}, but the batch is for chain ${batchChain}; it is checked on one chain, so send a batch for each chain.`,
    )
  }
  return named
}

function sendCalls(list: unknown[], account: Address | undefined, chainId: number) {
  const batch = list[0]
  if (!batch || typeof batch !== 'object' || Array.isArray(batch)) {
    throw new ParamError(-32602, 'Preflight: params[0] of wallet_sendCalls must be an object with calls.')
  }
  const input = batch as Record<string, unknown>
  const from = input.from === undefined || input.from === null ? account : toAddress(input.from, 'params[0].from')
  if (!from) throw noAccount()
  if (!Array.isArray(input.calls) || input.calls.length === 0) {
    throw new ParamError(-32602, 'Preflight: params[0].calls of wallet_sendCalls must be a non-empty list.')
  }
  let batchChain = input.chainId === undefined ? chainId : toChainId(input.chainId, 'params[0].chainId')
  const calls = input.calls.map((raw, index) => {
    const field = `params[0].calls[${index}]`
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new ParamError(-32602, `Preflight: ${field} must be an object.`)
    const call = raw as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(call)) {
      if (!CALL_KEYS.has(key) || call[key] === undefined || call[key] === null) continue
      if (key === 'to') out.to = toAddress(call.to, `${field}.to`)
      else if (key === 'data') out.data = toData(call.data, `${field}.data`)
      else if (key === 'value') out.value = toQuantity(call.value, `${field}.value`)
      else if (key === 'chainId') {
        batchChain = callChain(call.chainId, `${field}.chainId`, batchChain)
        out.chainId = numberToHex(batchChain)
      } else out.capabilities = exactNumbers(call.capabilities)
    }
    return out
  })
  const out: Record<string, unknown> = {}
  if (typeof input.version === 'string') out.version = input.version
  if (typeof input.id === 'string') out.id = input.id
  if (batchChain !== 0) out.chainId = numberToHex(batchChain)
  out.from = from
  if (typeof input.atomicRequired === 'boolean') out.atomicRequired = input.atomicRequired
  out.calls = calls
  if (input.capabilities !== undefined) out.capabilities = exactNumbers(input.capabilities)
  return { account: from, params: [out], chainId: batchChain }
}

/** Decodes a signed transaction, or throws the ParamError to refuse it with (the scanner page does it: scannerPage.ts). */
export type DecodeSigned = (raw: unknown) => Promise<SignedTx>

/** The whole call, or the error to give the dapp. */
export async function normalizeCall(call: HookCall, decodeSigned: DecodeSigned): Promise<Normalized> {
  const account = walletAccount(call.accounts)
  const chainId = walletChain(call.chainId)
  const list = listOf(call.params)
  const method = call.method
  const done = (value: { account: Address; params: unknown[]; chainId?: number }): Normalized => ({
    ok: true,
    call: { method, params: value.params, account: value.account, chainId: value.chainId ?? chainId },
  })
  try {
    switch (method) {
      case 'eth_sendTransaction':
      case 'wallet_sendTransaction':
      case 'eth_signTransaction': {
        const tx = normalizeTx(list[0], 'params[0]', account, chainId)
        return done({ account: tx.from, params: [tx] })
      }
      case 'eth_sendRawTransaction':
      case 'eth_sendRawTransactionSync': {
        const signed = await decodeSigned(list[0])
        return done({ account: signed.tx.from, params: [signed.raw], chainId: signed.chainId ?? chainId })
      }
      case 'wallet_sendCalls':
        return done(sendCalls(list, account, chainId))
      case 'eth_signTypedData_v4':
      case 'eth_signTypedData_v3':
      case 'eth_signTypedData_v1':
      case 'eth_signTypedData':
        return done(typedData(method, list, account))
      case 'personal_sign':
        return done(personalSign(list, account))
      case 'eth_sign':
        return done(ethSign(list, account))
      case 'wallet_grantPermissions':
      case 'wallet_requestExecutionPermissions':
        return done(permissionRequest(list, account, chainId))
    }
  } catch (error) {
    if (error instanceof ParamError) return { ok: false, error: error.toProviderError() }
    // Whatever else fails while reading the call still answers the dapp, with the reason, instead of leaving it
    // waiting.
    const reason = error instanceof Error ? error.message : String(error)
    return { ok: false, error: { code: -32602, message: `Preflight could not read the request: ${reason}` } }
  }
}
