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
  it("takes no account or chain from a thenable of the page's Promise class (zone.js's, or one that lies)", async () => {
    const held = heldWith(
      ({ method }) => new ZoneLikePromise((resolve) => resolve(method === 'eth_accounts' ? [ACCOUNT] : '0x7a69')),
    )
    expect(await ask(held, 'eth_accounts')).toBeUndefined()
    expect(await ask(held, 'eth_chainId')).toBeUndefined()
  })

  it('answers nothing for an answer that is no answer to the question', async () => {
    expect(
      await ask(
        heldWith(async () => ({ 0: ACCOUNT, length: 1 })),
        'eth_accounts',
      ),
    ).toBeUndefined()
    expect(
      await ask(
        heldWith(async () => [ACCOUNT]),
        'eth_chainId',
      ),
    ).toBeUndefined()
    expect(
      await ask(
        heldWith(async () => [ACCOUNT]),
        'eth_accounts',
      ),
    ).toEqual([ACCOUNT])
    expect(
      await ask(
        heldWith(() => '0x7a69'),
        'eth_chainId',
      ),
    ).toBe('0x7a69')
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
