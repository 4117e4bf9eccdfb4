/**
 * A test wallet injected the way wallet extensions inject themselves: its own extension's MAIN-world script at
 * document_start in every frame. Its provider is shaped like MetaMask's: methods on a class prototype, some bound
 * again as own properties, `_rpcRequest` and a JSON-RPC engine (`_rpcEngine.handle`) beneath `request`, the object
 * exposed behind a Proxy that swallows `delete`, set on `window.ethereum` with Object.defineProperty and announced
 * through EIP-6963. It signs nothing itself: every request goes to its node (anvil's unlocked dev accounts sign), so a
 * logging proxy in front of the node sees exactly what the wallet received. Like a careful wallet it captures the
 * builtins it uses when it starts, so a page that replaces them attacks the firewall, not the wallet's own transport.
 */

declare const __WALLET__: {
  rpcUrl: string
  account: string
  name: string
  rdns: string
  window: boolean
  announce: boolean
  joinProviders: boolean
  /**
   * Also publish the provider at `global`: `name` by assignment, as the Coinbase extension sets
   * `coinbaseWalletExtension`; `name.inner` inside a namespace object of the wallet's own, as Phantom publishes
   * `phantom.ethereum`.
   */
  global: string | null
  /** Send requests through a content script over window.postMessage (channel.ts), as MetaMask does, named this. */
  channel: string | null
}

type Payload = { jsonrpc?: string; id?: unknown; method: string; params?: unknown }
type RpcResponse = { id?: unknown; jsonrpc?: string; result?: unknown; error?: unknown }
type Callback = (error: unknown, response?: RpcResponse | RpcResponse[]) => void

