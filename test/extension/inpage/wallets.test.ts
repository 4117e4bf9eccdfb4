import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { askWallet, type Held } from '../../../src/extension/inpage/wallets.ts'
import { ZoneLikePromise } from './support/zoneLikePromise.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** A held wallet whose `request` is `request`, as the hook keeps it. */
function heldWith(request: (args: { method: string }) => unknown): Held {
  const provider = { request }
  return { provider, info: { label: 'test', late: false }, askVia: { request, sendAsync: undefined } }
}

const ask = (held: Held, method: 'eth_accounts' | 'eth_chainId') =>
  new Promise((resolve) => askWallet(held, method, resolve))

describe('askWallet', () => {
  it("reads the wallet's accounts and chain when its promise is a polyfill's (zone.js), not the native one", async () => {
    const held = heldWith(
      ({ method }) => new ZoneLikePromise((resolve) => resolve(method === 'eth_accounts' ? [ACCOUNT] : '0x7a69')),
    )
    expect(await ask(held, 'eth_accounts')).toEqual([ACCOUNT])
    expect(await ask(held, 'eth_chainId')).toBe('0x7a69')
  })

  it("reads a thenable's `then` once, calls it once and takes only its first answer", async () => {
    let reads = 0
    let calls = 0
    const answer = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable whose then is a getter.
      get then() {
        reads++
        return (resolve: (value: unknown) => void, reject: (reason: unknown) => void) => {
          calls++
          resolve('0x7a69')
          resolve('0x1')
          reject(new Error('late'))
        }
      },
    }
    expect(
      await ask(
        heldWith(() => answer),
        'eth_chainId',
      ),
    ).toBe('0x7a69')
    expect({ reads, calls }).toEqual({ reads: 1, calls: 1 })
  })

  it('answers nothing for a thenable that rejects, throws, or answers something that is no answer to the question', async () => {
    const rejecting = heldWith(() => new ZoneLikePromise((_resolve, reject) => reject(new Error('locked'))))
    expect(await ask(rejecting, 'eth_accounts')).toBeUndefined()
    const throwing = heldWith(() => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable whose then throws.
      then() {
        throw new Error('no')
      },
    }))
    expect(await ask(throwing, 'eth_chainId')).toBeUndefined()
    const objectAnswer = heldWith(() => new ZoneLikePromise((resolve) => resolve({ 0: ACCOUNT, length: 1 })))
    expect(await ask(objectAnswer, 'eth_accounts')).toBeUndefined()
    const listAnswer = heldWith(() => new ZoneLikePromise((resolve) => resolve([ACCOUNT])))
    expect(await ask(listAnswer, 'eth_chainId')).toBeUndefined()
  })

  it("does not hand a native promise whose `then` fails to a `then` of the page's", async () => {
    const native = Promise.resolve('0x7a69')
    // The species lookup of the captured then reads `constructor`: throwing there makes it fail.
    Object.defineProperty(native, 'constructor', {
      get() {
        throw new Error('species')
      },
    })
    Object.defineProperty(native, 'then', { value: (resolve: (value: unknown) => void) => resolve('0x1') })
    expect(
      await ask(
        heldWith(() => native),
        'eth_chainId',
      ),
    ).toBeUndefined()
  })
})
