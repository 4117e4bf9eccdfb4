/**
 * MetaMask's own page-side provider under the hook: the test wallet built from @metamask/providers over
 * @metamask/post-message-stream and object-multiplex (support/wallet/metamask), answered from the devnet, against the
 * built extension in Chromium. Dapps' requests through ethers v6 and viem are shown and, continued, do on chain or sign
 * what the window showed; a page that goes through the provider's internals, its stream, the channel beneath it or
 * its EIP-6963 announcement gets a window for what the wallet would receive, or reaches nothing.
 */
import type { BrowserContext } from 'playwright-core'
import {
  createPublicClient,
  type Hex,
  http,
  parseAbi,
  parseSignature,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eip2612Permit } from '../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { ScanMessageResponse, ScanTransactionsResponse } from '../../src/engine/index.ts'
import type { PendingRequest } from '../../src/extension/shared/pending.ts'
import { amountOf } from '../engine/messageSupport.ts'
import { claimedDeltas, devnetClient } from '../engine/protocolSupport.ts'
import { type Dapp, libraryBundle } from './support/dapp.ts'
import {
  ATTACKER,
  type Attempt,
  checkedAttempt,
  type Decide,
  FRIEND,
  ONE_ETH,
  startWalletSession,
  type WalletSession,
} from './support/hostile.ts'
import type { WalletNode } from './support/walletNode.ts'

const ERC20 = parseAbi([
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
])

/** The EIP-6963 rdns of the second wallet, which has no message channel. */
const DIRECT = 'dev.preflight.direct'

/** The client libraries, loaded by each page before its own script. */
const LIBS = '<script src="/libs.js"></script>'