;(() => {
  const config = __WALLET__
  const post = fetch.bind(window)
  const stringify = JSON.stringify
  const parse = JSON.parse
  const isArray = Array.isArray
  const NativePromise = Promise
  const then = Promise.prototype.then
  const apply = Reflect.apply
  const defineProperty = Object.defineProperty
  const freeze = Object.freeze
  const dispatch = EventTarget.prototype.dispatchEvent
  const listen = EventTarget.prototype.addEventListener
  const NativeCustomEvent = CustomEvent
  const NativeProxy = Proxy
  const postMessage = window.postMessage.bind(window)
  let nextId = 1
  /** Requests sent over the channel, by id, waiting for the content script's answer. */
  const onChannel = new Map<number, (error: unknown, result?: unknown) => void>()
  if (config.channel) {
    const inpage = `${config.channel}-inpage`
    apply(listen, window, [
      'message',
      (event: MessageEvent) => {
        const answer = event.data?.target === inpage ? event.data.data?.data : undefined
        const done = typeof answer?.id === 'number' ? onChannel.get(answer.id) : undefined
        if (!done) return
        onChannel.delete(answer.id)
        if (answer.error) done(answer.error)
        else done(null, answer.result)
      },
    ])
  }

  /** The wallet's transport: one JSON-RPC call to its node, answered through `done`. */
  function transport(payload: Payload, done: (error: unknown, result?: unknown) => void) {
    if (config.channel) {
      const id = nextId++
      onChannel.set(id, done)
      const request = { jsonrpc: '2.0', id, method: payload.method, params: payload.params ?? [] }
      postMessage(
        { target: `${config.channel}-contentscript`, data: { name: `${config.channel}-provider`, data: request } },
        '*',
      )
      return
    }
    if (payload.method === 'eth_accounts' || payload.method === 'eth_requestAccounts') {
      done(null, [config.account])
      return
    }
    const body = stringify({ jsonrpc: '2.0', id: nextId++, method: payload.method, params: payload.params ?? [] })
    const call = post(config.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    // Callbacks return nothing: a promise returned from one would be resolved through the page's `then`.
    apply(then, call, [
      (response: Response) => {
        apply(then, response.text(), [
          (text: string) => {
            const reply = parse(text) as { result?: unknown; error?: { code: number; message: string } }
            if (reply.error) done(reply.error)
            else done(null, reply.result)
          },
          done,
        ])
      },
      done,
    ])
  }

  class Engine {
    handle(request: Payload | Payload[], callback?: Callback): unknown {
      if (!callback) {
        return new NativePromise((resolve) => this.handle(request, (_error, response) => resolve(response)))
      }
      if (isArray(request)) {
        const answers: RpcResponse[] = []
        let left = request.length
        for (const [index, item] of request.entries()) {
          this.handle(item, (_error, response) => {
            answers[index] = response as RpcResponse
            if (--left === 0) callback(null, answers)
          })
        }
        return undefined
      }
      transport(request, (error, result) => {
        const base = { id: request.id, jsonrpc: '2.0' }
        if (error) callback(error, { ...base, error })
        else callback(null, { ...base, result })
      })
      return undefined
    }
  }

  class BaseProvider {
    _rpcEngine = new Engine()
    isMetaMask = true
    isPreflightTestWallet = true

    constructor() {
      // As MetaMask does: a few methods bound again as own properties.
      this.request = this.request.bind(this)
      this.sendAsync = this.sendAsync.bind(this)
    }

    request(args: { method: string; params?: unknown }): Promise<unknown> {
      if (!args || typeof args !== 'object' || isArray(args)) throw new Error('Expected a single request object.')
      const { method, params } = args
      return new NativePromise((resolve, reject) => {
        this._rpcRequest({ method, params }, (error, response) =>
          error || (response as RpcResponse)?.error
            ? reject(error ?? (response as RpcResponse).error)
            : resolve((response as RpcResponse)?.result),
        )
      })
    }

    _rpcRequest(payload: Payload | Payload[], callback: Callback): unknown {
      if (!isArray(payload) && !payload.jsonrpc) payload.jsonrpc = '2.0'
      return this._rpcEngine.handle(payload, callback)
    }

    sendAsync(payload: Payload | Payload[], callback: Callback): void {
      this._rpcRequest(payload, callback)
    }

    send(methodOrPayload: string | Payload, callbackOrParams?: unknown): unknown {
      if (typeof methodOrPayload === 'string') {
        return this.request({ method: methodOrPayload, params: callbackOrParams })
      }
      if (typeof callbackOrParams === 'function') {
        this._rpcRequest(methodOrPayload, callbackOrParams as Callback)
        return undefined
      }
      return this.request(methodOrPayload)
    }

    on() {
      return this
    }

    removeListener() {
      return this
    }
  }

  const provider = new BaseProvider()
  const exposed = new NativeProxy(provider, { deleteProperty: () => true })
  if (config.window) {
    defineProperty(window, 'ethereum', { value: exposed, configurable: true, writable: true, enumerable: true })
  }
  if (config.global) {
    const [name, inner] = config.global.split('.') as [string, string | undefined]
    if (inner) {
      // A namespace locked in place with Object.defineProperty, its provider filled in after it is published.
      const namespace: Record<string, unknown> = {}
      defineProperty(window, name, { value: namespace, configurable: false, writable: false, enumerable: true })
      namespace[inner] = exposed
    } else (window as unknown as Record<string, unknown>)[name] = exposed
  }
  if (config.joinProviders) {
    // As multi-wallet injectors do: join the providers list of the wallet already on the page.
    const host = (window as { ethereum?: { providers?: unknown[] } }).ethereum
    if (host) {
      if (!isArray(host.providers)) host.providers = [host]
      host.providers.push(exposed)
    }
  }
  if (!config.announce) return
  const detail = freeze({
    info: freeze({
      uuid: `${config.rdns}-${nextId}`,
      name: config.name,
      icon: 'data:image/svg+xml,<svg/>',
      rdns: config.rdns,
    }),
    provider: exposed,
  })
  // Re-announcements go through window.dispatchEvent as the page has it then, as real wallets do.
  const announce = () => window.dispatchEvent(new NativeCustomEvent('eip6963:announceProvider', { detail }))
  apply(listen, window, ['eip6963:requestProvider', announce])
  apply(dispatch, window, [new NativeCustomEvent('eip6963:announceProvider', { detail })])
})()
