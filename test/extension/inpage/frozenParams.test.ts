/**
 * What a page can reach after a Continue: a frozen wallet's listeners and the params the wallet is given. Found by a review
 * of two changes (a stand-in running methods on the wallet, an unfrozen copy of the params), since reverted.
 */
import './support/pageGlobals.ts'
import { afterEach, describe, expect, it } from 'vitest'
import type { Gate } from '../../../src/extension/inpage/gate.ts'
import { createPatcher } from '../../../src/extension/inpage/patchProvider.ts'
import type { Outcome } from '../../../src/extension/relay/protocol.ts'

type Payload = { id?: unknown; method: string; params?: unknown }
type Tx = { from: string; to: string; value: string }

function gateThat(decide: (params: unknown) => Outcome) {
  const reviewed: { method: string; params: unknown }[] = []
  const gate: Gate = (_held, method, params, done) => {
    reviewed.push({ method, params: structuredClone(params) })
    queueMicrotask(() => done(decide(params)))
  }
  return { gate, reviewed }
}
const forward = (params: unknown): Outcome => ({ kind: 'forward', params: structuredClone(params) })

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const FRIEND = '0x1111111111111111111111111111111111111111'
const ATTACKER = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0'
const SEND = { method: 'eth_sendTransaction', params: [{ from: ALICE, to: FRIEND, value: '0x1' }] }

const restore: (() => void)[] = []
afterEach(() => {
  while (restore.length) (restore.pop() as () => void)()
})
function replace<T extends object, K extends keyof T>(owner: T, key: K, value: T[K]) {
  const was = owner[key]
  owner[key] = value
  restore.push(() => {
    owner[key] = was
  })
}

describe('a frozen wallet seen through its stand-in', () => {
  it('hands a listener the stand-in as `this`, never the unhooked wallet, so what it sends is reviewed', async () => {
    const { gate, reviewed } = gateThat(forward)
    const sent: Payload[] = []
    class Emitter {
      _events: Record<string, ((...a: unknown[]) => void)[]> = {}
      on(event: string, listener: (...a: unknown[]) => void) {
        this._events[event] = [...(this._events[event] ?? []), listener]
        return this
      }
      emit(event: string, ...args: unknown[]) {
        for (const listener of this._events[event] ?? []) Reflect.apply(listener, this, args)
        return true
      }
    }
    class Wallet extends Emitter {
      async request(args: Payload): Promise<unknown> {
        sent.push(args)
        return `raw:${args.method}`
      }
    }
    Object.freeze(Emitter.prototype)
    Object.freeze(Wallet.prototype)
    const wallet = Object.freeze(new Wallet())
    const exposed = createPatcher(gate, () => false).register(wallet) as Wallet
    expect(exposed).not.toBe(wallet)
    let leaked: unknown
    exposed.on('connect', function (this: unknown) {
      leaked = this
    })
    exposed.emit('connect')
    await (leaked as Wallet).request(SEND)
    expect({ reviewed: reviewed.length, sent: sent.length }).toEqual({ reviewed: 1, sent: 1 })
  })
})

describe('the approved params the wallet is given stay frozen', () => {
  /** A wallet that checks the transaction's keys, awaits its own state, then sends what the tx holds. */
  function keyCheckingWallet() {
    const sent: Tx[] = []
    const wallet = {
      async request(args: Payload): Promise<unknown> {
        if (args.method !== 'eth_sendTransaction') return null
        const tx = (args.params as Tx[])[0] as Tx
        for (const key of Object.keys(tx)) if (!['from', 'to', 'value'].includes(key)) throw new Error('bad key')
        await Promise.resolve()
        sent.push({ ...tx })
        return '0xhash'
      },
    }
    return { wallet, sent }
  }

  it('a page-replaced Object.keys that the wallet calls cannot redirect the approved transaction', async () => {
    const { gate, reviewed } = gateThat(forward)
    const { wallet, sent } = keyCheckingWallet()
    createPatcher(gate, () => false).register(wallet)
    const keys = Object.keys
    let armed = true
    replace(Object, 'keys', ((o: object) => {
      const tx = o as Tx
      if (armed && tx && tx.to === FRIEND && tx !== SEND.params[0]) {
        armed = false
        try {
          tx.to = ATTACKER
          tx.value = '0xde0b6b3a7640000'
        } catch {}
      }
      return keys(o)
    }) as typeof Object.keys)
    await wallet.request(SEND)
    armed = false
    expect(reviewed[0]?.params).toEqual([{ from: ALICE, to: FRIEND, value: '0x1' }])
    // What the wallet sends must be what was reviewed.
    expect(sent).toEqual([{ from: ALICE, to: FRIEND, value: '0x1' }])
  })

  /** A wallet that keeps pending requests in a Map until its own confirmation answers (as postMessage wallets do). */
  function pendingMapWallet() {
    const sent: Tx[] = []
    const pending = new Map<number, Payload>()
    let id = 0
    const wallet = {
      request(args: Payload): Promise<unknown> {
        if (args.method !== 'eth_sendTransaction') return Promise.resolve(null)
        const own = ++id
        pending.set(own, args)
        return new Promise((resolve) =>
          setTimeout(() => {
            const payload = pending.get(own) as Payload
            sent.push({ ...((payload.params as Tx[])[0] as Tx) })
            resolve('0xhash')
          }, 20),
        )
      },
    }
    return { wallet, sent }
  }

  it('a page-replaced Map.prototype.set that captures the approved params cannot send them changed without a window', async () => {
    const { gate, reviewed } = gateThat(forward)
    const { wallet, sent } = pendingMapWallet()
    createPatcher(gate, () => false).register(wallet)
    const set = Map.prototype.set
    let captured: Tx[] | undefined
    replace(Map.prototype, 'set', function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      const params = (value as Payload | undefined)?.params
      if (!captured && Array.isArray(params)) captured = params as Tx[]
      return set.call(this, key, value)
    })
    const first = wallet.request(SEND)
    // wait for the Continue and the forward
    while (!captured) await new Promise((r) => setTimeout(r, 1))
    const tx = captured[0] as Tx
    let frozen = false
    try {
      tx.to = ATTACKER
      tx.value = '0xde0b6b3a7640000'
    } catch {
      frozen = true
    }
    const second = wallet.request({ method: 'eth_sendTransaction', params: captured })
    const settled = await Promise.allSettled([first, second])
    replace(Map.prototype, 'set', set)
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled'])
    // Every transaction the wallet sends must be one that was reviewed (shown in a window).
    for (const s of sent) expect(reviewed.map((r) => (r.params as Tx[])[0])).toContainEqual(s)
    expect({ frozen }).toEqual({ frozen: true })
  })
})