describe("MetaMask's page-side provider (@metamask/providers) under the hook", () => {
  let session: WalletSession
  let node: WalletNode
  let dapp: Dapp
  let context: BrowserContext
  let account: Hex

  beforeAll(async () => {
    // Beside MetaMask, a wallet with no channel (it calls its node from the page), found only through EIP-6963.
    session = await startWalletSession((base) => [
      { ...base, metamask: true },
      { ...base, window: false, name: 'Direct Wallet', rdns: DIRECT },
    ])
    ;({ node, dapp, context } = session)
    account = session.account as Hex
    dapp.page('/libs.js', await libraryBundle())
  })
  afterAll(() => session?.close())

  const chain = () => createPublicClient({ transport: http(session.devnet.fixtures.rpcUrl), pollingInterval: 50 })
  const run = (call: string, decide: Decide | ((shown: PendingRequest) => Decide), setup = ''): Promise<Attempt> =>
    checkedAttempt({ context, node, dapp }, setup, call, decide, LIBS)
  const tx = (to: string, value: string) => `{ from: '${account}', to: '${to}', value: '${value}' }`
  const request = (id: number | string, to = ATTACKER) =>
    `{ jsonrpc: '2.0', id: ${JSON.stringify(id)}, method: 'eth_sendTransaction', params: [${tx(to, ONE_ETH)}] }`
  /** Resolves with the wallet's answer to `id` on MetaMask's channel, or 'no answer' after `ms`. */
  const answerOnChannel = (id: string, ms = 3000) => `new Promise((resolve) => {
      addEventListener('message', (event) => {
        const answer = event.data?.target === 'metamask-inpage' && event.data.data?.name === 'metamask-provider' ? event.data.data.data : undefined
        if (answer && answer.id === ${JSON.stringify(id)}) resolve(answer.error ? { error: answer.error.code } : { result: answer.result })
      })
      setTimeout(() => resolve('no answer'), ${ms})
    })`
  const toOf = (shown: PendingRequest) => (shown.params[0] as { to?: string }).to?.toLowerCase()
  /** The attacker's transfer got one window, the page the rejection `answer`, and the wallet nothing. */
  const rejectedUnsent = (outcome: Attempt, answer: unknown = 4001) => {
    expect(outcome.shown).toHaveLength(1)
    expect(toOf(outcome.shown[0]?.request as PendingRequest)).toBe(ATTACKER)
    expect(outcome.settled.ok).toEqual(answer)
    expect(outcome.received).toEqual([])
  }

  /**
   * Continues the 1 ETH transfer to FRIEND that `call` sends (answering its hash), and checks the window showed it
   * once, the wallet got exactly that, and both balances moved on chain by what the scan claimed (the sender's gas
   * added back).
   */
  async function sendsAsShown(call: string) {
    const client = chain()
    const [fromBefore, toBefore] = await Promise.all([
      client.getBalance({ address: account }),
      client.getBalance({ address: FRIEND }),
    ])
    const outcome = await run(call, 'continue')
    expect(outcome.shown).toHaveLength(1)
    const shown = outcome.shown[0]?.request as PendingRequest
    expect(outcome.received).toEqual([{ method: 'eth_sendTransaction', params: shown.params }])
    if (shown.scan.status !== 'DONE' || shown.scan.kind !== 'transactions') throw new Error('no transaction scan')
    const claimed = claimedDeltas(shown.scan.response as ScanTransactionsResponse)
    expect(claimed.get(`${FRIEND}|native`)).toBe(BigInt(ONE_ETH))
    expect(claimed.get(`${account}|native`)).toBe(-BigInt(ONE_ETH))
    const receipt = await waitForReceipt(client, outcome.settled.ok as Hex)
    expect(receipt.status).toBe('success')
    const fee = receipt.gasUsed * receipt.effectiveGasPrice
    expect((await client.getBalance({ address: FRIEND })) - toBefore).toBe(claimed.get(`${FRIEND}|native`))
    expect((await client.getBalance({ address: account })) - fromBefore + fee).toBe(claimed.get(`${account}|native`))
  }

  /**
   * A permit of `value` of the fixture token to FRIEND, signed with `sign` (an expression using `permit`, answering the
   * signature) and continued: the window showed the approval, the signature recovers to the account, and submitted
   * on chain it grants FRIEND exactly the allowance shown.
   */
  async function permitsAsShown(value: bigint, sign: string) {
    const { erc20 } = session.devnet.fixtures
    const client = chain()
    const nonce = await client.readContract({
      address: erc20.address,
      abi: ERC20,
      functionName: 'nonces',
      args: [account],
    })
    const permit = eip2612Permit({
      name: erc20.name,
      chainId: 31337,
      token: erc20.address,
      owner: account,
      spender: FRIEND,
      value,
      nonce,
      deadline: 1_900_000_000,
    })
    const outcome = await run(`((permit) => ${sign})(${JSON.stringify(permit)})`, 'continue')
    expect(outcome.shown).toHaveLength(1)
    const shown = outcome.shown[0]?.request as PendingRequest
    expect(shown).toMatchObject({ method: 'eth_signTypedData_v4', account, chainId: 31337 })
    expect(outcome.received).toEqual([{ method: 'eth_signTypedData_v4', params: shown.params }])
    if (shown.scan.status !== 'DONE' || shown.scan.kind !== 'message') throw new Error('no message scan')
    expect(amountOf(shown.scan.response as ScanMessageResponse, 0)).toBe(value.toString())
    const signature = outcome.settled.ok as Hex
    expect(await verifyTypedData({ ...permit, address: account, signature } as never)).toBe(true)
    const { v, r, s } = parseSignature(signature)
    const wallet = devnetClient(session.devnet.fixtures.rpcUrl)
    const hash = await wallet.writeContract({
      account: FRIEND,
      chain: null,
      address: erc20.address,
      abi: ERC20,
      functionName: 'permit',
      args: [account, FRIEND, value, 1_900_000_000n, Number(v), r, s],
    })
    expect((await waitForReceipt(client, hash)).status).toBe('success')
    const allowance = await client.readContract({
      address: erc20.address,
      abi: ERC20,
      functionName: 'allowance',
      args: [account, FRIEND],
    })
    expect(allowance).toBe(value)
  }

  describe('honest requests through ethers v6 and viem', () => {
    it('ethers v6: 1 ETH sent is shown once and moves on chain as shown', async () => {
      await sendsAsShown(`(async () => {
        const signer = await new Libs.BrowserProvider(ethereum).getSigner()
        return (await signer.sendTransaction({ to: '${FRIEND}', value: 10n ** 18n })).hash
      })()`)
    })

    it('viem: 1 ETH sent is shown once and moves on chain as shown', async () => {
      await sendsAsShown(`(async () => {
        const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(ethereum) })
        const [address] = await client.requestAddresses()
        return client.sendTransaction({ account: address, to: '${FRIEND}', value: 10n ** 18n })
      })()`)
    })

    it('ethers v6 and viem: an EIP-2612 permit is signed as shown and grants on chain exactly the allowance shown', async () => {
      await permitsAsShown(
        5n * 10n ** 18n,
        `(async () => {
          const { EIP712Domain, ...types } = permit.types
          const signer = await new Libs.BrowserProvider(ethereum).getSigner()
          return signer.signTypedData(permit.domain, types, permit.message)
        })()`,
      )
      await permitsAsShown(
        7n * 10n ** 18n,
        `(async () => {
          const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(ethereum) })
          const [account] = await client.requestAddresses()
          return client.signTypedData({ account, ...permit })
        })()`,
      )
    })

    it('ethers v6 and viem: personal_sign is shown with the message and signed by the account', async () => {
      const sign = {
        ethers: `(async () => (await new Libs.BrowserProvider(ethereum).getSigner()).signMessage('hello from ethers'))()`,
        viem: `(async () => {
          const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(ethereum) })
          const [account] = await client.requestAddresses()
          return client.signMessage({ account, message: 'hello from viem' })
        })()`,
      }
      for (const [library, call] of Object.entries(sign)) {
        const message = `hello from ${library}`
        const outcome = await run(call, 'continue')
        expect(outcome.shown).toHaveLength(1)
        expect(outcome.shown[0]?.request).toMatchObject({ method: 'personal_sign', params: [toHex(message), account] })
        expect(outcome.received).toEqual([{ method: 'personal_sign', params: [toHex(message), account] }])
        const signature = outcome.settled.ok as Hex
        expect(await verifyMessage({ address: account, message, signature })).toBe(true)
      }
    })

    it('Reject gives ethers, viem and a sendAsync callback 4001 exactly once, and the wallet gets nothing', async () => {
      const outcome = await run(
        `(async () => {
          const signer = await new Libs.BrowserProvider(ethereum).getSigner()
          const client = Libs.createWalletClient({ chain: Libs.foundry, transport: Libs.custom(ethereum) })
          const ethers = await signer.sendTransaction({ to: '${FRIEND}', value: 1n }).then(() => 'sent', (error) => error.info?.error?.code)
          const viem = await client.sendTransaction({ account: '${account}', to: '${FRIEND}', value: 1n }).then(() => 'sent', (error) => error.cause?.code)
          const callbacks = []
          ethereum.sendAsync(${request(77, FRIEND)}, (error, response) => callbacks.push((error ?? response.error).code))
          await new Promise((resolve) => setTimeout(resolve, 1500))
          return { ethers, viem, callbacks }
        })()`,
        'reject',
      )
      expect(outcome.shown).toHaveLength(3)
      expect(outcome.settled.ok).toEqual({ ethers: 4001, viem: 4001, callbacks: [4001] })
      expect(outcome.received).toEqual([])
    })
  })

  describe("a page going through the provider's internals", () => {
    it('_rpcEngine.handle: shown, and Reject answers 4001 with nothing sent', async () => {
      const outcome = await run(
        `new Promise((resolve) => ethereum._rpcEngine.handle(${request(901)}, (error, response) => resolve((error ?? response.error)?.code)))`,
        'reject',
      )
      rejectedUnsent(outcome)
    })

    it('_rpcEngine.handle with a batch: the signing request in it is shown and continued as shown', async () => {
      const outcome = await run(
        `new Promise((resolve) => ethereum._rpcEngine.handle([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, ${request(2, FRIEND)}], (error, responses) => resolve(responses.map((item) => item.result ?? item.error?.code))))`,
        'continue',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.received).toEqual([{ method: 'eth_sendTransaction', params: outcome.shown[0]?.request.params }])
      expect(outcome.settled.ok).toEqual(['0x7a69', expect.stringMatching(/^0x[0-9a-f]{64}$/)])
    })

    it('_rpcEngine.asMiddleware, below handle: shown, and Reject answers 4001 with nothing sent', async () => {
      const outcome = await run(
        `new Promise((resolve) => { const res = {}; ethereum._rpcEngine.asMiddleware()(${request(902)}, res, () => resolve('next'), (error) => resolve((error ?? res.error)?.code)) })`,
        'reject',
      )
      rejectedUnsent(outcome)
    })

    it('the experimental _metamask.requestBatch and the legacy send and web3 shim: each signing request shown, none sent on Reject', async () => {
      const outcome = await run(
        `(async () => {
          const batch = await ethereum._metamask.requestBatch([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, ${request(2)}])
          const send = await ethereum.send('eth_sendTransaction', [${tx(ATTACKER, '0x1')}]).then(() => 'sent', (error) => error.code)
          const shim = await web3.currentProvider.request({ method: 'eth_sendTransaction', params: [${tx(ATTACKER, '0x2')}] }).then(() => 'sent', (error) => error.code)
          return { batch: batch.map((item) => item.result ?? item.error?.code), send, shim }
        })()`,
        'reject',
      )
      expect(outcome.shown.map((entry) => (entry.request.params[0] as { value: string }).value)).toEqual([
        ONE_ETH,
        '0x1',
        '0x2',
      ])
      expect(outcome.settled.ok).toEqual({ batch: ['0x7a69', 4001], send: 4001, shim: 4001 })
      expect(outcome.received).toEqual([])
    })

    it('_rpcRequest: shown, and Reject answers 4001 with nothing sent', async () => {
      const outcome = await run(
        `new Promise((resolve) => ethereum._rpcRequest(${request(903)}, (error, response) => resolve((error ?? response.error)?.code)))`,
        'reject',
      )
      rejectedUnsent(outcome)
    })

    it("the stream middleware (_jsonRpcConnection.middleware): shown, Continue sends it as shown and the page gets the wallet's answer", async () => {
      const outcome = await run(
        `new Promise((resolve) => { const res = {}; ethereum._jsonRpcConnection.middleware(${request(904, FRIEND)}, res, () => {}, () => resolve(res.result ?? res.error?.code)) })`,
        'continue',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.shown[0]?.request.wallet?.label).toBe('metamask (its message channel)')
      expect(outcome.received).toEqual([{ method: 'eth_sendTransaction', params: outcome.shown[0]?.request.params }])
      expect(outcome.settled.ok).toMatch(/^0x[0-9a-f]{64}$/)
    })

    it('pushed into the provider’s stream (_jsonRpcConnection.stream.push): shown, and Reject answers it on the channel', async () => {
      const outcome = await run(
        `(() => { const answer = ${answerOnChannel('pushed')}; ethereum._jsonRpcConnection.stream.push(${request('pushed')}); return answer })()`,
        'reject',
      )
      rejectedUnsent(outcome, { error: 4001 })
    })

    it('posted on the channel as a multiplexed message by the page itself: shown, and Reject answers it there', async () => {
      const outcome = await run(
        `(() => {
          const answer = ${answerOnChannel('posted')}
          postMessage({ target: 'metamask-contentscript', data: { name: 'metamask-provider', data: ${request('posted')} } }, location.origin)
          return answer
        })()`,
        'reject',
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.shown[0]?.request.params).toEqual([
        { from: account, to: ATTACKER, value: ONE_ETH, chainId: '0x7a69' },
      ])
      expect(outcome.settled.ok).toEqual({ error: 4001 })
      expect(outcome.received).toEqual([])
    })

    it('the provider announced through EIP-6963: shown, and Reject answers 4001', async () => {
      const outcome = await run(
        `new Promise((resolve) => {
          addEventListener('eip6963:announceProvider', (event) => {
            if (event.detail.info.rdns !== 'dev.preflight.testwallet') return
            event.detail.provider.request({ method: 'eth_sendTransaction', params: [${tx(ATTACKER, ONE_ETH)}] }).then(resolve, (error) => resolve(error.code))
          })
          dispatchEvent(new Event('eip6963:requestProvider'))
        })`,
        'reject',
      )
      rejectedUnsent(outcome)
    })

    it('a request rewritten in the stream after Continue (a replaced stream.push) is shown again as rewritten, and reaches nothing', async () => {
      const outcome = await run(
        `ethereum.request({ method: 'eth_sendTransaction', params: [${tx(FRIEND, ONE_ETH)}] }).then((hash) => hash, (error) => error.code)`,
        (shown) => (toOf(shown) === FRIEND ? 'continue' : 'reject'),
        `const stream = ethereum._jsonRpcConnection.stream
         const push = stream.push
         stream.push = function (request) {
           const rewritten = request?.method === 'eth_sendTransaction' ? { ...request, params: [{ ...request.params[0], to: '${ATTACKER}' }] } : request
           return push.call(this, rewritten)
         }`,
      )
      expect(outcome.shown.map((entry) => [toOf(entry.request), entry.decision])).toEqual([
        [FRIEND, 'continue'],
        [ATTACKER, 'reject'],
      ])
      expect(outcome.settled.ok).toBe(4001)
      expect(outcome.received).toEqual([])
    })

    it('a continued request the page has sent again (the stream’s retry notification) gets a window again, not a second silent send', async () => {
      // The page holds back the wallet's answer (a transaction hash), so the request stays pending in the stream, and
      // has the stream's retry notification send it again.
      let windows = 0
      const outcome = await run(
        `ethereum.request({ method: 'eth_sendTransaction', params: [${tx(FRIEND, '0x5')}] }).then((hash) => hash, (error) => error.code)`,
        () => (windows++ === 0 ? 'continue' : 'reject'),
        `const stream = ethereum._jsonRpcConnection.stream
         const write = stream.write
         let held = false
         stream.write = function (message, ...rest) {
           if (held || typeof message?.result !== 'string' || message.result.length !== 66) return write.call(this, message, ...rest)
           held = true
           setTimeout(() => write.call(stream, { jsonrpc: '2.0', method: 'METAMASK_EXTENSION_CONNECT_CAN_RETRY' }), 100)
           return true
         }`,
      )
      expect(outcome.shown.map((entry) => entry.decision)).toEqual(['continue', 'reject'])
      expect(outcome.shown[1]?.request.params).toEqual(outcome.shown[0]?.request.params)
      expect(outcome.received).toEqual([{ method: 'eth_sendTransaction', params: outcome.shown[0]?.request.params }])
      expect(outcome.settled.ok).toBe(4001)
    })

    it('a page that answers eth_chainId for the provider (a replaced stream.write) has the transaction shown for its chain, and the wallet refuses what names it', async () => {
      // MetaMask's `request` reads the provider's own, page-writable, stream: the page answers for the wallet, as it
      // can on the channel. The chain the window shows is the page's; the forward names it, so the wallet refuses.
      const before = await chain().getBalance({ address: FRIEND })
      const outcome = await run(
        `ethereum.request({ method: 'eth_sendTransaction', params: [${tx(FRIEND, '0x7')}] }).then((hash) => hash, (error) => error.code)`,
        'continue',
        `const stream = ethereum._jsonRpcConnection.stream
         const write = stream.write
         const asked = new Set()
         const push = stream.push
         stream.push = function (request) {
           if (request?.method === 'eth_chainId') asked.add(request.id)
           return push.call(this, request)
         }
         stream.write = function (message, ...rest) {
           if (asked.has(message?.id)) return write.call(this, { ...message, result: '0x1' }, ...rest)
           return write.call(this, message, ...rest)
         }`,
      )
      expect(outcome.shown).toHaveLength(1)
      expect(outcome.shown[0]?.request).toMatchObject({ chainId: 1, scan: { status: 'ERROR' } })
      expect(outcome.received).toEqual([
        { method: 'eth_sendTransaction', params: [{ from: account, to: FRIEND, value: '0x7', chainId: '0x1' }] },
      ])
      expect(outcome.settled.ok).toBe(-32602)
      expect(await chain().getBalance({ address: FRIEND })).toBe(before)
    })

    // Known limit (docs/threat-model.md): what a Continue forwards through a provider may pass a wallet's channel once
    // within 10 s, on any route, as the relay cannot tell which wallet the provider behind the window talks to. A
    // Continue for a wallet with no channel thus lets the page post the same request to MetaMask's, which sends it
    // again with no window. It fails, as marked, until that is closed.
    it.fails('a Continue for a wallet with no channel does not let the page send the same request again over MetaMask’s', async () => {
      const params = `[{ chainId: '0x7a69', from: '${account}', to: '${FRIEND}', value: '${ONE_ETH}' }]`
      const outcome = await run(
        `new Promise((resolve) => {
          addEventListener('eip6963:announceProvider', async (event) => {
            if (event.detail.info.rdns !== '${DIRECT}') return
            const hash = await event.detail.provider.request({ method: 'eth_sendTransaction', params: ${params} })
            const again = ${answerOnChannel('again')}
            postMessage({ target: 'metamask-contentscript', data: { name: 'metamask-provider', data: { jsonrpc: '2.0', id: 'again', method: 'eth_sendTransaction', params: ${params} } } }, location.origin)
            resolve({ hash, again: await again })
          })
          dispatchEvent(new Event('eip6963:requestProvider'))
        })`,
        'continue',
      )
      expect(outcome.shown.map((entry) => entry.request.wallet?.label)).toEqual(['Direct Wallet'])
      expect(outcome.received).toHaveLength(1)
    })
  })
})
