/**
 * Requests as the libraries dapps pick and wrap the wallet with send them (the real packages from npm, bundled into
 * the page): ethers v5's Web3Provider signer, Blocknative's web3-onboard (its injected-wallets module finds the
 * wallet, connected headlessly), mipd's EIP-6963 store with viem's custom transport, and Coinbase's wallet SDK v4 on
 * an injected Coinbase wallet. Each sends 1 ETH and signs an EIP-2612 permit through the built extension: continued
 * in the window, the wallet receives exactly what was shown, the chain moves what the window said, and the permit
 * signed is the one shown (the token accepts it and grants that allowance); rejected, the library reports a user
 * rejection (4001), once, and the wallet receives nothing.
 */
import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseSignature,
  parseUnits,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { eip2612Permit, type TypedData } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { connectKitBundle } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  pendingOf,
  queuedIds,
  REJECTED,
  shownAction,
  startCall,
} from './support/extension.ts'
import { checkedAttempt, startWalletSession, type WalletSession } from './support/hostile.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'
import { startWalletNode, type WalletNode } from './support/walletNode.ts'

/** The dev wallet's EIP-6963 name and rdns (src/devnet/dapp/devWallet.ts). */
const DEV_WALLET = { name: 'Devnet Wallet', rdns: 'dev.preflight.devwallet' }

const permitAbi = parseAbi([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
])

/**
 * How a library sends a transfer and signs typed data, as page expressions that answer the hash or signature, and
 * the code it reports a user's rejection with.
 */
type Library = {
  name: string
  rejected: number | string
  send(to: Address, value: bigint): string
  signTypedData(typedData: TypedData): string
}

/** Typed data without its EIP712Domain type, as ethers and viem take it (they derive the domain type). */
const withoutDomainType = ({ types, domain, primaryType, message }: TypedData) => {
  const { EIP712Domain: _, ...rest } = types
  return { types: rest, domain, primaryType, message }
}

/** `body` with `provider` set to the provider of the wallet web3-onboard connected (in beforeAll). */
const onboardProvider = (body: string) => `(async () => { const provider = window.onboardWallet.provider; ${body} })()`

/** `body` with `provider` set to the one Coinbase's SDK hands a dapp: the injected Coinbase wallet, checked. */
const coinbaseProvider = (body: string) =>
  `(async () => {
    const sdk = Connect.createCoinbaseWalletSDK({ appName: 'Preflight test', preference: { options: 'eoaOnly' } })
    const provider = sdk.getProvider()
    if (provider !== window.coinbaseWalletExtension) throw new Error('the SDK did not pick the injected wallet')
    ${body}
  })()`

/**
 * `body` with `client`, a viem wallet client over the provider mipd's store found for the dev wallet's rdns, and
 * `address`, the account it gave.
 */
const viemThroughMipd = (body: string) => `(async () => {
  const store = Connect.createStore()
  const detail = store.findProvider({ rdns: '${DEV_WALLET.rdns}' })
  store.destroy()
  const client = Connect.createWalletClient({ chain: Connect.foundry, transport: Connect.custom(detail.provider) })
  const [address] = await client.requestAddresses()
  ${body}
})()`

/** A raw EIP-1193 transfer and eth_signTypedData_v4, as dapps send them through the provider a kit hands them. */
const rawRequests = (account: () => Address, wrap: (body: string) => string) => ({
  send: (to: Address, value: bigint) =>
    wrap(`return provider.request({ method: 'eth_sendTransaction',
      params: [{ from: '${account()}', to: '${to}', value: '0x${value.toString(16)}' }] })`),
  signTypedData: (typedData: TypedData) =>
    wrap(`return provider.request({ method: 'eth_signTypedData_v4',
      params: ['${account()}', ${JSON.stringify(JSON.stringify(typedData))}] })`),
})

