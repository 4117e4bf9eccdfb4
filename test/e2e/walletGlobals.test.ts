/**
 * Wallets a dapp reaches by their own global name (src/extension/inpage/walletGlobals.json): a wallet published only
 * as `window.okxwallet` (by assignment) and one only as `window.phantom.ethereum` (a namespace it locks in place with
 * Object.defineProperty and fills in after), neither at window.ethereum nor announced, are called directly by the
 * page. Each call opens a window; Continue forwards exactly what was shown (the recipient gets 1 ETH on the devnet),
 * Reject answers 4001 and the wallet receives nothing. A page that defines such names itself (assignment, a
 * non-configurable definition, `var`, `function`, `let`), before a late wallet publishes itself and after the early
 * ones did, keeps its values, and every wallet stays hooked.
 */
import { type Address, createPublicClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { REJECTED } from './support/extension.ts'
import { checkedAttempt, ONE_ETH, startWalletSession, type WalletSession } from './support/hostile.ts'

describe('wallets a dapp calls by their own global name', () => {
  let session: WalletSession
  let recipient: Address
  const chain = () => createPublicClient({ transport: http(session.devnet.fixtures.rpcUrl), pollingInterval: 50 })

  beforeAll(async () => {
    session = await startWalletSession((base) => [
      { ...base, name: 'OKX-style Wallet', rdns: 'test.okx', window: false, announce: false, global: 'okxwallet' },
      {
        ...base,
        name: 'Phantom-style Wallet',
        rdns: 'test.phantom',
        window: false,
        announce: false,
        global: 'phantom.ethereum',
      },
      // Publishes itself after the page's scripts ran, over names the page defined itself.
      {
        ...base,
        name: 'Late Trust-style Wallet',
        rdns: 'test.trust',
        window: false,
        announce: false,
        global: 'trustwallet',
        runAt: 'document_idle',
      },
    ])
    recipient = session.devnet.fixtures.accounts[7]?.address as Address
  })
  afterAll(() => session?.close())

  /** A page expression sending 1 ETH to the recipient through `provider` (an expression). */
  const send = (provider: string) =>
    `${provider}.request({ method: 'eth_sendTransaction', params: [{ from: '${session.account}', to: '${recipient}', value: '${ONE_ETH}' }] })`

  describe.each(['okxwallet', 'phantom.ethereum'])('window.%s', (path) => {
    it('a 1 ETH transfer opens a window; Continue forwards exactly it: the recipient gets 1 ETH', async () => {
      const before = await chain().getBalance({ address: recipient })
      const outcome = await checkedAttempt(session, '', send(`window.${path}`), 'continue')
      expect(outcome.shown.map((entry) => entry.request.method)).toEqual(['eth_sendTransaction'])
      const [shown] = (outcome.shown[0]?.request.params ?? []) as { to: string; value: string }[]
      expect(shown?.to.toLowerCase()).toBe(recipient.toLowerCase())
      expect(BigInt(shown?.value ?? 0)).toBe(parseEther('1'))
      expect(outcome.received).toHaveLength(1)
      expect(outcome.settled.ok, JSON.stringify(outcome.settled)).toMatch(/^0x[0-9a-f]{64}$/)
      expect((await waitForReceipt(chain(), outcome.settled.ok as Hex)).status).toBe('success')
      expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
    })

    it('Reject answers 4001 and the wallet receives nothing', async () => {
      const before = await chain().getBalance({ address: recipient })
      const outcome = await checkedAttempt(session, '', send(`window.${path}`), 'reject')
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.settled).toEqual(REJECTED)
      expect(outcome.received).toEqual([])
      expect(await chain().getBalance({ address: recipient })).toBe(before)
    })
  })

  it('a page that defines those names itself, or names elements so, keeps its values, and the wallets before and after it stay hooked', async () => {
    // The page's own script: after the early wallets published themselves, before the late one does.
    const setup = `
      window.tally = { page: 'assigned' }
      Object.defineProperty(window, 'zeal', { value: 'defined', configurable: false, writable: false })
      var kayros = 'var'
      function foxwallet() { return 'function' }
      let SubWallet = 'let'
      // Elements named like wallets, read by their ids as window's named properties.
      document.documentElement.insertAdjacentHTML('beforeend', '<div id="frontier"></div><div id="coin98"></div>')
      window.pageSaw = () => [window.tally.page, window.zeal, Object.getOwnPropertyDescriptor(window, 'zeal').configurable,
        window.kayros, window.foxwallet(), SubWallet, window.frontier?.id, window.coin98?.id]`
    const call = `(async () => {
      while (!window.trustwallet) await new Promise((ok) => setTimeout(ok, 10))
      const codes = []
      for (const path of ['trustwallet', 'okxwallet']) {
        try { await ${send('window[path]')} } catch (error) { codes.push(error.code) }
      }
      return { saw: window.pageSaw(), codes }
    })()`
    const outcome = await checkedAttempt(session, setup, call, 'reject')
    expect(outcome.settled.ok).toEqual({
      saw: ['assigned', 'defined', false, 'var', 'function', 'let', 'frontier', 'coin98'],
      codes: [4001, 4001],
    })
    expect(outcome.shown.map((entry) => entry.request.method)).toEqual(['eth_sendTransaction', 'eth_sendTransaction'])
    expect(outcome.received).toEqual([])
  })
})
