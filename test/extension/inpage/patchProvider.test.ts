import './support/pageGlobals.ts'
import { describe, expect, it, vi } from 'vitest'
import type { Gate } from '../../../src/extension/inpage/gate.ts'
import { createPatcher } from '../../../src/extension/inpage/patchProvider.ts'
import { askWallet, heldFor } from '../../../src/extension/inpage/wallets.ts'
import type { Outcome } from '../../../src/extension/relay/protocol.ts'
import { withPlanted } from './support/planted.ts'
import { ZoneLikePromise } from './support/zoneLikePromise.ts'

type Payload = { id?: unknown; jsonrpc?: string; method: string; params?: unknown }
type Callback = (error: unknown, response?: unknown) => void
type Call = { entry: string; self: unknown; payload: Payload }

/**
 * A wallet shaped like MetaMask's provider: request → _rpcRequest → _rpcEngine.handle, methods on a class
 * prototype, `request` bound again as an own property. It records what reaches each layer and answers at once.
 */
function makeWallet() {
  const calls: Call[] = []
  class Engine {
    handle(payload: Payload | Payload[], callback?: Callback): unknown {
      calls.push({ entry: 'handle', self: this, payload: payload as Payload })
      const answer = (item: Payload) => ({ id: item.id, jsonrpc: '2.0', result: `answer:${item.method}` })
      const response = Array.isArray(payload) ? payload.map(answer) : answer(payload)
      if (!callback) return Promise.resolve(response)
      callback(null, response)
      return undefined
    }
  }
  class Provider {
    _rpcEngine = new Engine()
    constructor() {
      this.request = this.request.bind(this)
    }
    request(args: Payload): Promise<unknown> {
      calls.push({ entry: 'request', self: this, payload: args })
      return new Promise((resolve) =>
        this._rpcRequest({ method: args.method, params: args.params }, (_e, response) =>
          resolve((response as { result: unknown }).result),
        ),
      )
    }
    _rpcRequest(payload: Payload | Payload[], callback: Callback) {
      calls.push({ entry: '_rpcRequest', self: this, payload: payload as Payload })
      return this._rpcEngine.handle(payload, callback)
    }
    sendAsync(payload: Payload | Payload[], callback: Callback) {
      this._rpcRequest(payload, callback)
    }
  }
  return { wallet: new Provider(), calls, Provider }
}

/** A gate that answers every review with `decide` and records what it was asked. */
function gateThat(decide: (params: unknown) => Outcome) {
  const reviewed: { method: string; params: unknown; provider: object }[] = []
  const gate: Gate = (held, method, params, done) => {
    reviewed.push({ method, params, provider: held.provider })
    queueMicrotask(() => done(decide(params)))
  }
  return { gate, reviewed }
}

const forward = (params: unknown): Outcome => ({ kind: 'forward', params: structuredClone(params) })
const reject = (): Outcome => ({
  kind: 'error',
  error: { code: 4001, message: 'User rejected the request: user denied it in Preflight.' },
})
/** A MetaMask-shaped wallet the patcher holds, whose providers[] list holds a wallet the hook has not seen yet. */
function hostWithLateWallet(patcher: ReturnType<typeof createPatcher>) {
  const host = makeWallet().wallet as unknown as { providers: unknown[] }
  patcher.register(host)
  const late = { request: (_args: Payload) => Promise.resolve('late raw') }
  host.providers = [host, late]
  return { host, late }
}