describe('ethers v5, web3-onboard, mipd with viem and the Coinbase SDK, through the window', () => {
  let devnet: Devnet
  let session: E2eSession
  let node: WalletNode
  let page: Page
  let account: Address
  let recipient: Address

  const chain = () => createPublicClient({ transport: http(devnet.fixtures.rpcUrl), pollingInterval: 50 })
  const usdc = (amount: string) => parseUnits(amount, devnet.fixtures.erc20.decimals)

  const libraries: Library[] = [
    {
      name: 'ethers v5 (Web3Provider → getSigner)',
      // ethers v5 keeps no wallet code: it says ACTION_REJECTED for an error whose message matches /user denied/i.
      rejected: 'ACTION_REJECTED',
      send: (to, value) => `(async () => {
        const signer = new Connect.ethers5.Web3Provider(window.ethereum).getSigner()
        return (await signer.sendTransaction({ to: '${to}', value: '0x${value.toString(16)}' })).hash
      })()`,
      signTypedData: (typedData) => {
        const { domain, types, message } = withoutDomainType(typedData)
        return `new Connect.ethers5.Web3Provider(window.ethereum).getSigner()
          ._signTypedData(${JSON.stringify(domain)}, ${JSON.stringify(types)}, ${JSON.stringify(message)})`
      },
    },
    {
      name: "web3-onboard (injected-wallets, autoSelect, its wallet's provider)",
      rejected: REJECTED.code,
      ...rawRequests(() => account, onboardProvider),
    },
    {
      name: 'mipd (the EIP-6963 store) with viem',
      rejected: REJECTED.code,
      send: (to, value) =>
        viemThroughMipd(`return client.sendTransaction({ account: address, to: '${to}', value: ${value}n })`),
      signTypedData: (typedData) =>
        viemThroughMipd(
          `return client.signTypedData({ account: address, ...${JSON.stringify(withoutDomainType(typedData))} })`,
        ),
    },
    {
      name: 'Coinbase wallet SDK v4 (the injected Coinbase wallet)',
      rejected: REJECTED.code,
      ...rawRequests(() => account, coinbaseProvider),
    },
  ]

  beforeAll(async () => {
    session = await startE2eSession()
    devnet = session.devnet
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Address
    recipient = fixtures.accounts[6]?.address as Address
    // The wallet sends through a logging node in front of the devnet, so what it received is read outside the page.
    node = await startWalletNode(fixtures.rpcUrl)
    session.dapp.page('/connect.js', await connectKitBundle())
    const wallet = JSON.stringify({ rpcUrl: node.url, account })
    page = await session.open(
      '/',
      `<!doctype html><meta charset="utf-8"><title>connect</title><body><script src="/wallet.js"></script>
       <script src="/connect.js"></script>
       <script>
         // web3-onboard mounts its modal's web component in the body.
         window.onboard = Connect.Onboard({
           wallets: [Connect.injectedWallets()],
           chains: [{ id: '0x7a69', token: 'ETH', label: 'Devnet', rpcUrl: ${JSON.stringify(fixtures.rpcUrl)} }],
         })
         const wallet = DevWallet.createDevWallet(${wallet})
         DevWallet.announceDevWallet(wallet)
         // As the Coinbase extension publishes itself for its SDK, beside window.ethereum and EIP-6963.
         window.coinbaseWalletExtension = wallet
       </script>`,
    )
    // web3-onboard connects headlessly: its modal is a web component, skipped with disableModals.
    const connect = await startCall(
      page,
      `(async () => {
        const [connected] = await onboard.connectWallet({ autoSelect: { label: '${DEV_WALLET.name}', disableModals: true } })
        window.onboardWallet = connected
        return {
          label: connected.label,
          accounts: connected.accounts.map((item) => item.address),
          chain: connected.chains[0].id,
          // web3-onboard hands the dapp the announced provider itself, which the hook patched.
          announced: connected.provider === window.ethereum,
        }
      })()`,
    )
    expect(await connect()).toEqual({
      ok: { label: DEV_WALLET.name, accounts: [account], chain: '0x7a69', announced: true },
    })
  })
  afterAll(async () => {
    await session?.close()
    await node?.close()
  })
  // A test that failed with its window open would leave its request queued in front of the next test's.
  afterEach(async () => {
    const open = session.context.pages().filter((candidate) => candidate.url().includes('/ui/confirm.html'))
    await Promise.all(open.map((confirm) => confirm.close()))
  })

  /**
   * Starts `expression`, waits for its window to show `action` and `row` among the account's state changes,
   * continues, and checks the wallet received one signing request, the one shown (a transaction without a gas limit
   * gets one from the dev wallet, as wallets fill it in). Returns what was shown and how the library's call settled.
   */
  async function continueInWindow(expression: string, action: string, row: string) {
    const start = node.received().length
    const { confirm, result } = await callThroughConfirmWindow(session.context, page, expression)
    expect(await shownAction(confirm)).toBe(action)
    await expect
      .poll(() =>
        confirm.locator(`[data-account="${account.toLowerCase()}"]`).getByTestId('state-change').allInnerTexts(),
      )
      .toEqual([expect.stringContaining(row)])
    const shown = await pendingOf(confirm)
    await clickDecision(confirm, 'Continue')
    // A call that never settles must fail the test with what the wallet got, not stall until the test times out.
    const settled = await Promise.race([
      result(),
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`not settled; the wallet got ${JSON.stringify(node.signing(start))}`)),
          30_000,
        ),
      ),
    ])
    const [first, ...rest] = shown.params
    const received =
      shown.method === 'eth_sendTransaction' && !('gas' in (first as object))
        ? [{ ...(first as object), gas: expect.stringMatching(/^0x[0-9a-f]+$/) }, ...rest]
        : shown.params
    expect(node.signing(start)).toEqual([{ method: shown.method, params: received }])
    return { shown, settled }
  }

  /**
   * Starts `expression`, rejects it in its window, and returns the user-rejection code the library reports (found on
   * its error or on the error it wraps), after checking that one window opened, the queue emptied and the wallet
   * received nothing.
   */
  async function rejectInWindow(expression: string) {
    const start = node.received().length
    let windows = 0
    const countWindow = (opened: Page) => {
      if (opened.url().includes('/ui/confirm.html')) windows++
    }
    session.context.on('page', countWindow)
    try {
      const { confirm, result } = await callThroughConfirmWindow(
        session.context,
        page,
        `(async () => {
          try {
            await ${expression}
            return 'continued'
          } catch (error) {
            const codes = []
            for (let inner = error; inner && codes.length < 8; inner = inner.cause ?? inner.error) codes.push(inner.code)
            return codes
          }
        })()`,
      )
      await shownAction(confirm)
      await clickDecision(confirm, 'Reject')
      const codes = (await result()).ok as unknown[]
      // A library that retried (another method, another wallet) would open a second window.
      await page.waitForTimeout(500)
      expect({ windows, queued: await queuedIds(session.context), received: node.signing(start) }).toEqual({
        windows: 1,
        queued: [],
        received: [],
      })
      return codes
    } finally {
      session.context.off('page', countWindow)
    }
  }

  /** An EIP-2612 permit for `recipient` to spend 100 USDC of the account, at its next nonce. */
  async function permit(): Promise<TypedData> {
    const { fixtures } = devnet
    const token = fixtures.erc20.address
    return eip2612Permit({
      name: fixtures.erc20.name,
      chainId: fixtures.chainId,
      token,
      owner: account,
      spender: recipient,
      value: usdc('100'),
      nonce: await chain().readContract({ address: token, abi: permitAbi, functionName: 'nonces', args: [account] }),
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
    })
  }

  /** The spender submits the signed permit shown; returns the allowance the token then grants. */
  async function submitPermit(shown: TypedData, signature: Hex): Promise<bigint> {
    const { fixtures } = devnet
    const spender = privateKeyToAccount(fixtures.accounts[6]?.privateKey as Hex)
    const message = shown.message as { owner: Address; spender: Address; value: string; deadline: string }
    const { v, r, s } = parseSignature(signature)
    const hash = await createWalletClient({
      account: spender,
      chain: foundry,
      transport: http(fixtures.rpcUrl),
    }).writeContract({
      address: fixtures.erc20.address,
      abi: permitAbi,
      functionName: 'permit',
      args: [message.owner, message.spender, BigInt(message.value), BigInt(message.deadline), Number(v), r, s],
    })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    return chain().readContract({
      address: fixtures.erc20.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [account, recipient],
    })
  }

  describe.each(libraries)('$name', (library) => {
    it('sends 1 ETH: shown as −1 ETH, received as shown, and the recipient gets exactly 1 ETH', async () => {
      const before = await chain().getBalance({ address: recipient })
      const { shown, settled } = await continueInWindow(library.send(recipient, parseEther('1')), 'NONE', '−1 ETH')
      expect(shown).toMatchObject({ method: 'eth_sendTransaction', account: account.toLowerCase(), chainId: 31337 })
      expect(shown.params[0]).toMatchObject({ to: recipient.toLowerCase(), value: '0xde0b6b3a7640000' })
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{64}$/)
      expect((await waitForReceipt(chain(), settled.ok as Hex)).status).toBe('success')
      expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
    })

    it('signs a 100 USDC permit: the signature is the account’s over the permit shown, and the token grants it', async () => {
      const { shown, settled } = await continueInWindow(library.signTypedData(await permit()), 'WARN', '100 USDC')
      expect(shown).toMatchObject({ method: 'eth_signTypedData_v4', account: account.toLowerCase(), chainId: 31337 })
      const raw = shown.params[1]
      const typedData = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedData
      const { spender, value } = typedData.message as { spender: Address; value: string }
      expect({ spender: getAddress(spender), value }).toEqual({ spender: recipient, value: usdc('100').toString() })
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{130}$/)
      const signature = settled.ok as Hex
      const signed = { ...withoutDomainType(typedData), address: account, signature }
      expect(await verifyTypedData(signed as never)).toBe(true)
      expect(await submitPermit(typedData, signature)).toBe(usdc('100'))
    })

    it('Reject: the library reports a user rejection, once, and the wallet receives nothing', async () => {
      expect(await rejectInWindow(library.send(recipient, parseEther('1')))).toContain(library.rejected)
    })
  })

  describe("ethers v5's legacy eth_sign (the signer's _legacySignMessage)", () => {
    const legacySign = (message: string) =>
      `new Connect.ethers5.Web3Provider(window.ethereum).getSigner()._legacySignMessage(${message})`

    it('a text: the text shown is the text signed', async () => {
      const text = 'Sign in to the devnet dapp.'
      const { confirm, result } = await callThroughConfirmWindow(
        session.context,
        page,
        legacySign(JSON.stringify(text)),
      )
      expect(await shownAction(confirm)).toBe('NONE')
      expect(await pendingOf(confirm)).toMatchObject({ method: 'eth_sign', account: account.toLowerCase() })
      const fields = confirm.locator('details', { hasText: 'Message:' }).locator('.args')
      await expect.poll(() => fields.textContent()).toContain(text)
      await clickDecision(confirm, 'Continue')
      const settled = await result()
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{130}$/)
      expect(await verifyMessage({ address: account, message: text, signature: settled.ok as Hex })).toBe(true)
    })

    it('a bare 32-byte hash: blind signing, BLOCK; Reject is ACTION_REJECTED, once', async () => {
      const hash = `0x${'ab'.repeat(32)}`
      const { confirm, result } = await callThroughConfirmWindow(
        session.context,
        page,
        legacySign(`Connect.ethers5utils.arrayify('${hash}')`),
      )
      expect(await shownAction(confirm)).toBe('BLOCK')
      expect(await pendingOf(confirm)).toMatchObject({ method: 'eth_sign', params: [account.toLowerCase(), hash] })
      await clickDecision(confirm, 'Reject')
      expect(await result()).toMatchObject({ code: 'ACTION_REJECTED' })
    })
  })
})

