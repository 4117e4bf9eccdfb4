/**
 * A hostile page against the built extension, with a wallet injected the way wallet extensions inject themselves (its
 * own extension, MAIN world, document_start, every frame) and a logging node in front of the devnet that records what
 * the wallet really receives. Each attack runs as the page's own script, after the hook, the way a drainer site's
 * script does. Every attempt must end with the wallet having received nothing a confirmation window did not show and
 * the user did not continue; each test also says what the page and the window saw.
 *
 * Causes, as the issue lists them: A builtins replaced, B the method name, C the live object, D fields the scan does
 * not read, E routes around the patch, F signing methods not intercepted.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { permit2PermitSingle } from '../../src/devnet/eip712.ts'
import type { PendingRequest } from '../../src/extension/shared/pending.ts'
import type { Dapp } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  type Extension,
  pendingOf,
  REJECTED,
  startCall,
} from './support/extension.ts'
import {
  ATTACKER,
  type Attempt,
  answeringFramesHook,
  attempt,
  checkedAttempt,
  type Decide,
  FRIEND,
  ONE_ETH,
  openHostilePage,
  startWalletSession,
  unshownReceived,
  type WalletSession,
} from './support/hostile.ts'
import type { WalletNode } from './support/walletNode.ts'

/**
 * Waits in the confirmation window for an armed Continue, then, in the same task (so no change of the window's own
 * can come between), shifts it (`spacer`: 40 px along, beside the buttons, whether or not the bar is stuck to the
 * window's bottom; `subpixel`: 0.4 px down) and presses it; the click comes `clickAfterMs` later, once the window has
 * drawn what the press found, or at once.
 */
function pressShiftedContinue(confirm: Page, shift: 'spacer' | 'subpixel', clickAfterMs = 0): Promise<void> {
  return confirm.evaluate(
    async ({ shift, clickAfterMs }) => {
      const armed = () =>
        [...document.querySelectorAll('button')].find((item) => item.textContent === 'Continue' && !item.disabled)
      for (const until = Date.now() + 20_000; !armed(); ) {
        if (Date.now() > until) throw new Error('Continue never armed')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const button = armed() as HTMLButtonElement
      if (shift === 'spacer') {
        const spacer = document.createElement('div')
        spacer.style.flex = '0 0 40px'
        button.parentElement?.prepend(spacer)
      } else button.style.transform = 'translateY(0.4px)'
      button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
      if (clickAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, clickAfterMs))
      button.click()
    },
    { shift, clickAfterMs },
  )
}

/**
 * What `read` finds in the next confirmation window to open, once it shows a result; the returned getter is read after
 * the window was decided (undefined if it never showed one).
 */
function readNextWindow<T>(context: BrowserContext, read: (confirm: Page) => Promise<T>): () => T | undefined {
  let found: T | undefined
  void context
    .waitForEvent('page', { predicate: (p) => p.url().includes('/ui/confirm.html') })
    .then(async (confirm) => {
      await confirm.locator('[data-action]:not([data-action="PENDING"])').waitFor()
      found = await read(confirm)
    })
  return () => found
}

