/**
 * Requests as the client libraries dapps use send them (ethers v6, viem and web3.js, the real packages from npm,
 * bundled into the page), through the built extension to the dev wallet and the devnet: each library gets its answer
 * after Continue, and what the window showed is what happened on chain, or what was signed.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther, verifyTypedData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { libraryBundle, MAIL } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision, pendingOf, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('requests from client libraries, continued in the window', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let page: Page
  let account: Hex
  let recipient: Hex

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    recipient = fixtures.accounts[6]?.address as Hex
    session.dapp.page('/libs.js', await libraryBundle())
    page = await session.open(
      '/',
      `<!doctype html><meta charset="utf-8"><title>libraries</title><script src="/wallet.js"></script>
       <script src="/libs.js"></script>
       <script>DevWallet.announceDevWallet(DevWallet.createDevWallet(${JSON.stringify({ rpcUrl: fixtures.rpcUrl, account })}))</script>`,
    )
  })
  afterAll(() => session?.close())

  /**
   * Sends 0.01 ETH to `recipient` with `expression` (which answers the transaction hash), continues it in the window
   * once it shows −0.01 ETH, and checks the recipient received exactly that.
   */
  async function sendThroughWindow(expression: string) {
    const chain = createPublicClient({ transport: http(devnet.fixtures.rpcUrl), pollingInterval: 50 })
    const before = await chain.getBalance({ address: recipient })
    const { confirm, result } = await callThroughConfirmWindow(context, page, expression)
    expect(await shownAction(confirm)).toBe('NONE')
    await expect
      .poll(() => confirm.getByTestId('state-change').allInnerTexts())
      .toContainEqual(expect.stringContaining('−0.01 ETH'))
    const shown = await pendingOf(confirm)
    await clickDecision(confirm, 'Continue')
    const settled = await result()
    expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await waitForReceipt(chain, settled.ok as Hex)).status).toBe('success')
    expect(await chain.getBalance({ address: recipient })).toBe(before + parseEther('0.01'))
    return shown
  }

  /** Signs MAIL with `expression` (which answers the signature) after Continue, and checks who signed what. */
  async function signThroughWindow(expression: string) {
    const { confirm, result } = await callThroughConfirmWindow(context, page, expression)
    expect(await shownAction(confirm)).toBe('NONE')
    const shown = await pendingOf(confirm)
    expect(shown).toMatchObject({ method: 'eth_signTypedData_v4', account: account.toLowerCase(), chainId: 31337 })
    await clickDecision(confirm, 'Continue')
    const settled = await result()
    expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyTypedData({ ...MAIL, address: account, signature: settled.ok as Hex })).toBe(true)
  }

  it('ethers v6: a transfer from the signer, after its gas estimate', async () => {
    const shown = await sendThroughWindow(`(async () => {
      const signer = await new Libs.BrowserProvider(window.ethereum).getSigner()
      const tx = await signer.sendTransaction({ to: '${recipient}', value: 10n ** 16n })
      return tx.hash
    })()`)
    // ethers estimated the gas itself; the wallet got the limit the window showed.
    expect(shown.params[0]).toMatchObject({ from: account.toLowerCase(), gas: expect.stringMatching(/^0x/) })
  })

  it('viem: a transfer from a JSON-RPC account', async () => {
    await sendThroughWindow(`(async () => {
      const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(window.ethereum) })
      const [address] = await client.requestAddresses()
      return client.sendTransaction({ account: address, to: '${recipient}', value: 10n ** 16n })
    })()`)
  })

  it('web3.js: a transfer with the chain and fees it fills in, answered with its receipt', async () => {
    const shown = await sendThroughWindow(`(async () => {
      const web3 = new Libs.Web3(window.ethereum)
      const receipt = await web3.eth.sendTransaction({ from: '${account}', to: '${recipient}', value: '0x2386f26fc10000' })
      return receipt.transactionHash
    })()`)
    // web3.js names the chain and sets EIP-1559 fees of its own; the wallet got them as the window showed them.
    expect(shown.params[0]).toMatchObject({
      chainId: '0x7a69',
      maxFeePerGas: expect.stringMatching(/^0x[0-9a-f]+$/),
      maxPriorityFeePerGas: expect.stringMatching(/^0x[0-9a-f]+$/),
    })
  })

  it('ethers v6, viem and web3.js: typed data, signed as shown', async () => {
    const { domain, types, message } = MAIL
    // web3.js sends the object as given, so it carries the EIP712Domain type as wallets expect it.
    const withDomainType = {
      ...MAIL,
      types: {
        ...types,
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
      },
    }
    await signThroughWindow(`(async () => {
      const signer = await new Libs.BrowserProvider(window.ethereum).getSigner()
      return signer.signTypedData(${JSON.stringify(domain)}, ${JSON.stringify(types)}, ${JSON.stringify(message)})
    })()`)
    await signThroughWindow(`(async () => {
      const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(window.ethereum) })
      const [address] = await client.requestAddresses()
      return client.signTypedData({ account: address, ...${JSON.stringify(MAIL)} })
    })()`)
    await signThroughWindow(
      `new Libs.Web3(window.ethereum).eth.signTypedData('${account}', ${JSON.stringify(withDomainType)})`,
    )
  })
})