/** Continue on the first review, reject every later one: what a user does who approved a request once. */
function forwardFirstOnly(): (params: unknown) => Outcome {
  let decisions = 0
  return (params) => (decisions++ === 0 ? forward(params) : reject())
}
const SIGN = { method: 'personal_sign', params: ['0x6869', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'] }

describe('patching a wallet where its methods live', () => {
  it('passes other methods on as a copy holding the same params, with the same this, and reviews nothing', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const params = ['0x1', 'latest']
    await expect(wallet.request({ method: 'eth_getBalance', params })).resolves.toBe('answer:eth_getBalance')
    expect(reviewed).toEqual([])
    expect(calls[0]?.payload).toEqual({ method: 'eth_getBalance', params })
    expect(calls[0]?.payload.params).toBe(params)
  })

  it('forwards what the gate approved, frozen, to the wallet itself; one review for all of its inner layers', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const fake = { request: () => Promise.resolve('not the wallet') }
    await expect(wallet.request.call(fake, SIGN)).resolves.toBe('answer:personal_sign')
    expect(reviewed).toEqual([{ method: 'personal_sign', params: SIGN.params, provider: wallet }])
    expect(calls.map((call) => call.entry)).toEqual(['request', '_rpcRequest', 'handle'])
    const atTransport = calls[2]?.payload as Payload
    expect(atTransport.params).toEqual(SIGN.params)
    expect(atTransport.params).not.toBe(SIGN.params)
    expect(Object.isFrozen(atTransport.params)).toBe(true)
  })

  it('sends nothing after a Continue when the page planted a field the approved transaction leaves out', async () => {
    const { wallet, calls } = makeWallet()
    createPatcher(gateThat(forward).gate, () => false).register(wallet)
    const tx = { from: SIGN.params[1], to: SIGN.params[1], chainId: '0x7a69' }
    const outcome = await withPlanted({ value: '0xde0b6b3a7640000' }, () =>
      wallet.request({ method: 'eth_sendTransaction', params: [tx] }).then(
        (result) => ({ result }),
        (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
      ),
    )
    expect(outcome).toEqual({
      code: -32603,
      message: expect.stringContaining('the transaction has no "value", and the page defined "value" on every object'),
    })
    expect(calls).toEqual([])
    await expect(wallet.request({ method: 'eth_sendTransaction', params: [tx] })).resolves.toBe(
      'answer:eth_sendTransaction',
    )
  })

  it('throws the gate error and sends nothing when the user rejects', async () => {
    const { wallet, calls } = makeWallet()
    createPatcher(gateThat(reject).gate, () => false).register(wallet)
    await expect(wallet.request(SIGN)).rejects.toMatchObject({
      code: 4001,
      message: 'User rejected the request: user denied it in Preflight.',
    })
    expect(calls).toEqual([])
  })

  it('reviews the prototype method and the internal entry points when the page calls them itself', async () => {
    const { wallet, calls, Provider } = makeWallet()
    const { gate, reviewed } = gateThat(reject)
    createPatcher(gate, () => false).register(wallet)
    await expect(Provider.prototype.request.call(wallet, SIGN)).rejects.toMatchObject({ code: 4001 })
    const viaRpc = await new Promise((resolve) => wallet._rpcRequest({ ...SIGN, id: 1 }, (error) => resolve(error)))
    expect(viaRpc).toMatchObject({ code: 4001 })
    const viaEngine = await wallet._rpcEngine.handle({ ...SIGN, id: 2 })
    expect(viaEngine).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: 4001, message: 'User rejected the request: user denied it in Preflight.' },
    })
    expect(reviewed).toHaveLength(3)
    expect(calls).toEqual([])
  })

  it('refuses a prototype method called on an object the page made, which no wallet stands behind', async () => {
    const { wallet, Provider } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const made = Object.create(Provider.prototype)
    await expect(Provider.prototype.request.call(made, SIGN)).rejects.toMatchObject({ code: 4100 })
    expect(reviewed).toEqual([])
  })

  it('takes a sendAsync batch apart when one element needs review, and answers once, in order', async () => {
    const { wallet } = makeWallet()
    const { gate, reviewed } = gateThat(reject)
    createPatcher(gate, () => false).register(wallet)
    const answers: unknown[] = []
    await new Promise<void>((resolve) =>
      wallet.sendAsync(
        [
          { id: 1, jsonrpc: '2.0', method: 'eth_chainId' },
          { id: 2, jsonrpc: '2.0', ...SIGN },
        ],
        (error, responses) => {
          answers.push([error, responses])
          resolve()
        },
      ),
    )
    expect(reviewed).toHaveLength(1)
    expect(answers).toEqual([
      [
        null,
        [
          { id: 1, jsonrpc: '2.0', result: 'answer:eth_chainId' },
          {
            id: 2,
            jsonrpc: '2.0',
            error: { code: 4001, message: 'User rejected the request: user denied it in Preflight.' },
          },
        ],
      ],
    ])
  })

  it('reads the method once: a getter cannot say one thing to the hook and another to the wallet', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    let reads = 0
    const payload = {
      get method() {
        return reads++ === 0 ? 'eth_chainId' : 'eth_sendTransaction'
      },
      params: [],
    }
    await wallet.request(payload as Payload)
    expect(reviewed).toEqual([])
    expect(calls.map((call) => call.payload.method)).toEqual(['eth_chainId', 'eth_chainId', 'eth_chainId'])
  })

  it('stays in front of a method the wallet assigns later, and forwards to the new one', async () => {
    const { wallet } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const seen: unknown[] = []
    wallet.request = (args: Payload) => {
      seen.push(args)
      return Promise.resolve('new')
    }
    await expect(wallet.request(SIGN)).resolves.toBe('new')
    expect(reviewed).toHaveLength(1)
    expect(seen).toHaveLength(1)
  })

  it('stands in for a frozen provider, and hooks a wallet that joins providers[] later', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => true)
    const frozen = Object.freeze({ isFrozenWallet: true, request: (_args: Payload) => Promise.resolve('raw') })
    const standIn = patcher.register(frozen) as typeof frozen
    expect(standIn).not.toBe(frozen)
    expect(standIn.isFrozenWallet).toBe(true)
    await expect(standIn.request(SIGN)).rejects.toMatchObject({ code: 4001 })

    const host = makeWallet().wallet as unknown as { providers?: unknown[] }
    patcher.register(host)
    const late = { request: (_args: Payload) => Promise.resolve('late raw') }
    host.providers = [host]
    host.providers.push(late)
    const seen = host.providers[1] as typeof late
    await expect(seen.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(2)
  })

  it('stands in for a wallet hardened whole (harden()): provider, engine and their class prototypes frozen', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => true)
    const { wallet, calls, Provider } = makeWallet()
    for (const frozen of [Provider.prototype, Object.getPrototypeOf(wallet._rpcEngine), wallet._rpcEngine, wallet]) {
      Object.freeze(frozen)
    }
    const standIn = patcher.register(wallet) as typeof wallet
    expect(standIn).not.toBe(wallet)
    await expect(standIn.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    const viaRpc = await new Promise((resolve) => standIn._rpcRequest({ ...SIGN, id: 1 }, (error) => resolve(error)))
    expect(viaRpc).toMatchObject({ code: 4001 })
    expect(await standIn._rpcEngine.handle({ ...SIGN, id: 2 })).toMatchObject({ error: { code: 4001 } })
    // The class's own method, reached through the stand-in's prototype, still calls the hooked layers beneath it
    // (this wallet's request drops their error; what counts is that the request went to review, not to the engine).
    await Provider.prototype.request.call(standIn, SIGN).catch(() => undefined)
    expect(reviewed.map((one) => one.method)).toEqual([
      'personal_sign',
      'personal_sign',
      'personal_sign',
      'personal_sign',
    ])
    expect(calls.filter((call) => call.entry !== 'request' && call.payload.method === 'personal_sign')).toEqual([])
  })

  it('shows a frozen engine through a stand-in where the provider itself could be hooked', async () => {
    const { gate, reviewed } = gateThat(reject)
    const { wallet, calls } = makeWallet()
    Object.freeze(Object.getPrototypeOf(wallet._rpcEngine))
    createPatcher(gate, () => true).register(wallet)
    expect(await wallet._rpcEngine.handle({ ...SIGN, id: 3 })).toMatchObject({ error: { code: 4001 } })
    expect(reviewed).toHaveLength(1)
    expect(calls.filter((call) => call.entry === 'handle')).toEqual([])
  })

  it("hooks a wallet as it joins providers[], also in a list the page keeps or through the page's own setter", async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => true)
    const late = () => ({ request: (_args: Payload) => Promise.resolve('late raw') })

    const host = makeWallet().wallet as unknown as { providers?: unknown[] }
    patcher.register(host)
    const kept: unknown[] = [host]
    host.providers = kept
    const pushed = late()
    host.providers.push(pushed)
    const spliced = late()
    host.providers.splice(1, 0, spliced)
    const defined = late()
    Object.defineProperty(host.providers, 3, { value: defined, configurable: true, writable: true, enumerable: true })
    for (const wallet of [kept[1], kept[2], kept[3]]) {
      await expect((wallet as ReturnType<typeof late>).request(SIGN)).rejects.toMatchObject({ code: 4001 })
    }

    const other = makeWallet().wallet as unknown as { providers?: unknown[] }
    patcher.register(other)
    let taken: unknown[] = []
    Object.defineProperty(other, 'providers', {
      get: () => taken,
      set: (value: unknown[]) => {
        taken = value
      },
      configurable: true,
    })
    // As the hook's Object.defineProperty reports it (discover.ts).
    patcher.redefined(other, 'providers')
    other.providers = [other, late()]
    await expect((taken[1] as ReturnType<typeof late>).request(SIGN)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(4)
  })

  it('lets an approval through each entry point once: params taken from the wallet cannot be sent again', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    createPatcher(gate, () => false).register(wallet)
    const TX = { method: 'eth_sendTransaction', params: [{ to: '0x000000000000000000000000000000000000dEaD' }] }
    // The wallet reads `id` from a payload of its own that has none; a getter on Object.prototype gets it as `this`.
    let taken: unknown
    Object.defineProperty(Object.prototype, 'id', {
      configurable: true,
      get(this: { params?: unknown }) {
        if (Object.isFrozen(this.params)) taken = this.params
        return undefined
      },
    })
    try {
      await wallet.request(TX)
    } finally {
      delete (Object.prototype as { id?: unknown }).id
    }
    expect(taken).toBeDefined()
    const replay = { method: 'eth_sendTransaction', params: taken }
    await expect(wallet.request(replay)).rejects.toMatchObject({ code: 4001 })
    const viaSendAsync = await new Promise((resolve) => wallet.sendAsync({ ...replay, id: 1 }, resolve))
    expect(viaSendAsync).toMatchObject({ code: 4001 })
    const viaRpc = await new Promise((resolve) => wallet._rpcRequest({ ...replay, id: 2 }, resolve))
    expect(viaRpc).toMatchObject({ code: 4001 })
    expect(await wallet._rpcEngine.handle({ ...replay, id: 3 })).toMatchObject({ error: { code: 4001 } })
    expect(reviewed).toHaveLength(5)
    expect(calls.filter((call) => call.entry === 'handle')).toHaveLength(1)
  })

  it('does not let an approval for one wallet through the entry points of another', async () => {
    const first = makeWallet()
    const second = makeWallet()
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    const patcher = createPatcher(gate, () => false)
    patcher.register(first.wallet)
    patcher.register(second.wallet)
    await first.wallet.request(SIGN)
    const approved = first.calls.find((call) => call.entry === 'handle')?.payload.params
    expect(Object.isFrozen(approved)).toBe(true)
    await expect(second.wallet._rpcEngine.handle({ ...SIGN, params: approved, id: 1 })).resolves.toMatchObject({
      error: { code: 4001 },
    })
    expect(reviewed).toHaveLength(2)
    expect(second.calls).toEqual([])
  })

  it('reviews a request carried by a function, which a wallet reading payload.method would take', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(reject)
    createPatcher(gate, () => false).register(wallet)
    const carrier = Object.assign(() => undefined, SIGN)
    const answer = await new Promise((resolve) => wallet.sendAsync(carrier as unknown as Payload, resolve))
    expect(answer).toMatchObject({ code: 4001 })
    await expect(wallet.request(carrier as unknown as Payload)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toEqual([
      { method: 'personal_sign', params: SIGN.params, provider: wallet },
      { method: 'personal_sign', params: SIGN.params, provider: wallet },
    ])
    expect(calls).toEqual([])
  })

  it('refuses a number or a text given as a request while the page defines the method a wallet would read from it', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const engine = wallet._rpcEngine as unknown as { handle: (payload: unknown, callback: Callback) => void }
    const answers = await withPlanted({ method: SIGN.method, params: SIGN.params }, () =>
      Promise.all([
        new Promise((resolve) => wallet.sendAsync(7 as unknown as Payload, resolve)),
        new Promise((resolve) => engine.handle('eth_chainId', resolve)),
        wallet.request(true as unknown as Payload).catch((error) => error),
      ]),
    )
    expect(answers.map((answer) => (answer as { code: number }).code)).toEqual([-32600, -32600, -32600])
    expect(reviewed).toEqual([])
    expect(calls).toEqual([])
    // Without a planted method nothing is refused: the wallet answers whatever it answers to a number.
    await new Promise((resolve) => wallet.sendAsync(7 as unknown as Payload, resolve))
    expect(calls.map((call) => call.payload)).toEqual([7, 7])
  })

  it('gives an object that inherits an entry point the function assigned to it, leaving the prototype as it was', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => false)
    const { wallet, Provider } = makeWallet()
    patcher.register(wallet)
    const proto = Provider.prototype as unknown as { _rpcRequest: unknown }
    const before = proto._rpcRequest
    // A second provider the wallet makes later, as a class does in its constructor.
    const second = Object.create(Provider.prototype) as { _rpcRequest: unknown }
    const own = (_payload: Payload, callback: Callback) => callback(null, { result: 'second' })
    second._rpcRequest = own
    expect(Object.getOwnPropertyDescriptor(second, '_rpcRequest')?.value).toBe(own)
    expect(proto._rpcRequest).toBe(before)
    await expect(wallet.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    // Assigned to a wallet the hook holds, the function is hooked there.
    const held = wallet as unknown as { _rpcRequest: (payload: Payload, callback: Callback) => void }
    held._rpcRequest = own
    expect(held._rpcRequest).not.toBe(own)
    expect(proto._rpcRequest).toBe(before)
    const answer = await new Promise((resolve) => held._rpcRequest(SIGN, resolve))
    expect(answer).toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(2)
  })

  it('asks the wallet its chain through the request it had when held, not one the page assigned later', async () => {
    const { wallet } = makeWallet()
    createPatcher(gateThat(reject).gate, () => false).register(wallet)
    wallet.request = (args: Payload) => Promise.resolve(args.method === 'eth_chainId' ? '0xa' : 'page answer')
    const held = heldFor(wallet)
    if (!held) throw new Error('the wallet is not held')
    const chain = await new Promise((resolve) => askWallet(held, 'eth_chainId', resolve))
    expect(chain).toBe('answer:eth_chainId')
  })

  it('hooks a wallet read from providers[] through its property descriptor, or behind a providers getter', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => true)
    const { host, late } = hostWithLateWallet(patcher)
    const described = Object.getOwnPropertyDescriptor(host.providers, 1)?.value as typeof late
    await expect(described.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    const [, viaAll] = Object.values(Object.getOwnPropertyDescriptors(host.providers)).map((d) => d.value)
    await expect((viaAll as typeof late).request(SIGN)).rejects.toMatchObject({ code: 4001 })

    const inner = { request: (_args: Payload) => Promise.resolve('inner raw') }
    const list: unknown[] = [inner]
    const withGetter = Object.defineProperty({ request: () => Promise.resolve('outer raw') }, 'providers', {
      get: () => list,
      configurable: true,
    }) as unknown as { providers: (typeof inner)[] }
    patcher.register(withGetter)
    await expect(inner.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    const joined = { request: (_args: Payload) => Promise.resolve('joined raw') }
    list.push(joined)
    await expect(withGetter.providers[1]?.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(4)
  })

  it('lets a wallet enter an entry point again from within it, with the params it was forwarded', async () => {
    const sent: Payload[] = []
    type Wallet = { sendAsync(payload: Payload, callback?: Callback): unknown }
    const wallet: Wallet = {
      // Like the e2e wallet's engine: the promise form calls the callback form of the same entry point.
      sendAsync(payload, callback) {
        if (!callback) return new Promise((resolve) => this.sendAsync(payload, (_e, response) => resolve(response)))
        sent.push(payload)
        callback(null, 'sent')
        return undefined
      },
    }
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    await expect(wallet.sendAsync(SIGN)).resolves.toBe('sent')
    expect(reviewed).toHaveLength(1)
    expect(sent).toHaveLength(1)
  })

  it('lets params taken from inside the wallet through once more at most, however often the page sends them', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    createPatcher(gate, () => false).register(wallet)
    const refused: unknown[] = []
    let replaying = false
    // The wallet's engine reads `id` while it handles the forwarded payload; the page sends it again from there.
    Object.defineProperty(Object.prototype, 'id', {
      configurable: true,
      get(this: { method?: unknown; params?: unknown }) {
        if (replaying || !Object.isFrozen(this.params)) return undefined
        replaying = true
        for (let round = 0; round < 3; round++) {
          const replay = wallet._rpcEngine.handle({ method: this.method as string, params: this.params }, (error) => {
            if (error) refused.push(error)
          })
          void replay
        }
        replaying = false
        return undefined
      },
    })
    try {
      await wallet.request({
        method: 'eth_sendTransaction',
        params: [{ to: '0x000000000000000000000000000000000000dEaD' }],
      })
    } finally {
      delete (Object.prototype as { id?: unknown }).id
    }
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls.filter((call) => call.entry === 'handle')).toHaveLength(2)
    expect(reviewed).toHaveLength(3)
    expect(refused).toHaveLength(2)
  })

  it('lets params taken while a direct wallet is busy through once more at most, whichever entry points they try', async () => {
    // Shaped like wallets whose request, send and sendAsync each go straight to their transport.
    const sent: Payload[] = []
    const answers: ((hash: string) => void)[] = []
    const transport = (payload: Payload) => {
      sent.push(payload)
      return new Promise((resolve) => answers.push(resolve))
    }
    class Direct {
      request(args: Payload) {
        return transport(args)
      }
      send(args: Payload) {
        return transport(args)
      }
      sendAsync(args: Payload, callback: Callback) {
        transport(args).then((result) => callback(null, { result }))
      }
    }
    const wallet = new Direct()
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    createPatcher(gate, () => false).register(wallet)
    const first = wallet.request({
      method: 'eth_sendTransaction',
      params: [{ to: '0x000000000000000000000000000000000000dEaD' }],
    })
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    const replay = { method: 'eth_sendTransaction', params: sent[0]?.params }
    const replays = Promise.allSettled([
      wallet.send(replay),
      new Promise((resolve, reject) => wallet.sendAsync(replay, (error) => (error ? reject(error) : resolve('sent')))),
      Direct.prototype.request.call(wallet, replay),
    ])
    await vi.waitFor(() => expect(reviewed).toHaveLength(3))
    for (const answer of answers) answer('0xhash')
    await expect(first).resolves.toBe('0xhash')
    const outcomes = await replays
    await expect(wallet.request(replay)).rejects.toMatchObject({ code: 4001 })
    expect(sent).toHaveLength(2)
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(2)
    expect(reviewed).toHaveLength(4)
  })

  it('ends an approval as soon as the forward returns when the page stops the hook from watching the answer', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    createPatcher(gate, () => false).register(wallet)
    const original = Object.getOwnPropertyDescriptor(Promise.prototype, 'constructor') as PropertyDescriptor
    Object.defineProperty(Promise.prototype, 'constructor', {
      configurable: true,
      get() {
        if (new Error().stack?.includes('endWhenSettled')) throw new Error('no watching')
        return Promise
      },
    })
    try {
      await wallet.request(SIGN)
    } finally {
      Object.defineProperty(Promise.prototype, 'constructor', original)
    }
    const taken = calls.find((call) => call.entry === 'handle')?.payload.params
    await expect(wallet._rpcEngine.handle({ ...SIGN, params: taken, id: 1 })).resolves.toMatchObject({
      error: { code: 4001 },
    })
    expect(reviewed).toHaveLength(2)
    expect(calls.filter((call) => call.entry === 'handle')).toHaveLength(1)
  })

  it("keeps an approval until a Promise polyfill's answer (zone.js) settles: the wallet's inner call after it passes", async () => {
    const { gate, reviewed } = gateThat(forwardFirstOnly())
    const inner: Payload[] = []
    // A wallet compiled for older targets: its promise is the global one of the moment, a polyfill's.
    const wallet = {
      request(args: Payload) {
        return new ZoneLikePromise((resolve, reject) => {
          queueMicrotask(() =>
            this._rpcRequest(args, (error, response) =>
              error ? reject(error) : resolve((response as { result: unknown }).result),
            ),
          )
        })
      },
      _rpcRequest(payload: Payload, callback: Callback) {
        inner.push(payload)
        callback(null, { id: 1, jsonrpc: '2.0', result: `answer:${payload.method}` })
      },
    }
    createPatcher(gate, () => false).register(wallet)
    await expect(wallet.request(SIGN)).resolves.toBe('answer:personal_sign')
    expect(reviewed).toHaveLength(1)
    expect(inner).toHaveLength(1)
  })

  it('lets the forwarded call through a wallet a selector forwards to, and a wallet that calls itself after an await', async () => {
    const chosen = makeWallet()
    const selector = { request: (args: Payload) => chosen.wallet.request(args) }
    const { gate, reviewed } = gateThat(forward)
    const patcher = createPatcher(gate, () => false)
    patcher.register(chosen.wallet)
    patcher.register(selector)
    await expect(selector.request(SIGN)).resolves.toBe('answer:personal_sign')
    expect(reviewed).toHaveLength(1)
    expect(chosen.calls.filter((call) => call.entry === 'handle')).toHaveLength(1)

    const sent: Payload[] = []
    const starting = {
      ready: false,
      async request(args: Payload): Promise<unknown> {
        if (!this.ready) {
          await Promise.resolve()
          this.ready = true
          return this.request(args)
        }
        sent.push(args)
        return 'sent'
      },
    }
    patcher.register(starting)
    await expect(starting.request(SIGN)).resolves.toBe('sent')
    expect(reviewed).toHaveLength(2)
    expect(sent).toHaveLength(1)
  })

  it('hooks a wallet in a providers[] slot the page made fixed, and answers descriptors without Object.prototype', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => true)
    const { host, late } = hostWithLateWallet(patcher)
    Object.defineProperty(host.providers, 1, { configurable: false })
    let planted = 0
    Object.defineProperty(Object.prototype, 'get', {
      configurable: true,
      get() {
        planted++
        return undefined
      },
    })
    let described: typeof late
    try {
      described = Object.getOwnPropertyDescriptor(host.providers, 1)?.value as typeof late
    } finally {
      delete (Object.prototype as { get?: unknown }).get
    }
    expect(planted).toBe(0)
    await expect(described.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(1)
  })

  it('asks a wallet held before it had a request through the first one it defines; a throwing providers getter is survived', async () => {
    const { gate } = gateThat(reject)
    const patcher = createPatcher(gate, () => false)
    const bare = Object.defineProperty({}, 'providers', {
      get() {
        throw new Error('not yet')
      },
      configurable: true,
    }) as { request?: (args: Payload) => Promise<unknown> }
    expect(patcher.register(bare)).toBe(bare)
    Object.defineProperty(bare, 'request', {
      value: (args: Payload) => Promise.resolve(args.method === 'eth_chainId' ? '0x7a69' : 'other'),
      configurable: true,
      writable: true,
    })
    patcher.redefined(bare, 'request')
    const held = heldFor(bare)
    if (!held) throw new Error('not held')
    await expect(new Promise((resolve) => askWallet(held, 'eth_chainId', resolve))).resolves.toBe('0x7a69')
  })

  it('wraps entry points a wallet assigns after publishing its provider, once its script has run or when seen again', async () => {
    const { gate, reviewed } = gateThat(reject)
    const patcher = createPatcher(gate, () => false)
    const answer = (args: Payload) =>
      Promise.resolve(args.method === 'eth_chainId' ? '0x7a69' : `answer:${args.method}`)
    // Published empty, filled in by plain assignment in the same script: no defineProperty the hook could see.
    const early = {} as { request?: (args: Payload) => Promise<unknown> }
    expect(patcher.register(early)).toBe(early)
    early.request = answer
    await Promise.resolve()
    await expect(early.request(SIGN)).rejects.toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(1)
    const held = heldFor(early)
    if (!held) throw new Error('not held')
    await expect(new Promise((resolve) => askWallet(held, 'eth_chainId', resolve))).resolves.toBe('0x7a69')
    // Filled in later still (after an await): wrapped when the hook sees it again (DOMContentLoaded, load, an announcement).
    const late = {} as { sendAsync?: (payload: Payload, callback: (error: unknown, response: unknown) => void) => void }
    patcher.register(late)
    await Promise.resolve()
    late.sendAsync = (payload, callback) => callback(null, { id: payload.id, jsonrpc: '2.0', result: 'signed' })
    patcher.register(late)
    const response = await new Promise((resolve) =>
      late.sendAsync?.({ ...SIGN, id: 1, jsonrpc: '2.0' }, (error, out) => resolve(error ?? out)),
    )
    expect(response).toMatchObject({ code: 4001 })
    expect(reviewed).toHaveLength(2)
  })

  it('lets a dapp wrap request by assignment and call the one it read: one review, the wallet reached once', async () => {
    const { wallet, calls } = makeWallet()
    const { gate, reviewed } = gateThat(forward)
    createPatcher(gate, () => false).register(wallet)
    const logged: string[] = []
    const read = wallet.request
    wallet.request = async (args: Payload) => {
      logged.push(args.method)
      await Promise.resolve()
      return read.call(wallet, args)
    }
    await expect(wallet.request({ method: 'eth_chainId' })).resolves.toBe('answer:eth_chainId')
    await expect(wallet.request(SIGN)).resolves.toBe('answer:personal_sign')
    expect(logged).toEqual(['eth_chainId', 'personal_sign'])
    expect(reviewed).toHaveLength(1)
    expect(calls.filter((call) => call.entry === 'handle')).toHaveLength(2)
  })
})

