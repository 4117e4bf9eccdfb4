/**
 * Requests as wagmi and Safe's protocol-kit send them (the real packages from npm, bundled into the page): wagmi's
 * core finds the dev wallet through EIP-6963 and talks to it through its injected connector, protocol-kit has an
 * owner sign a Safe transaction through that same provider. Each request goes through the built extension, is
 * continued in the window, and the wallet receives exactly what the window showed; then the chain moved what the
 * window said, or the signature is the signer's over what was shown.
 */
import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseUnits,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { execSafeTransaction } from '../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { safeTxTypedData } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { SafeTx } from '../../src/engine/index.ts'
import type { PendingRequest } from '../../src/extension/shared/pending.ts'
import { MAIL, walletKitBundle } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  pendingOf,
  REJECTED,
  shownAction,
  startCall,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'
import { startWalletNode, type WalletNode } from './support/walletNode.ts'

/** The rdns the dev wallet announces itself with over EIP-6963 (src/devnet/dapp/devWallet.ts). */
const DEV_WALLET_RDNS = 'dev.preflight.devwallet'

describe('wagmi and Safe protocol-kit requests, continued in the window', () => {
  let devnet: Devnet
  let session: E2eSession
  let node: WalletNode
  let page: Page
  let account: Address
  let recipient: Address

  const chain = () => createPublicClient({ transport: http(devnet.fixtures.rpcUrl), pollingInterval: 50 })
  const usdcOf = (address: Address) =>
    chain().readContract({
      address: devnet.fixtures.erc20.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    })
  const usdc = (amount: string) => parseUnits(amount, devnet.fixtures.erc20.decimals)

  beforeAll(async () => {
    session = await startE2eSession()
    devnet = session.devnet
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Address
    recipient = fixtures.accounts[6]?.address as Address
    // The wallet sends through a logging node in front of the devnet, so what it received is read outside the page;
    // the node carries out wallet_sendCalls as one transaction per call, which anvil alone cannot.
    node = await startWalletNode(fixtures.rpcUrl)
    session.dapp.page('/kits.js', await walletKitBundle())
    const wallet = JSON.stringify({ rpcUrl: node.url, account })
    page = await session.open(
      '/',
      `<!doctype html><meta charset="utf-8"><title>wagmi</title><script src="/wallet.js"></script>
       <script src="/kits.js"></script>
       <script>
         // Announced over EIP-6963 only, not as window.ethereum: wagmi finds it the way it finds wallets, through mipd.
         DevWallet.announceDevWallet(DevWallet.createDevWallet(${wallet}), { windowEthereum: false })
         window.config = Kits.createConfig({
           chains: [Kits.foundry],
           transports: { [Kits.foundry.id]: Kits.http(${JSON.stringify(fixtures.rpcUrl)}) },
         })
       </script>`,
    )
    const connect = await startCall(
      page,
      `(async () => {
        const connector = config.connectors.find((candidate) => candidate.id === '${DEV_WALLET_RDNS}')
        const { accounts, chainId } = await Kits.connect(config, { connector })
        return { accounts, chainId, type: connector.type }
      })()`,
    )
    expect(await connect()).toEqual({ ok: { accounts: [account], chainId: 31337, type: 'injected' } })
  })
  afterAll(async () => {
    await session?.close()
    await node?.close()
  })
  // A test that failed with its window open would leave its request queued in front of the next test's: closing the
  // window rejects it.
  afterEach(async () => {
    const open = session.context.pages().filter((candidate) => candidate.url().includes('/ui/confirm.html'))
    await Promise.all(open.map((confirm) => confirm.close()))
  })

  /**
   * Starts `expression` in the page, waits for its window to show `action`, runs `check` on the window, continues,
   * and checks the wallet received one signing request, the one shown (with the gas limit the dev wallet fills in
   * when the request has none, as wallets do). Returns what was shown and how the library's call settled.
   */
  async function continueInWindow(expression: string, action: string, check: (confirm: Page) => Promise<void>) {
    const start = node.received().length
    const { confirm, result } = await callThroughConfirmWindow(session.context, page, expression)
    expect(await shownAction(confirm)).toBe(action)
    await check(confirm)
    const shown = await pendingOf(confirm)
    await clickDecision(confirm, 'Continue')
    const settled = await result()
    expect(node.signing(start)).toEqual([{ method: shown.method, params: asTheWalletSendsIt(shown) }])
    return { shown, settled }
  }

  /** The params of `shown` as the dev wallet passes them on: a transaction without a gas limit gets one. */
  const asTheWalletSendsIt = (shown: PendingRequest) => {
    const [first, ...rest] = shown.params
    if (shown.method !== 'eth_sendTransaction' || 'gas' in (first as object)) return shown.params
    return [{ ...(first as object), gas: expect.stringMatching(/^0x[0-9a-f]+$/) }, ...rest]
  }

  /** The state-change rows the window shows for `address`. */
  const changesOf = (confirm: Page, address: Address) =>
    confirm.locator(`[data-account="${address.toLowerCase()}"]`).getByTestId('state-change').allInnerTexts()

  /** A transaction hash the library answered, mined successfully. */
  async function mined(settled: { ok?: unknown }) {
    expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await waitForReceipt(chain(), settled.ok as Hex)).status).toBe('success')
  }

  describe('wagmi (@wagmi/core, injected connector found through EIP-6963)', () => {
    it('sendTransaction: 0.01 ETH, shown and received as sent', async () => {
      const before = await chain().getBalance({ address: recipient })
      const { shown, settled } = await continueInWindow(
        `Kits.sendTransaction(config, { to: '${recipient}', value: 10n ** 16n })`,
        'NONE',
        async (confirm) => {
          await expect.poll(() => changesOf(confirm, account)).toEqual([expect.stringContaining('−0.01 ETH')])
        },
      )
      expect(shown).toMatchObject({ method: 'eth_sendTransaction', account: account.toLowerCase(), chainId: 31337 })
      await mined(settled)
      expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('0.01'))
    })

    it('signTypedData: the signer signed the message shown', async () => {
      const { shown, settled } = await continueInWindow(
        `Kits.signTypedData(config, ${JSON.stringify(MAIL)})`,
        'NONE',
        async () => {},
      )
      expect(shown).toMatchObject({ method: 'eth_signTypedData_v4', account: account.toLowerCase(), chainId: 31337 })
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{130}$/)
      expect(await verifyTypedData({ ...MAIL, address: account, signature: settled.ok as Hex })).toBe(true)
    })

    it('signMessage: the text shown is the text signed', async () => {
      const message = 'Sign in to the devnet dapp.\nNonce: 42'
      const { shown, settled } = await continueInWindow(
        `Kits.signMessage(config, { message: ${JSON.stringify(message)} })`,
        'NONE',
        async (confirm) => {
          const fields = confirm.locator('details', { hasText: 'Message:' }).locator('.args')
          await expect.poll(() => fields.textContent()).toContain(message)
        },
      )
      expect(shown).toMatchObject({ method: 'personal_sign', account: account.toLowerCase() })
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x[0-9a-f]{130}$/)
      expect(await verifyMessage({ address: account, message, signature: settled.ok as Hex })).toBe(true)
    })

    it('writeContract: a USDC transfer, its amount shown and moved', async () => {
      const [mine, theirs] = [await usdcOf(account), await usdcOf(recipient)]
      const { settled } = await continueInWindow(
        `Kits.writeContract(config, { address: '${devnet.fixtures.erc20.address}', abi: ${JSON.stringify(erc20Abi)},
           functionName: 'transfer', args: ['${recipient}', ${usdc('12.5')}n] })`,
        'NONE',
        async (confirm) => {
          await expect.poll(() => changesOf(confirm, account)).toEqual([expect.stringContaining('−12.5 USDC')])
        },
      )
      await mined(settled)
      expect([await usdcOf(account), await usdcOf(recipient)]).toEqual([mine - usdc('12.5'), theirs + usdc('12.5')])
    })

    it('sendCalls (EIP-5792): both calls shown, the batch received as shown, both carried out', async () => {
      const ether = await chain().getBalance({ address: recipient })
      const [mine, theirs] = [await usdcOf(account), await usdcOf(recipient)]
      const { shown, settled } = await continueInWindow(
        `Kits.sendCalls(config, { calls: [
           { to: '${recipient}', value: 10n ** 16n },
           { to: '${devnet.fixtures.erc20.address}', abi: ${JSON.stringify(erc20Abi)}, functionName: 'transfer',
             args: ['${recipient}', ${usdc('3')}n] },
         ] }).then((sent) => sent.id)`,
        'NONE',
        async (confirm) => {
          await expect
            .poll(() => changesOf(confirm, account))
            .toEqual([expect.stringContaining('−0.01 ETH'), expect.stringContaining('−3 USDC')])
        },
      )
      expect(shown).toMatchObject({ method: 'wallet_sendCalls', account: account.toLowerCase(), chainId: 31337 })
      expect(settled.ok, JSON.stringify(settled)).toMatch(/^0x/)
      expect(await chain().getBalance({ address: recipient })).toBe(ether + parseEther('0.01'))
      expect([await usdcOf(account), await usdcOf(recipient)]).toEqual([mine - usdc('3'), theirs + usdc('3')])
    })

    it('a transaction Preflight refuses is not resent past it as wallet_sendTransaction', async () => {
      // An EIP-7702 authorization (account 5 handing itself to the drainer's code), which Preflight cannot check yet
      // and refuses as invalid params. viem, under wagmi, answers that by resending the same transaction as
      // wallet_sendTransaction, which used to pass the hook untouched and reach the wallet unseen.
      const { accounts, drainer } = devnet.fixtures
      const delegator = privateKeyToAccount((accounts[5] as { privateKey: Hex }).privateKey)
      const { address, chainId, nonce, r, s, yParity } = await delegator.signAuthorization({
        address: drainer.address,
        chainId: 31337,
        nonce: 0,
      })
      const start = node.received().length
      const call = await startCall(
        page,
        `Kits.sendTransaction(config, { to: '${recipient}', value: 1n,
           authorizationList: [{ address: '${address}', chainId: ${chainId}, nonce: ${nonce}, r: '${r}', s: '${s}', yParity: ${yParity} }] })`,
      )
      expect((await call()).message).toContain('Preflight: this transaction holds EIP-7702 authorizations')
      expect(node.signing(start)).toEqual([])
    })
  })

  describe("Safe's protocol-kit, the connected wallet as an owner", () => {
    /**
     * `body`, run in the page with `kit`: protocol-kit on the Safe through the wagmi connector's provider, signing as
     * account 0. The devnet's Safe contracts are named for chain 31337, which protocol-kit's own list does not have.
     */
    const withKit = (body: string) => {
      const { chainId, safe, safeContracts } = devnet.fixtures
      const contractNetworks = {
        [chainId]: {
          safeSingletonAddress: safeContracts.singleton,
          safeProxyFactoryAddress: safeContracts.proxyFactory,
          multiSendAddress: safeContracts.multiSend,
          multiSendCallOnlyAddress: safeContracts.multiSendCallOnly,
          fallbackHandlerAddress: safeContracts.fallbackHandler,
          signMessageLibAddress: safeContracts.signMessageLib,
          createCallAddress: safeContracts.createCall,
        },
      }
      return `(async () => {
        const connector = config.connectors.find((candidate) => candidate.id === '${DEV_WALLET_RDNS}')
        const kit = await Kits.Safe.init({
          provider: await connector.getProvider(),
          signer: '${account}',
          safeAddress: '${safe.address}',
          contractNetworks: ${JSON.stringify(contractNetworks)},
        })
        ${body}
      })()`
    }

    /** The statement that puts in `tx` the Safe transaction of 1 ETH to the recipient, as protocol-kit builds it. */
    const createTransfer = () =>
      `const tx = await kit.createTransaction({ transactions: [{ to: '${recipient}', value: '${parseEther('1')}', data: '0x' }] })`

    type KitTx = Record<keyof SafeTx, string | number>

    /** protocol-kit's transaction data (decimal strings and numbers) as the SafeTx the devnet helpers take. */
    const safeTx = (data: KitTx): SafeTx => ({
      to: data.to as Address,
      value: BigInt(data.value),
      data: data.data as Hex,
      operation: Number(data.operation) as SafeTx['operation'],
      safeTxGas: BigInt(data.safeTxGas),
      baseGas: BigInt(data.baseGas),
      gasPrice: BigInt(data.gasPrice),
      gasToken: data.gasToken as Address,
      refundReceiver: data.refundReceiver as Address,
      nonce: BigInt(data.nonce),
    })

    /** Owner 1, who signs outside the browser with its key from the fixtures. */
    const secondOwner = () => {
      const { address, privateKey } = devnet.fixtures.accounts[1] as { address: Address; privateKey: Hex }
      return { address, signer: privateKeyToAccount(privateKey) }
    }

    /** Owner 1's EIP-712 signature of `tx`. */
    const cosign = (tx: SafeTx) => {
      const { chainId, safe } = devnet.fixtures
      return secondOwner().signer.signTypedData(safeTxTypedData(chainId, safe.address, tx) as never)
    }

    /** Waits for the window to show the Safe's −1 ETH. */
    const safePaysOneEth = async (confirm: Page) => {
      await expect
        .poll(() => changesOf(confirm, devnet.fixtures.safe.address))
        .toEqual([expect.stringContaining('−1 ETH')])
    }

    it('signTransaction (eth_signTypedData_v4): the Safe −1 ETH shown, a second owner signs, the recipient gets 1 ETH', async () => {
      const { fixtures } = devnet
      const { shown, settled } = await continueInWindow(
        withKit(`${createTransfer()}
          const signed = await kit.signTransaction(tx, 'eth_signTypedData_v4')
          return { tx: signed.data, signature: signed.getSignature('${account}').data }`),
        'NONE',
        safePaysOneEth,
      )
      expect(shown).toMatchObject({ method: 'eth_signTypedData_v4', account: account.toLowerCase(), chainId: 31337 })
      const signed = settled.ok as { tx: KitTx; signature: Hex } | undefined
      if (!signed) throw new Error(`protocol-kit did not sign: ${JSON.stringify(settled)}`)
      const tx = safeTx(signed.tx)
      // The wallet signed the Safe transaction protocol-kit built, as owner 0.
      const typedData = safeTxTypedData(fixtures.chainId, fixtures.safe.address, tx)
      expect(await verifyTypedData({ ...typedData, address: account, signature: signed.signature } as never)).toBe(true)

      const before = await chain().getBalance({ address: recipient })
      const second = secondOwner()
      const executor = createWalletClient({ account: second.signer, chain: foundry, transport: http(fixtures.rpcUrl) })
      const { to, data } = execSafeTransaction(fixtures, second.address, tx, [
        { owner: account, signature: signed.signature },
        { owner: second.address, signature: await cosign(tx) },
      ])
      const hash = await executor.sendTransaction({ to, data })
      expect((await waitForReceipt(chain(), hash)).status).toBe('success')
      expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
    })

    it("executeTransaction: the executing owner's execTransaction shows the Safe −1 ETH, and the recipient gets it", async () => {
      // Built in the page (no window: nothing is signed), cosigned outside, then executed by owner 0, whose own
      // approval protocol-kit adds as a pre-validated signature (msg.sender is an owner).
      const build = await startCall(
        page,
        withKit(`${createTransfer()}
          window.proposal = { kit, tx }
          return tx.data`),
      )
      const built = await build()
      if (!built.ok) throw new Error(`protocol-kit did not build: ${JSON.stringify(built)}`)
      const cosigned = await cosign(safeTx(built.ok as KitTx))
      const before = await chain().getBalance({ address: recipient })
      const { shown, settled } = await continueInWindow(
        `(async () => {
          const { kit, tx } = window.proposal
          tx.addSignature(new Kits.EthSafeSignature('${secondOwner().address}', '${cosigned}'))
          return (await kit.executeTransaction(tx)).hash
        })()`,
        'NONE',
        safePaysOneEth,
      )
      expect(shown).toMatchObject({ method: 'eth_sendTransaction', account: account.toLowerCase(), chainId: 31337 })
      expect(shown.params[0]).toMatchObject({ to: devnet.fixtures.safe.address.toLowerCase() })
      await mined(settled)
      expect(await chain().getBalance({ address: recipient })).toBe(before + parseEther('1'))
    })

    it('signTransaction (eth_sign): the bare safeTxHash, sent as personal_sign, is shown as blind signing', async () => {
      const { confirm, result } = await callThroughConfirmWindow(
        session.context,
        page,
        withKit(`${createTransfer()}
          return (await kit.signTransaction(tx, 'eth_sign')).getSignature('${account}').data`),
      )
      const action = await shownAction(confirm)
      expect(await pendingOf(confirm)).toMatchObject({ method: 'personal_sign', account: account.toLowerCase() })
      const warnings = await confirm
        .locator('[data-warning-kind]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-warning-kind')))
      expect({ action, warnings }).toEqual({ action: 'BLOCK', warnings: ['ETH_SIGN_TX_HASH'] })
      // Nothing moves when a hash is signed, and the window does not say so as if that were harmless.
      await expect.poll(() => confirm.getByText('What the hash stands for can').count()).toBe(1)
      await clickDecision(confirm, 'Reject')
      expect(await result()).toMatchObject({ code: REJECTED.code })
    })
  })
})