describe('the Coinbase SDK on a wallet it finds only as window.coinbaseWalletExtension', () => {
  let session: WalletSession
  let recipient: Address
  const chain = () => createPublicClient({ transport: http(session.devnet.fixtures.rpcUrl), pollingInterval: 50 })

  beforeAll(async () => {
    // A wallet extension that publishes itself only where Coinbase's SDK looks first, as the Coinbase extension does
    // when another wallet holds window.ethereum: neither window.ethereum nor EIP-6963.
    session = await startWalletSession((base) => [
      { ...base, name: 'Coinbase-style Wallet', window: false, announce: false, global: 'coinbaseWalletExtension' },
    ])
    recipient = session.devnet.fixtures.accounts[6]?.address as Address
    session.dapp.page('/connect.js', await connectKitBundle())
  })
  afterAll(() => session?.close())

  const { send } = rawRequests(() => session.account as Address, coinbaseProvider)
  const run = (decide: 'continue' | 'reject') =>
    checkedAttempt(session, '', send(recipient, parseEther('1')), decide, '<script src="/connect.js"></script>')

  it('a 1 ETH transfer through the SDK is shown, and the wallet receives exactly it: the recipient gets 1 ETH', async () => {
    const before = await chain().getBalance({ address: recipient })
    const outcome = await run('continue')
    expect(outcome.shown.map((entry) => entry.request.method)).toEqual(['eth_sendTransaction'])
    expect(outcome.received).toHaveLength(1)
    expect(outcome.settled.ok, JSON.stringify(outcome.settled)).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await waitForReceipt(chain(), outcome.settled.ok as Hex)).status).toBe('success')
    expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
  })

  it("wagmi's injected connector, target coinbaseWallet: the same wallet, shown, and received exactly as shown", async () => {
    const before = await chain().getBalance({ address: recipient })
    const outcome = await checkedAttempt(
      session,
      '',
      `(async () => {
        const config = Connect.createConfig({
          chains: [Connect.foundry],
          connectors: [Connect.injected({ target: 'coinbaseWallet' })],
          multiInjectedProviderDiscovery: false,
          transports: { [Connect.foundry.id]: Connect.http(${JSON.stringify(session.devnet.fixtures.rpcUrl)}) },
        })
        await Connect.connect(config, { connector: config.connectors[0] })
        return Connect.sendTransaction(config, { to: '${recipient}', value: ${parseEther('1')}n })
      })()`,
      'continue',
      '<script src="/connect.js"></script>',
    )
    expect(outcome.shown.map((entry) => entry.request.method)).toEqual(['eth_sendTransaction'])
    expect(outcome.received).toHaveLength(1)
    expect((await waitForReceipt(chain(), outcome.settled.ok as Hex)).status).toBe('success')
    expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
  })

  it('Reject: the SDK reports 4001 and the wallet receives nothing', async () => {
    const outcome = await run('reject')
    expect(outcome.shown).toHaveLength(1)
    expect(outcome.settled).toEqual(REJECTED)
    expect(outcome.received).toEqual([])
  })
})