/**
 * A class-based wallet as most extension wallets ship it: request on the prototype, state in own properties. A class
 * of its own per test: the hook patches the prototype once, for the gate of the first patcher that holds a wallet.
 */
function walletClass() {
  return class ClassWallet {
    received: { method: string; self: unknown }[] = []
    _transport = { name: 'own' }
    async request(this: ClassWallet, { method }: Payload): Promise<unknown> {
      this.received.push({ method, self: this })
      return `${this._transport.name}:${method}`
    }
  }
}

describe('a page-side wrapper around a class-based wallet', () => {
  const sign = (target: { request: (args: Payload) => Promise<unknown> }) =>
    target.request(SIGN).then(
      (ok) => ({ ok }),
      (error: { code: number }) => ({ code: error.code }),
    )

  it('reviews a call through a Proxy of the wallet (logging, analytics) and forwards it to the wallet', async () => {
    const { gate, reviewed } = gateThat(forward)
    const wallet = new (walletClass())()
    createPatcher(gate, () => false).register(wallet)
    const wrapped = new Proxy(wallet, { get: (target, key, receiver) => Reflect.get(target, key, receiver) })
    expect(await sign(wrapped)).toEqual({ ok: 'own:personal_sign' })
    expect(reviewed).toEqual([{ method: 'personal_sign', params: SIGN.params, provider: wallet }])
    expect(wallet.received).toEqual([{ method: 'personal_sign', self: wallet }])
  })

  it('reviews a call through an object inheriting from the wallet and forwards it to the wallet', async () => {
    const { gate, reviewed } = gateThat(forward)
    const wallet = new (walletClass())()
    createPatcher(gate, () => false).register(wallet)
    const derived = Object.create(wallet) as typeof wallet
    // The page's object cannot move the approved call to another transport: it goes to the wallet itself.
    derived._transport = { name: 'page' }
    expect(await sign(derived)).toEqual({ ok: 'own:personal_sign' })
    expect(reviewed).toHaveLength(1)
    expect(wallet.received).toEqual([{ method: 'personal_sign', self: wallet }])
  })

  it('forwards to the wallet the Proxy mirrors, whatever its get trap answers', async () => {
    const { gate, reviewed } = gateThat(forward)
    const patcher = createPatcher(gate, () => false)
    const ClassWallet = walletClass()
    const first = new ClassWallet()
    const second = new ClassWallet()
    second._transport = { name: 'second' }
    patcher.register(first)
    patcher.register(second)
    // Its own properties are the first wallet's; its reads answer with the second's transport.
    const lying = new Proxy(first, {
      get: (target, key) => (key === '_transport' ? second._transport : Reflect.get(target, key)),
    })
    expect(await sign(lying)).toEqual({ ok: 'own:personal_sign' })
    expect(reviewed.map((review) => review.provider)).toEqual([first])
    expect(second.received).toEqual([])
  })

  it("refuses a Proxy that shows no held wallet of the class: one the hook never held, or an object of the page's own", async () => {
    const { gate, reviewed } = gateThat(forward)
    const patcher = createPatcher(gate, () => false)
    class Bare {
      async request({ method }: Payload) {
        return method
      }
    }
    patcher.register(new Bare())
    patcher.register(new Bare())
    expect(await sign(new Proxy(new Bare(), {}))).toEqual({ code: 4100 })
    const ClassWallet = walletClass()
    const wallet = new ClassWallet()
    patcher.register(wallet)
    // A Proxy of an object of the page's own, with the wallet's class and transport but not its own state.
    const made = Object.assign(Object.create(ClassWallet.prototype), { received: [], _transport: wallet._transport })
    expect(await sign(new Proxy(made, {}))).toEqual({ code: 4100 })
    expect(reviewed).toEqual([])
    expect(wallet.received).toEqual([])
  })
})