describe('a hostile page cannot get the wallet to sign what the window did not show', () => {
  let session: WalletSession
  let devnet: Devnet
  let node: WalletNode
  let dapp: Dapp
  let extension: Extension
  let context: BrowserContext
  let account: string

  beforeAll(async () => {
    const late = { name: 'Late Wallet', rdns: 'dev.preflight.latewallet', window: false, announce: false }
    session = await startWalletSession((base) => [
      base,
      { ...base, ...late, joinProviders: true, runAt: 'document_idle' },
    ])
    ;({ devnet, node, dapp, extension, context, account } = session)
  })
  afterAll(() => session?.close())

  /** Runs `call` on a page whose own script ran `setup` first; `decide` answers each window (checkedAttempt). */
  const run = (
    setup: string,
    call: string,
    decide: Decide | ((shown: PendingRequest) => Decide),
    body = '',
  ): Promise<Attempt> => checkedAttempt({ context, node, dapp }, setup, call, decide, body)

  const tx = (to = ATTACKER, value = ONE_ETH) => `{ from: '${account}', to: '${to}', value: '${value}' }`
  const sendTx = (to = ATTACKER, value = ONE_ETH, provider = 'ethereum') =>
    `${provider}.request({ method: 'eth_sendTransaction', params: [${tx(to, value)}] })`
  const balance = async (address: string) => {
    const reply = await fetch(devnet.fixtures.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, 'latest'] }),
    })
    return BigInt(((await reply.json()) as { result: string }).result)
  }
  const permit2 = (spender: string, amount: string) =>
    JSON.stringify(
      permit2PermitSingle({
        chainId: 31337,
        token: devnet.fixtures.erc20.address,
        amount: BigInt(amount),
        expiration: 1_900_000_000,
        spender: spender as Address,
        sigDeadline: 1_900_000_000,
      }),
    )

  it('lets an honest request through: the window shows it and Continue sends exactly that', async () => {
    const before = await balance(FRIEND)
    const outcome = await run('', sendTx(FRIEND, '0x1'), 'continue')
    expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    expect(outcome.shown.map((entry) => entry.request.params)).toEqual([
      [{ from: account, to: FRIEND, value: '0x1', chainId: '0x7a69' }],
    ])
    expect(outcome.received).toHaveLength(1)
    expect((await balance(FRIEND)) - before).toBe(1n)
  })

  describe('A: builtins the page replaces after the hook started', () => {
    it('Set, Map, WeakMap and WeakSet methods replaced: the window still shows, Reject sends nothing', async () => {
      const before = await balance(ATTACKER)
      for (const setup of [
        'Set.prototype.has = () => false; Map.prototype.get = () => undefined',
        'Set.prototype.has = () => true; Map.prototype.set = function () { return this }; Map.prototype.has = () => true',
        'WeakMap.prototype.get = () => undefined; WeakSet.prototype.has = () => true; WeakMap.prototype.set = function () { return this }',
      ]) {
        const outcome = await run(setup, sendTx(), 'reject')
        expect(outcome.settled).toEqual(REJECTED)
        expect(outcome.shown).toHaveLength(1)
        expect(outcome.received).toEqual([])
      }
      expect(await balance(ATTACKER)).toBe(before)
    })

    it('Promise.prototype.then and a thenable Object.prototype cannot forge a Continue', async () => {
      const forged = `{ kind: 'forward', params: [${tx()}] }`
      const outcome = await run(
        `const then = Promise.prototype.then
         Promise.prototype.then = function (ok, fail) { return then.call(this, () => ok && ok(${forged}), fail) }
         Object.defineProperty(Object.prototype, 'then', { configurable: true, get() {
           return this && this.kind ? (resolve) => resolve(${forged}) : undefined } })`,
        sendTx(),
        'reject',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([])
    })

    it('forged relay messages (MessageEvent data, addEventListener, postMessage replaced) decide nothing', async () => {
      const outcome = await run(
        `const forged = { type: 'settle', rid: 1, outcome: { kind: 'forward', params: [${tx()}] } }
         Object.defineProperty(MessageEvent.prototype, 'data', { configurable: true, get() { return forged } })
         Object.defineProperty(MessageEvent.prototype, 'ports', { configurable: true, get() { return [] } })
         EventTarget.prototype.addEventListener = function () {}
         MessagePort.prototype.postMessage = function () {}
         window.postMessage(forged, '*')`,
        sendTx(),
        'reject',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([])
    })

    it('structuredClone, JSON and Array iteration replaced, object edited during review: Continue sends what was shown', async () => {
      const outcome = await run(
        `window.structuredClone = (value) => value
         JSON.parse = () => ({}); JSON.stringify = () => '{}'
         Array.prototype[Symbol.iterator] = function* () {}
         window.tx = ${tx(FRIEND, '0x1')}`,
        `[ethereum.request({ method: 'eth_sendTransaction', params: [tx] }),
          setTimeout(() => { tx.to = '${ATTACKER}'; tx.value = '${ONE_ETH}' }, 50)][0]`,
        'continue',
      )
      expect(outcome.shown[0]?.request.params).toEqual([{ from: account, to: FRIEND, value: '0x1', chainId: '0x7a69' }])
      expect(outcome.received).toHaveLength(1)
    })

    it('setters and getters planted on Object.prototype and Array.prototype, call and apply replaced', async () => {
      const outcome = await run(
        `for (const key of ['get', 'set', 'kind', 'outcome', 'params', 'error', 'value', 'signal', 'capture']) {
           Object.defineProperty(Object.prototype, key, { configurable: true, get() { return undefined }, set() {} })
         }
         Object.defineProperty(Array.prototype, '0', { configurable: true, get() { return '${ATTACKER}' }, set() {} })
         Function.prototype.apply = function () { throw new Error('apply') }
         Reflect.apply = () => { throw new Error('Reflect.apply') }`,
        sendTx(FRIEND, '0x2'),
        'continue',
      )
      expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toHaveLength(1)
    })

    it('calls no builtin the page can reach while handling a request (every one replaced by a tripwire)', async () => {
      const hook = `chrome-extension://${extension.id}/`
      const page = await openHostilePage(
        context,
        dapp,
        `(() => {
          const includes = String.prototype.includes, split = String.prototype.split, apply = Reflect.apply
          const construct = Reflect.construct, ownKeys = Reflect.ownKeys, describe = Object.getOwnPropertyDescriptor
          const define = Object.defineProperty, NativeError = Error
          const hits = []; window.tripped = hits; let inside = false
          const mark = (name) => {
            if (inside) return
            inside = true
            try {
              const lines = apply(split, new NativeError().stack || '', ['\\n'])
              // 0: "Error", 1: mark, 2: the tripwire, 3: whoever called the builtin.
              if (lines[3] && apply(includes, lines[3], ['${hook}'])) hits[hits.length] = name + ' <- ' + lines[3]
            } finally { inside = false }
          }
          const trap = (owner, key, label) => {
            const d = describe(owner, key)
            if (!d || !d.configurable || key === 'constructor') return
            if (typeof d.value === 'function') {
              const f = d.value
              define(owner, key, { configurable: true, writable: true, enumerable: d.enumerable, value: function (...args) {
                mark(label)
                return new.target ? construct(f, args, new.target) : apply(f, this, args)
              } })
            } else if (d.get) {
              const g = d.get
              define(owner, key, { configurable: true, enumerable: d.enumerable, set: d.set, get: function () {
                mark(label)
                return apply(g, this, [])
              } })
            }
          }
          const owners = { Object, 'Object.prototype': Object.prototype, Array, 'Array.prototype': Array.prototype,
            'Function.prototype': Function.prototype, Promise, 'Promise.prototype': Promise.prototype,
            'Map.prototype': Map.prototype, 'Set.prototype': Set.prototype, 'WeakMap.prototype': WeakMap.prototype,
            'WeakSet.prototype': WeakSet.prototype, 'String.prototype': String.prototype, String,
            'Number.prototype': Number.prototype, Number, 'BigInt.prototype': BigInt.prototype, JSON, Reflect,
            'Symbol.prototype': Symbol.prototype, 'Error.prototype': Error.prototype,
            'EventTarget.prototype': EventTarget.prototype, 'Event.prototype': Event.prototype,
            'MessageEvent.prototype': MessageEvent.prototype, 'CustomEvent.prototype': CustomEvent.prototype,
            'MessagePort.prototype': MessagePort.prototype, 'MutationObserver.prototype': MutationObserver.prototype,
            'ArrayIterator': Object.getPrototypeOf([][Symbol.iterator]()), window }
          for (const [label, owner] of Object.entries(owners)) {
            for (const key of ownKeys(owner)) {
              if (label === 'window' && !['structuredClone', 'queueMicrotask', 'setTimeout', 'fetch', 'postMessage', 'dispatchEvent', 'addEventListener'].includes(key)) continue
              trap(owner, key, label + '.' + String(key))
            }
          }
        })()`,
      )
      try {
        const calls = [
          `ethereum.request({ method: 'eth_chainId' })`,
          `new Promise((ok) => ethereum.sendAsync([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' }], (e, r) => ok(r)))`,
          `ethereum.request({ method: 'personal_sign', params: ['0x6869', '${account}'] })`,
          `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(permit2(FRIEND, '5'))}] })`,
          sendTx(FRIEND, '0x3'),
          `new Promise((ok) => ethereum.sendAsync([{ jsonrpc: '2.0', id: 3, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 4, method: 'personal_sign', params: ['0x01', '${account}'] }], (e, r) => ok(r)))`,
          `new Promise((ok) => ethereum._rpcRequest({ jsonrpc: '2.0', id: 5, method: 'personal_sign', params: ['0x02', '${account}'] }, (e, r) => ok(r)))`,
          `ethereum._rpcEngine.handle({ jsonrpc: '2.0', id: 6, method: 'personal_sign', params: ['0x03', '${account}'] })`,
          `Promise.resolve(Object.defineProperty(window, 'unrelated', { value: 1 }) && ethereum.providers)`,
        ]
        for (const call of calls) {
          const outcome = await attempt(context, node, page, call, () => 'continue')
          expect(unshownReceived(outcome)).toEqual([])
          expect(outcome.settled.code).toBeUndefined()
        }
        expect(await page.evaluate(() => (window as unknown as { tripped: string[] }).tripped)).toEqual([])
      } finally {
        await page.close()
      }
    })
  })

  describe('B: the method name', () => {
    it('a getter that answers one method to the hook and another to the wallet reaches the wallet as the first', async () => {
      const outcome = await run(
        `let reads = 0
         window.payload = { get method() { return reads++ === 0 ? 'eth_chainId' : 'eth_sendTransaction' }, params: [${tx()}] }`,
        'ethereum.request(payload)',
        'reject',
      )
      expect(outcome.shown).toEqual([])
      expect(outcome.received).toEqual([])
    })

    it('a Proxy payload that changes its method between reads is read once', async () => {
      const outcome = await run(
        `let reads = 0
         const method = () => (reads++ === 0 ? 'eth_chainId' : 'eth_sendTransaction')
         window.payload = new Proxy({}, {
           get: (_, key) => key === 'method' ? method() : key === 'params' ? [${tx()}] : undefined,
           ownKeys: () => ['method', 'params'],
           getOwnPropertyDescriptor: (_, key) => ({ configurable: true, enumerable: true, writable: true,
             value: key === 'method' ? method() : [${tx()}] }),
         })`,
        'ethereum.request(payload)',
        'reject',
      )
      expect(outcome.shown).toEqual([])
      expect(outcome.received).toEqual([])
    })

    it('a String object or an object that converts to a method name is refused', async () => {
      for (const method of [
        `new String('eth_sendTransaction')`,
        `{ toString: () => 'eth_sendTransaction', [Symbol.toPrimitive]: () => 'eth_sendTransaction' }`,
      ]) {
        const outcome = await run('', `ethereum.request({ method: ${method}, params: [${tx()}] })`, 'reject')
        expect(outcome.settled.code).toBe(-32600)
        expect(outcome.received).toEqual([])
      }
    })

    it('a method that differs from a signing method only by case, spaces or invisible characters is refused', async () => {
      const variants = [
        'ETH_SENDTRANSACTION',
        'eth_sendTransaction ',
        ' eth_sendtransaction',
        'eth_send\u200bTransaction',
        'Personal_Sign',
        'eth_signTypedData_V4',
      ]
      const outcome = await run(
        '',
        `Promise.all(${JSON.stringify(variants)}.map((method) => ethereum.request({ method, params: [${tx()}] }).then(() => 'passed', (error) => error.code)))`,
        'reject',
      )
      expect(outcome.settled.ok).toEqual(variants.map(() => 4200))
      expect(outcome.received).toEqual([])
    })
  })

  describe('C: the page keeps the live object', () => {
    it('params holding a function cannot be copied and are refused, never forwarded', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ ...${tx()}, toJSON() { return ${tx()} } }] })`,
        'continue',
      )
      expect(outcome.settled.code).toBe(-32602)
      expect(outcome.settled.message).toMatch(/function/)
      expect(outcome.received).toEqual([])
    })

    it('a Proxy transaction whose recipient changes after the first read: the wallet gets what was shown', async () => {
      const outcome = await run(
        `let reads = 0
         const to = () => (reads++ === 0 ? '${FRIEND}' : '${ATTACKER}')
         window.tx = new Proxy(${tx(FRIEND, '0x1')}, {
           get: (target, key) => key === 'to' ? to() : target[key],
           getOwnPropertyDescriptor: (target, key) => key === 'to'
             ? { configurable: true, enumerable: true, writable: true, value: to() }
             : Reflect.getOwnPropertyDescriptor(target, key),
         })`,
        `ethereum.request({ method: 'eth_sendTransaction', params: [tx] })`,
        'continue',
      )
      expect(outcome.shown[0]?.request.params).toMatchObject([{ to: FRIEND }])
      expect(outcome.received[0]?.params).toMatchObject([{ to: FRIEND }])
    })

    it('a Permit2 object edited during the review is signed as it was shown', async () => {
      const outcome = await run(
        `window.data = ${permit2(FRIEND, '10000000')}`,
        `[ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', data] }),
          setTimeout(() => { data.message.spender = '${ATTACKER}'; data.message.details.amount = '1461501637330902918203684832716283019655932542975' }, 50)][0]`,
        'continue',
      )
      const shown = outcome.shown[0]?.request.params[1] as { message: { spender: string; details: { amount: string } } }
      expect(shown.message.spender).toBe(FRIEND)
      expect(shown.message.details.amount).toBe('10000000')
      expect(outcome.received).toHaveLength(1)
    })

    it('typed data as a JSON string with a duplicate key is forwarded as the one reading the window showed', async () => {
      const text = permit2(FRIEND, '1').replace(
        `"spender":"${FRIEND}"`,
        `"spender":"${FRIEND}","spender":"${ATTACKER}"`,
      )
      const outcome = await run(
        '',
        `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(text)}] })`,
        'continue',
      )
      const shown = outcome.shown[0]?.request.params[1] as string
      expect(shown).not.toContain(FRIEND)
      expect(JSON.parse(shown).message.spender).toBe(ATTACKER)
      expect(outcome.received).toHaveLength(1)
    })
  })

  describe('D: fields the wallet executes are the fields shown', () => {
    it('data and input that disagree are refused', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${FRIEND}', data: '0x', input: '0xa9059cbb' }] })`,
        'continue',
      )
      expect(outcome.settled.code).toBe(-32602)
      expect(outcome.settled.message).toMatch(/data and input/)
      expect(outcome.received).toEqual([])
    })

    it('request.call with a fake this cannot choose the account or the chain', async () => {
      const outcome = await run(
        `window.fake = { request: async ({ method }) => method === 'eth_accounts' ? ['${ATTACKER}'] : '0x1' }`,
        `ethereum.request.call(fake, { method: 'eth_sendTransaction', params: [{ to: '${FRIEND}', value: '0x4' }] })`,
        'continue',
      )
      expect(outcome.shown[0]?.request).toMatchObject({ account, chainId: 31337 })
      expect(outcome.received[0]?.params).toEqual([{ from: account, to: FRIEND, value: '0x4', chainId: '0x7a69' }])
    })

    it('gas and gasLimit that disagree, and a transaction for another chain, are refused', async () => {
      const gas = await run(
        '',
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ ...${tx()}, gas: '0x5208', gasLimit: '0x989680' }] })`,
        'continue',
      )
      expect(gas.settled.code).toBe(-32602)
      const chain = await run(
        '',
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ ...${tx()}, chainId: '0x1' }] })`,
        'continue',
      )
      expect(chain.settled.code).toBe(4901)
      expect([...gas.received, ...chain.received]).toEqual([])
    })
    it('a field the transaction leaves out, planted on Object.prototype while the window is open, is never sent', async () => {
      const before = await balance(FRIEND)
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${FRIEND}', data: '0x' }] })
           Object.defineProperty(Object.prototype, 'value', { value: '${ONE_ETH}', writable: true, configurable: true })
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown.map((entry) => entry.request.params)).toEqual([
        [{ from: account, to: FRIEND, data: '0x', chainId: '0x7a69' }],
      ])
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain('the transaction has no "value", and the page defined "value"')
      expect(outcome.received).toEqual([])
      expect(await balance(FRIEND)).toBe(before)
    })

    it('an item a fixed-size typed-data array is short of, planted on Array.prototype while the window is open, is never signed', async () => {
      const ballot = {
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'chainId', type: 'uint256' },
          ],
          Ballot: [{ name: 'choices', type: 'uint256[2]' }],
        },
        primaryType: 'Ballot',
        domain: { name: 'Ballot', chainId: 31337 },
        message: { choices: ['1'] },
      }
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(ballot)}] })
           Object.defineProperty(Array.prototype, '1', { value: '2', writable: true, configurable: true })
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain('the message.choices ends before item 1')
      expect(outcome.received).toEqual([])
    })

    it('a struct given as text, whose fields the page planted on String.prototype while the window is open, is never signed', async () => {
      // The window can only warn that the message is malformed (its details are "0"), and Continue is one click; a
      // wallet encoding it would read the details' token, amount, expiration and nonce from String.prototype.
      const permit = JSON.parse(permit2(FRIEND, '1')) as { message: Record<string, unknown> }
      permit.message.details = '0'
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(permit)}] })
           Object.defineProperties(String.prototype, {
             token: { value: '${devnet.fixtures.erc20.address}', configurable: true },
             amount: { value: '1461501637330902918203684832716283019655932542975', configurable: true },
             expiration: { value: '1900000000', configurable: true },
             nonce: { value: '0', configurable: true },
           })
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown[0]?.request.scan).toMatchObject({
        response: { action: 'WARN', warnings: [{ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE' }] },
      })
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain(
        'the message.details has no "token", and the page defined "token" on String.prototype',
      )
      expect(outcome.received).toEqual([])
    })

    it('a contract creation sent while the page has a `to` on every object is refused before any window', async () => {
      const outcome = await run(
        `Object.defineProperty(Object.prototype, 'to', { value: '${ATTACKER}', writable: true, configurable: true })`,
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', data: '0x60006000f3' }] })`,
        'continue',
      )
      expect(outcome.shown).toEqual([])
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain('the transaction has no "to"')
      expect(outcome.received).toEqual([])
    })

    it('an absurd fee is shown, with what it can cost, and blocked before anything is signed', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const shown = readNextWindow(context, async (confirm) => ({
          fee: (await confirm.getByTestId('fee-worst-case').textContent()) ?? '',
          warnings: await confirm.locator('[data-warning-kind]').allInnerTexts(),
        }))
        const call = `ethereum.request({ method: 'eth_sendTransaction', params: [{ ...${tx(FRIEND, '0x1')}, gas: '0x5208', gasPrice: '0x16345785d8a0000' }] })`
        const outcome = await attempt(context, node, page, call, () => 'reject')
        expect(outcome.shown[0]?.request.scan).toMatchObject({ status: 'DONE', response: { action: 'BLOCK' } })
        expect(shown()?.fee).toBe('2,100 ETH ≈ $6,300,000.00')
        expect(shown()?.warnings.join(' ')).toContain('up to 2,100 ETH')
        expect(outcome.received).toEqual([])
      } finally {
        await page.close()
      }
    })

    it('a nonce the site set past the next of the account is shown, with what running later means', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const shown = readNextWindow(context, async (confirm) => ({
          nonce: (await confirm.getByTestId('fee-nonce').textContent()) ?? '',
          warnings: await confirm.locator('[data-warning-kind]').allInnerTexts(),
        }))
        const call = `ethereum.request({ method: 'eth_sendTransaction', params: [{ ...${tx(FRIEND, '0x1')}, nonce: '0x3e8' }] })`
        const outcome = await attempt(context, node, page, call, () => 'reject')
        expect(outcome.shown[0]?.request.scan).toMatchObject({
          status: 'DONE',
          response: { action: 'WARN', warnings: [{ kind: 'TRANSACTION_RUNS_LATER', data: { nonce: '1000' } }] },
        })
        expect(shown()?.nonce).toBe('1000 (set by the site)')
        expect(shown()?.warnings.join(' ')).toMatch(/cannot run until \d+ transactions of yours have/)
        expect(outcome.received).toEqual([])
      } finally {
        await page.close()
      }
    })
  })

  describe('E: routes around the patch', () => {
    it('params the wallet was forwarded, taken through a getter it reads, cannot be sent again', async () => {
      let decisions = 0
      const outcome = await run(
        `Object.defineProperty(Object.prototype, 'jsonrpc', {
           configurable: true,
           get() { if (Object.isFrozen(this.params)) window.taken = this.params },
           set(value) { Object.defineProperty(this, 'jsonrpc', { value, writable: true, enumerable: true, configurable: true }) },
         })`,
        `${sendTx(FRIEND, '0x3')}.then((hash) => Promise.allSettled([0, 1].map(() =>
           ethereum.request({ method: 'eth_sendTransaction', params: window.taken })))
           .then((replays) => ({ hash, replays: replays.map((replay) => replay.status) })))`,
        () => (decisions++ === 0 ? 'continue' : 'reject'),
      )
      expect(outcome.settled.ok).toMatchObject({ replays: ['rejected', 'rejected'] })
      expect(outcome.shown).toHaveLength(3)
      expect(outcome.received).toHaveLength(1)
    })

    it('a request function the page assigns forwards, but cannot answer for the wallet which chain it is on', async () => {
      const outcome = await run(
        `ethereum.request = (args) => args.method === 'eth_chainId' ? Promise.resolve('0xa') : new Promise((ok, ko) =>
           ethereum.sendAsync({ id: 1, jsonrpc: '2.0', ...args }, (e, r) => (e ? ko(e) : r.error ? ko(r.error) : ok(r.result))))`,
        sendTx(FRIEND, '0x4'),
        'continue',
      )
      expect(outcome.shown[0]?.request.chainId).toBe(31337)
      expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
      expect(outcome.received).toHaveLength(1)
    })

    it('a request carried by a function is checked', async () => {
      const outcome = await run(
        '',
        `new Promise((resolve, reject) => ethereum.sendAsync(
           Object.assign(() => {}, { method: 'eth_sendTransaction', params: [${tx()}] }),
           (error, response) => (error ? reject(error) : resolve(response))))`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([])
    })

    it('a request given as a number or a string, whose fields the wallet reads from their prototype, is refused', async () => {
      // The wallet's _rpcRequest and engine read payload.jsonrpc and payload.method of whatever they are given: of a
      // number or a string, what the page put on Number.prototype or String.prototype.
      for (const [prototype, payload] of [
        ['Number.prototype', '7'],
        ['String.prototype', `'eth_chainId'`],
      ]) {
        const outcome = await run(
          `Object.defineProperties(${prototype}, {
             method: { value: 'eth_sendTransaction', configurable: true },
             params: { value: [${tx()}], configurable: true },
             jsonrpc: { value: '2.0', configurable: true },
           })`,
          `new Promise((ok) => ethereum.sendAsync(${payload}, (error, response) => ok(error ? { code: error.code } : response)))`,
          'continue',
        )
        expect(outcome.settled.ok, prototype).toEqual({ code: -32600 })
        expect(outcome.shown, prototype).toEqual([])
        expect(outcome.received, prototype).toEqual([])
      }
    })

    it('the wallet class method on the prototype, called on the wallet, is checked', async () => {
      const outcome = await run(
        `const proto = Object.getPrototypeOf(ethereum)
         window.raw = Object.getOwnPropertyDescriptor(proto, 'request').get?.call(proto) ?? proto.request`,
        `raw.call(ethereum, { method: 'eth_sendTransaction', params: [${tx()}] })`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown).toHaveLength(1)
    })

    it('a prototype method called on an object the page made is refused', async () => {
      const outcome = await run(
        `window.made = Object.create(Object.getPrototypeOf(ethereum))
         made._rpcEngine = ethereum._rpcEngine`,
        `Object.getPrototypeOf(ethereum).request.call(made, { method: 'eth_sendTransaction', params: [${tx()}] })`,
        'continue',
      )
      expect(outcome.settled.code).toBe(4100)
      expect(outcome.received).toEqual([])
    })

    it('the internal entry points _rpcRequest and _rpcEngine.handle (callback and promise) are checked', async () => {
      const payload = `{ jsonrpc: '2.0', id: 7, method: 'eth_sendTransaction', params: [${tx()}] }`
      for (const call of [
        `new Promise((ok) => ethereum._rpcRequest(${payload}, (error, response) => ok(error ? { code: error.code } : response)))`,
        `new Promise((ok) => ethereum._rpcEngine.handle(${payload}, (error, response) => ok(error ? { code: error.code } : response)))`,
        `ethereum._rpcEngine.handle(${payload}).then((response) => response.error ? { code: response.error.code } : response)`,
      ]) {
        const outcome = await run('', call, 'reject')
        expect(outcome.settled.ok).toEqual({ code: 4001 })
        expect(outcome.shown).toHaveLength(1)
        expect(outcome.received).toEqual([])
      }
    })

    it('deleting the patched method uncovers only another patched one', async () => {
      const outcome = await run(
        `delete ethereum.request
         Reflect.deleteProperty(ethereum, 'sendAsync')
         delete Object.getPrototypeOf(ethereum).request`,
        `(ethereum.request ?? Object.getPrototypeOf(ethereum).request).call(ethereum, { method: 'eth_sendTransaction', params: [${tx()}] })`,
        'reject',
      )
      expect(outcome.shown.length + (outcome.settled.code === 4001 ? 0 : 1)).toBeGreaterThan(0)
      expect(outcome.received).toEqual([])
    })

    it('a sendAsync batch is checked element by element', async () => {
      const outcome = await run(
        '',
        `new Promise((ok) => ethereum.sendAsync([
           { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
           { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [${tx()}] },
         ], (error, responses) => ok(responses.map((r) => r.error ? r.error.code : r.result))))`,
        'reject',
      )
      expect(outcome.settled.ok).toEqual(['0x7a69', 4001])
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([])
    })

    it('a wallet re-announced through a dispatchEvent the page replaced is already hooked', async () => {
      const outcome = await run(
        `const dispatch = EventTarget.prototype.dispatchEvent
         window.caught = []
         EventTarget.prototype.dispatchEvent = function (event) {
           if (event.type === 'eip6963:announceProvider') caught.push(event.detail.provider)
           return dispatch.call(this, event)
         }
         window.dispatchEvent(new Event('eip6963:requestProvider'))`,
        `caught[0].request({ method: 'eth_sendTransaction', params: [${tx()}] })`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown).toHaveLength(1)
    })

    it('the wallet in an about:blank frame, taken before the frame runs anything, is hooked', async () => {
      const outcome = await run(
        `const frame = document.createElement('iframe')
         document.documentElement.appendChild(frame)
         window.framed = frame.contentWindow.ethereum`,
        `framed.request({ method: 'eth_sendTransaction', params: [${tx()}] })`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown[0]?.request.origin).toBe(dapp.url)
      expect(outcome.received).toEqual([])
    })

    it('a wallet that joins providers[] after the page loaded is hooked the moment it is read', async () => {
      const outcome = await run(
        '',
        `(async () => {
           // The late wallet injects itself after the page loaded (document_idle).
           while (!(ethereum.providers?.length > 1)) await new Promise((ok) => setTimeout(ok, 20))
           const late = ethereum.providers[ethereum.providers.length - 1]
           return late.request({ method: 'eth_sendTransaction', params: [${tx()}] })
         })()`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown[0]?.request.wallet).toMatchObject({ late: true })
      expect(outcome.received).toEqual([])
      // The options page names the wallet and the site, so the user knows to prefer another wallet there.
      const options = await context.newPage()
      await options.goto(`chrome-extension://${extension.id}/src/extension/ui/options.html`)
      const label = outcome.shown[0]?.request.wallet?.label
      await expect.poll(() => options.getByTestId('late-wallets').textContent()).toContain(`${label} on ${dapp.url}`)
      await options.close()
    })

    // Known limit (docs/threat-model.md): a same-origin document the page reaches while it is being made (a frame
    // whose body is late, a srcdoc or blob: frame, a popup it opened) runs the page's code before any document_start
    // script, so the page can answer the hook's handshake itself (or replace the builtins the hook and the wallet
    // capture). This test records that it still gets a transaction to a wallet that calls its node from the page with
    // no window; it fails, as marked, until that is closed. A wallet with a message channel is covered
    // (walletChannel.test.ts).
    it.fails('a same-origin frame the page reaches before its document_start scripts cannot have its hook answered by the page', async () => {
      const outcome = await run('', answeringFramesHook(dapp, tx(), tx(FRIEND, '0x1')), 'reject')
      expect(outcome.received).toEqual([])
    })

    it("a wallet that joins a providers[] list the page assigned, read from the page's own reference, is hooked", async () => {
      const outcome = await run(
        // The page keeps the array it assigned: the late wallet pushes itself into it through window.ethereum.providers.
        `window.list = [ethereum]
         ethereum.providers = list`,
        `(async () => {
           while (!(list.length > 1)) await new Promise((ok) => setTimeout(ok, 20))
           return list[list.length - 1].request({ method: 'eth_sendTransaction', params: [${tx()}] })
         })()`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([])
    })
  })

  describe('F: every signing method', () => {
    it('eth_signTransaction is checked as a transaction, and sending the signed bytes is checked again', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'eth_signTransaction', params: [{ ...${tx(FRIEND, '0x5')}, gas: '0x5208' }] })
           .then((raw) => ethereum.request({ method: 'eth_sendRawTransaction', params: [raw] }))`,
        'continue',
      )
      expect(outcome.shown.map((entry) => entry.request.method)).toEqual([
        'eth_signTransaction',
        'eth_sendRawTransaction',
      ])
      expect(outcome.shown[1]?.request.account).toBe(account)
      expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
      expect(outcome.received).toHaveLength(2)
    })

    it('eth_sendRawTransaction and eth_sendRawTransactionSync that cannot be decoded are refused', async () => {
      for (const method of ['eth_sendRawTransaction', 'eth_sendRawTransactionSync']) {
        const outcome = await run('', `ethereum.request({ method: '${method}', params: ['0x02deadbeef'] })`, 'continue')
        expect(outcome.settled.code, method).toBe(-32602)
        expect(outcome.settled.message, method).toMatch(/^Preflight could not decode/)
        expect(outcome.received, method).toEqual([])
      }
    })

    it('eth_signTypedData with an EIP-712 object and eth_signTypedData_v1 with a legacy list are both shown', async () => {
      const eip712 = await run(
        '',
        `ethereum.request({ method: 'eth_signTypedData', params: ['${account}', ${permit2(ATTACKER, '1461501637330902918203684832716283019655932542975')}] })`,
        'reject',
      )
      expect(eip712.shown[0]?.request.scan).toMatchObject({ status: 'DONE', response: { action: 'WARN' } })
      const legacy = await run(
        '',
        `ethereum.request({ method: 'eth_signTypedData_v1', params: [[{ type: 'string', name: 'Message', value: 'Hi' }], '${account}'] })`,
        'continue',
      )
      expect(legacy.shown[0]?.request.params).toEqual([[{ type: 'string', name: 'Message', value: 'Hi' }], account])
      expect([...eip712.received, ...legacy.received].map((entry) => entry.method)).toEqual(['eth_signTypedData_v1'])
    })

    it("typed data whose domain names a chain Preflight has no node for is checked on the wallet's chain", async () => {
      const elsewhere = JSON.stringify(
        permit2PermitSingle({
          chainId: 1337,
          token: devnet.fixtures.erc20.address,
          amount: 1n,
          expiration: 1_900_000_000,
          spender: ATTACKER as Address,
          sigDeadline: 1_900_000_000,
        }),
      )
      const outcome = await run(
        '',
        `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(elsewhere)}] })`,
        'reject',
      )
      expect(outcome.shown[0]?.request.chainId).toBe(31337)
      // The window says where the signature works, and that it was checked elsewhere.
      expect(outcome.shown[0]?.request.otherChain).toEqual({ domain: 1337, wallet: 31337 })
      expect(outcome.shown[0]?.request.scan).toMatchObject({ status: 'DONE' })
      expect(outcome.received).toEqual([])
    })

    it('wallet_sendTransaction, eth_sendTransaction in the wallet namespace, is shown and checked', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'wallet_sendTransaction', params: [${tx()}] })`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown[0]?.request).toMatchObject({
        method: 'wallet_sendTransaction',
        params: [{ to: ATTACKER, value: ONE_ETH }],
        scan: { status: 'DONE' },
      })
      expect(outcome.received).toEqual([])
    })

    it('wallet_sendCalls (2.0.0) is checked call by call', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', from: '${account}', atomicRequired: false,
           calls: [{ to: '${ATTACKER}', value: '${ONE_ETH}' }, { to: '${FRIEND}', value: '0x1' }] }] })`,
        'reject',
      )
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.shown[0]?.request.scan).toMatchObject({ status: 'DONE' })
      expect(outcome.received).toEqual([])
    })

    // EIP-5792 as revised in July 2024 (ethereum/EIPs#8771) put a chainId on each call, and a wallet built to it sends
    // each call on its own chain; the batch is simulated on one chain only, so a call for another is refused.
    it('a wallet_sendCalls call for another chain than the batch is refused before any window', async () => {
      const outcome = await run(
        '',
        `ethereum.request({ method: 'wallet_sendCalls', params: [{ version: '1.0', chainId: '0x7a69', from: '${account}',
           calls: [{ to: '${FRIEND}', value: '0x1' }, { to: '${ATTACKER}', value: '${ONE_ETH}', chainId: '0x1' }] }] })`,
        'continue',
      )
      expect(outcome.shown).toEqual([])
      expect(outcome.settled).toMatchObject({ code: -32602 })
      expect(outcome.settled.message).toContain(
        'params[0].calls[1].chainId is chain 1, but the batch is for chain 31337',
      )
      expect(outcome.received).toEqual([])
    })

    it('a capability planted on Object.prototype while the window is open is never sent', async () => {
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', from: '${account}',
             atomicRequired: false, capabilities: {}, calls: [{ to: '${FRIEND}', value: '0x1' }] }] })
           Object.defineProperty(Object.prototype, 'paymasterService', { value: { url: 'https://pay.attacker.example' }, configurable: true })
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown[0]?.request.params).toMatchObject([{ capabilities: {}, calls: [{ to: FRIEND }] }])
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain(`the batch's capabilities has no "paymasterService"`)
      expect(outcome.received).toEqual([])
    })

    it('a capability read through an object the page put beneath Array.prototype while the window is open is never sent', async () => {
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', from: '${account}',
             atomicRequired: false, capabilities: [], calls: [{ to: '${FRIEND}', value: '0x1' }] }] })
           const paymaster = { url: 'https://pay.attacker.example' }
           Object.setPrototypeOf(Array.prototype, new Proxy(Object.prototype, {
             get: (target, key, receiver) => (key === 'paymasterService' ? paymaster : Reflect.get(target, key, receiver)),
           }))
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown[0]?.request.params).toMatchObject([{ capabilities: [], calls: [{ to: FRIEND }] }])
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain('an object the page put beneath Array.prototype')
      expect(outcome.received).toEqual([])
    })

    it('a field of a permission request planted on Object.prototype while the window is open is never sent', async () => {
      // ERC-7715 requests are an open set of fields, like capabilities: this one leaves out its expiry.
      const permission = {
        chainId: '0x7a69',
        signer: { type: 'account', data: { address: ATTACKER } },
        permission: { type: 'native-token-stream', data: { amountPerSecond: '0x1', maxAmount: '0x1' } },
      }
      const outcome = await run(
        '',
        `(() => {
           const sent = ethereum.request({ method: 'wallet_grantPermissions', params: [[${JSON.stringify(permission)}]] })
           Object.defineProperty(Object.prototype, 'expiry', { value: 0, configurable: true })
           return sent
         })()`,
        'continue',
      )
      expect(outcome.shown[0]?.request.params).toEqual([[permission]])
      expect(outcome.settled.code).toBe(-32603)
      expect(outcome.settled.message).toContain('the permission request')
      expect(outcome.received).toEqual([])
    })

    it("a permission request's later entry, for another account on another chain, is shown as fully as its first", async () => {
      const other = devnet.fixtures.accounts[3]?.address as Address
      const entries = [
        {
          chainId: '0x7a69',
          signer: { type: 'account', data: { address: FRIEND } },
          permission: { type: 'native-token-stream', data: { amountPerSecond: '0x1', maxAmount: '0x1' } },
          expiry: 1900000000,
        },
        {
          chainId: '0x1',
          address: other,
          signer: { type: 'account', data: { address: ATTACKER } },
          permission: {
            type: 'erc20-token-periodic',
            data: {
              tokenAddress: devnet.fixtures.erc20.address,
              periodAmount: `0x${'f'.repeat(64)}`,
              periodDuration: 1,
            },
          },
          expiry: 1900000000,
        },
      ]
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(
          context,
          page,
          `ethereum.request({ method: 'wallet_grantPermissions', params: [${JSON.stringify(entries)}] })`,
        )
        await confirm.locator('[data-action="ERROR"]').waitFor({ timeout: 20_000 })
        // The header names both chains and both accounts, not the first entry's alone.
        const header = confirm.locator('header')
        expect(await header.textContent()).toContain('Local devnet (31337)')
        expect(await header.textContent()).toContain('Ethereum (1)')
        expect(await header.locator(`[title="${getAddress(other)}"]`).count()).toBe(1)
        const shown = confirm.getByTestId('permission')
        expect(await shown.count()).toBe(2)
        const second = await shown.nth(1).textContent()
        for (const words of [
          'Ethereum (1)',
          getAddress(other),
          getAddress(ATTACKER),
          'erc20-token-periodic',
          `0x${'f'.repeat(64)}`,
        ]) {
          expect(second).toContain(words)
        }
        const pending = await pendingOf(confirm)
        await clickDecision(confirm, 'Continue')
        await result()
        // What the wallet got is what the window listed, entry for entry.
        expect(node.signing(start)).toEqual([{ method: 'wallet_grantPermissions', params: pending.params }])
        expect(pending.params).toEqual([entries])
      } finally {
        await page.close()
      }
    })
  })

  describe('G: the decision', () => {
    it('a second request that moves Continue under a click aimed elsewhere does not continue the first', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(context, page, sendTx(FRIEND, '0x8'))
        const proceed = confirm.getByRole('button', { name: 'Continue' })
        await expect.poll(() => proceed.isEnabled(), { timeout: 20_000 }).toBe(true)
        const before = await proceed.boundingBox()
        // The page times a second request; its queue bar moves the decision buttons (down, and to the bar stuck to
        // the window's bottom once the window scrolls).
        const second = await startCall(page, sendTx(FRIEND, '0x9'))
        await confirm.getByTestId('queue-position').waitFor()
        const after = await proceed.boundingBox()
        if (!before || !after) throw new Error('the window shows no Continue button')
        expect(Math.hypot(after.x - before.x, after.y - before.y)).toBeGreaterThan(5)
        // The user's click, aimed at what was there, lands on Continue as it moves under it.
        await confirm.mouse.click(after.x + after.width / 2, after.y + after.height / 2)
        await confirm.waitForTimeout(300)
        expect(node.signing(start)).toEqual([])
        expect(await confirm.getByTestId('queue-position').textContent()).toContain('Request 1 of 2')
        // Left still for a moment, Continue arms again where it now is.
        await expect.poll(() => proceed.isEnabled()).toBe(true)
        await clickDecision(confirm, 'Reject')
        await confirm.getByTestId('queue-position').waitFor({ state: 'detached' })
        await clickDecision(confirm, 'Reject')
        expect(await result()).toEqual(REJECTED)
        expect(await second()).toEqual(REJECTED)
        expect(node.signing(start)).toEqual([])
      } finally {
        await page.close()
      }
    })

    it('a press of Continue as the window changes does nothing and says so; pressed again once armed, it continues', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(context, page, sendTx(FRIEND, '0xa'))
        // The press lands as Continue moves; its click comes once the window has disabled it, and does nothing at all.
        await pressShiftedContinue(confirm, 'spacer', 100)
        await confirm.getByTestId('continue-ignored').waitFor({ timeout: 10_000 })
        await confirm.waitForTimeout(300)
        expect(node.signing(start)).toEqual([])
        await clickDecision(confirm, 'Continue')
        expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
        expect(node.signing(start)).toHaveLength(1)
      } finally {
        await page.close()
      }
    })

    it('a shift of Continue by less than a pixel, as text settles, does not disarm it', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(context, page, sendTx(FRIEND, '0xc'))
        await pressShiftedContinue(confirm, 'subpixel')
        // The press acted: the window closes on it rather than saying it did nothing.
        if (!confirm.isClosed()) await confirm.waitForEvent('close', { timeout: 10_000 })
        expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
        expect(node.signing(start)).toHaveLength(1)
      } finally {
        await page.close()
      }
    })

    it('scrolling a long window does not move Continue, so a press after scrolling acts', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(context, page, sendTx(FRIEND, '0xb'))
        await confirm.setViewportSize({ width: 480, height: 360 })
        const proceed = confirm.getByRole('button', { name: 'Continue' })
        await expect.poll(() => proceed.isEnabled(), { timeout: 20_000 }).toBe(true)
        expect(await confirm.evaluate(() => document.documentElement.scrollHeight > innerHeight + 100)).toBe(true)
        const stuck = await proceed.boundingBox()
        await confirm.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
        expect(await confirm.evaluate(() => scrollY)).toBeGreaterThan(100)
        expect(await proceed.boundingBox()).toEqual(stuck)
        // Pressed at once, as a person who scrolled down to it would.
        await proceed.click({ timeout: 1_000 })
        expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
        expect(node.signing(start)).toHaveLength(1)
      } finally {
        await page.close()
      }
    })

    it('clicks that keep coming where Continue appears, as a page asks its user for, never continue', async () => {
      const page = await openHostilePage(context, dapp, '')
      try {
        const start = node.received().length
        const { confirm, result } = await callThroughConfirmWindow(context, page, sendTx(FRIEND, '0x7'))
        await confirm.locator('[data-action]:not([data-action="PENDING"])').waitFor({ timeout: 20_000 })
        const box = await confirm.getByRole('button', { name: 'Continue' }).boundingBox()
        if (!box) throw new Error('the window shows no Continue button')
        // A click every 150 ms, on the spot where the window puts Continue, from the moment the results show.
        for (let click = 0; click < 10 && !confirm.isClosed(); click++) {
          await confirm.mouse.click(box.x + box.width / 2, box.y + box.height / 2).catch(() => undefined)
          await new Promise((resolve) => setTimeout(resolve, 150))
        }
        expect(confirm.isClosed()).toBe(false)
        expect(node.signing(start)).toEqual([])
        // Continue was shown disabled under every click, so the window has no "did nothing" to explain.
        expect(await confirm.getByTestId('continue-ignored').count()).toBe(0)
        // Once the clicks stop, Continue arms: the user who reads it can still decide.
        await expect.poll(() => confirm.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true)
        await clickDecision(confirm, 'Reject')
        expect(await result()).toEqual(REJECTED)
        expect(node.signing(start)).toEqual([])
      } finally {
        await page.close()
      }
    })
  })
})
