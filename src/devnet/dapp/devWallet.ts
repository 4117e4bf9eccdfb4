/**
 * A small EIP-1193 wallet for the demo dapp and the e2e tests: it forwards JSON-RPC to the devnet, where anvil's
 * unlocked dev accounts sign transactions and typed data themselves. Runs in a plain page (no Node APIs).
 */
import { getHttpRpcClient } from 'viem/utils'

export type RpcRequest = { method: string; params?: unknown[] | Record<string, unknown> }
export type JsonRpcPayload = { jsonrpc?: '2.0'; id?: number | string; method: string; params?: unknown[] }
type JsonRpcResponse = {
  jsonrpc: '2.0'
  id: number | string | undefined
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}
export type JsonRpcCallback = (error: Error | null, response?: JsonRpcResponse) => void
type Listener = (...args: unknown[]) => void

/** EIP-1193 error: a plain Error carrying the JSON-RPC code, as dapps check `error.code`. */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'ProviderRpcError'
  }
}

export type DevWallet = {
  isMetaMask: false
  isPreflightDevWallet: true
  request(args: RpcRequest): Promise<unknown>
  on(event: string, listener: Listener): DevWallet
  removeListener(event: string, listener: Listener): DevWallet
  /** Legacy forms some dapps still use: send(method, params) → Promise, send(payload, cb), sendAsync(payload, cb). */
  send(
    methodOrPayload: string | JsonRpcPayload,
    paramsOrCallback?: unknown[] | JsonRpcCallback,
  ): Promise<unknown> | undefined
  sendAsync(payload: JsonRpcPayload, callback: JsonRpcCallback): void
}

type DevWalletOptions = { rpcUrl: string; account: string }

/** Creates the provider; `account` answers eth_accounts / eth_requestAccounts and must be unlocked on the node. */
export function createDevWallet({ rpcUrl, account }: DevWalletOptions): DevWallet {
  const rpc = getHttpRpcClient(rpcUrl, { timeout: 30_000 })
  const listeners = new Map<string, Set<Listener>>()
  let nextId = 1

  const call = async (method: string, params: unknown): Promise<unknown> => {
    const reply = (await rpc.request({ body: { id: nextId++, method, params: params ?? [] } })) as JsonRpcResponse
    if (reply.error) throw new ProviderRpcError(reply.error.code, reply.error.message, reply.error.data)
    return reply.result
  }

  const request = async ({ method, params }: RpcRequest): Promise<unknown> => {
    if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [account]
    if (method === 'eth_sendTransaction' && Array.isArray(params)) return call(method, await withGasMargin(params))
    return call(method, params)
  }

  /**
   * A transaction without a gas limit gets the node's estimate plus a margin, as wallets give one: the estimate is
   * made on the current block, and a contract whose cost depends on the block (Uniswap's price accumulators, written
   * once per block time) can need more in the block it lands in.
   */
  const withGasMargin = async (params: unknown[]): Promise<unknown[]> => {
    const [tx, ...rest] = params
    if (typeof tx !== 'object' || tx === null || 'gas' in tx) return params
    const estimate = BigInt((await call('eth_estimateGas', [tx])) as string)
    return [{ ...tx, gas: `0x${((estimate * 13n) / 10n).toString(16)}` }, ...rest]
  }

  const answer = (payload: JsonRpcPayload, callback: JsonRpcCallback) => {
    const base = { jsonrpc: '2.0' as const, id: payload.id }
    request({ method: payload.method, params: payload.params }).then(
      (result) => callback(null, { ...base, result }),
      (error: ProviderRpcError) =>
        callback(error, { ...base, error: { code: error.code ?? -32603, message: error.message } }),
    )
  }

  const wallet: DevWallet = {
    isMetaMask: false,
    isPreflightDevWallet: true,
    request,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return wallet
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
      return wallet
    },
    send(methodOrPayload, paramsOrCallback) {
      if (typeof methodOrPayload === 'string') {
        return request({ method: methodOrPayload, params: (paramsOrCallback as unknown[] | undefined) ?? [] })
      }
      if (typeof paramsOrCallback === 'function') {
        answer(methodOrPayload, paramsOrCallback)
        return undefined
      }
      return request(methodOrPayload)
    },
    sendAsync(payload, callback) {
      answer(payload, callback)
    },
  }
  return wallet
}

type DevWalletInfo = { uuid: string; name: string; icon: string; rdns: string }

/** A random (version 4) UUID: crypto.randomUUID exists only in secure contexts, and a frame in an http page is none. */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const ICON =
  'data:image/svg+xml;base64,' +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b6cb0"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff" font-family="sans-serif">D</text></svg>',
  )

/**
 * Makes the wallet reachable the ways real wallets are: assigned to `window.ethereum` and announced through
 * EIP-6963 with a frozen detail, re-announced whenever a dapp asks with `eip6963:requestProvider`.
 * `windowEthereum: false` announces through EIP-6963 only.
 */
export function announceDevWallet(
  provider: DevWallet,
  options: { info?: Partial<DevWalletInfo>; windowEthereum?: boolean } = {},
): void {
  const info = options.info ?? {}
  const detail = Object.freeze({
    info: Object.freeze({
      uuid: info.uuid ?? randomUuid(),
      name: info.name ?? 'Devnet Wallet',
      icon: info.icon ?? ICON,
      rdns: info.rdns ?? 'dev.preflight.devwallet',
    }),
    provider,
  })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  if (options.windowEthereum !== false) (window as { ethereum?: unknown }).ethereum = provider
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}
