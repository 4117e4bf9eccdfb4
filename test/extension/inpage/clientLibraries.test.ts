/**
 * What a dapp sees when the user clicks Reject, through the client libraries dapps use (the real packages from npm):
 * each must report a user rejection, not a generic failure, or the dapp shows "something went wrong" instead of
 * "you cancelled". ethers v5 only says ACTION_REJECTED when the message matches /user denied/i, which is why
 * Preflight's 4001 message says "user denied". A refusal of Preflight's must not be routed around either: viem (so
 * wagmi) resends a transaction refused with invalid params as wallet_sendTransaction.
 */
import './support/pageGlobals.ts'
import { connect, createConfig, injected, sendTransaction } from '@wagmi/core'
import { providers as ethers5Providers } from 'ethers5'
import { BrowserProvider } from 'ethers6'
import { createWalletClient, custom, http, parseEther, UserRejectedRequestError } from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { Web3 } from 'web3'
import type { Gate } from '../../../src/extension/inpage/gate.ts'
import { createPatcher } from '../../../src/extension/inpage/patchProvider.ts'
import { type Outcome, outcomeOf, USER_REJECTED } from '../../../src/extension/relay/protocol.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/**
 * A wallet hooked by Preflight's own patcher, with a gate that answers every signing request as the Reject button
 * does (outcomeOf('reject')), or with `answer`. Read-only calls are answered the way a devnet wallet would, so each
 * library gets as far as sending the transaction. `gated` lists the methods the gate was asked about.
 */
function rejectingWallet(answer: (params: unknown) => Outcome = (params) => outcomeOf('reject', params)) {
  const signingCalls: string[] = []
  const gated: string[] = []
  const answers: Record<string, unknown> = {
    eth_chainId: '0x7a69',
    net_version: '31337',
    eth_accounts: [ACCOUNT],
    eth_requestAccounts: [ACCOUNT],
    wallet_requestPermissions: [{ parentCapability: 'eth_accounts' }],
    eth_blockNumber: '0x1',
    eth_getTransactionCount: '0x0',
    eth_estimateGas: '0x5208',
    eth_gasPrice: '0x3b9aca00',
    eth_maxPriorityFeePerGas: '0x3b9aca00',
    eth_getBlockByNumber: { number: '0x1', baseFeePerGas: '0x3b9aca00', timestamp: '0x1', gasLimit: '0x1c9c380' },
    eth_call: '0x',
  }
  const wallet = {
    async request({ method }: { method: string; params?: unknown }): Promise<unknown> {
      if (method in answers) return answers[method]
      signingCalls.push(method)
      throw new Error(`the wallet received ${method}`)
    },
    on() {},
    removeListener() {},
  }
  const gate: Gate = (_held, method, params, done) => {
    gated.push(method)
    queueMicrotask(() => done(answer(params)))
  }
  createPatcher(gate, () => false).register(wallet)
  return { wallet, signingCalls, gated }
}

/** wagmi's config with its injected connector on `wallet` (as EIP-6963 discovery makes one), connected. */
async function wagmiOn(wallet: unknown) {
  const config = createConfig({
    chains: [foundry],
    connectors: [injected({ target: { id: 'test', name: 'Test', provider: wallet as never } })],
    multiInjectedProviderDiscovery: false,
    transports: { [foundry.id]: http() },
  })
  const [connector] = config.connectors
  if (!connector) throw new Error('wagmi made no connector')
  await connect(config, { connector })
  return config
}

/** Whether `error` is, or wraps, viem's UserRejectedRequestError. */
const isUserRejection = (error: unknown) =>
  (error as { walk: (predicate: (e: unknown) => boolean) => unknown }).walk(
    (inner) => inner instanceof UserRejectedRequestError,
  ) instanceof UserRejectedRequestError

const transaction = { from: ACCOUNT, to: TO, value: parseEther('1') }

/** The error a promise rejects with. */
async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('the library did not reject')
}

describe('a rejection in Preflight, as the client libraries report it', () => {
  it('is code 4001 with a message that says the user denied it', () => {
    expect(USER_REJECTED).toEqual({ code: 4001, message: 'User rejected the request: user denied it in Preflight.' })
  })

  it('ethers v6: ACTION_REJECTED', async () => {
    const { wallet, signingCalls } = rejectingWallet()
    const signer = await new BrowserProvider(wallet).getSigner(ACCOUNT)
    const error = (await caught(() => signer.sendTransaction({ to: TO, value: parseEther('1') }))) as { code?: string }
    expect(error.code).toBe('ACTION_REJECTED')
    expect(signingCalls).toEqual([])
  })

  it('ethers v5: ACTION_REJECTED (only when the message matches /user denied/i)', async () => {
    const { wallet, signingCalls } = rejectingWallet()
    const signer = new ethers5Providers.Web3Provider(wallet).getSigner(ACCOUNT)
    const error = (await caught(() => signer.sendTransaction({ to: TO, value: parseEther('1') }))) as { code?: string }
    expect(error.code).toBe('ACTION_REJECTED')
    const signature = (await caught(() => signer.signMessage('hello'))) as { code?: string }
    expect(signature.code).toBe('ACTION_REJECTED')
    expect(signingCalls).toEqual([])
  })

  it('viem: UserRejectedRequestError', async () => {
    const { wallet, signingCalls } = rejectingWallet()
    const client = createWalletClient({ chain: foundry, transport: custom(wallet) })
    const error = (await caught(() =>
      client.sendTransaction({ account: ACCOUNT, to: TO, value: parseEther('1') }),
    )) as {
      walk: (predicate: (e: unknown) => boolean) => unknown
    }
    expect(error.walk((inner) => inner instanceof UserRejectedRequestError)).toBeInstanceOf(UserRejectedRequestError)
    expect(signingCalls).toEqual([])
  })

  it('wagmi: UserRejectedRequestError, through its injected connector', async () => {
    const { wallet, signingCalls } = rejectingWallet()
    const config = await wagmiOn(wallet)
    expect(isUserRejection(await caught(() => sendTransaction(config, { to: TO, value: parseEther('1') })))).toBe(true)
    expect(signingCalls).toEqual([])
  })

  it('wagmi: a transaction Preflight refuses as invalid is refused again when viem resends it as wallet_sendTransaction', async () => {
    const refusal = { code: -32602, message: 'Preflight: this transaction holds EIP-7702 authorizations.' }
    const { wallet, signingCalls, gated } = rejectingWallet(() => ({ kind: 'error', error: refusal }))
    const config = await wagmiOn(wallet)
    const error = (await caught(() => sendTransaction(config, { to: TO, value: parseEther('1') }))) as Error
    expect(error.message).toContain(refusal.message)
    expect(gated).toEqual(['eth_sendTransaction', 'wallet_sendTransaction'])
    expect(signingCalls).toEqual([])
  })

  it('web3.js: the provider error with code 4001 and its message', async () => {
    const { wallet, signingCalls } = rejectingWallet()
    const web3 = new Web3(wallet)
    const error = (await caught(async () => {
      await web3.eth.sendTransaction({ ...transaction, gas: 21_000n, gasPrice: 1_000_000_000n })
    })) as {
      code?: number
      message?: string
      cause?: { code?: number; message?: string }
    }
    const reported = error.code === 4001 ? error : error.cause
    expect(reported?.code).toBe(4001)
    expect(reported?.message).toBe(USER_REJECTED.message)
    expect(signingCalls).toEqual([])
  })
})
