/** The demo dapp: a dev wallet as account 0 and one button per kind of request Preflight should catch. */
import { type Address, createPublicClient, custom, erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import type { SafeTx } from '../../engine/index.ts'
import { safeMessageTypedData, safeTxTypedData, type TypedData } from '../eip712.ts'
import type { Fixtures } from '../fixtures.ts'
import { waitForReceipt } from '../receipt.ts'
import { SAFE_SCENARIOS } from '../safeProposals.ts'
import { announceDevWallet, createDevWallet } from './devWallet.ts'
import {
  approveErc20,
  claimRewards,
  cowOrderPayingAnother,
  execSafeTransaction,
  handOverVault,
  permit2Single,
  permitNoncesAbi,
  safeAbi,
  safePermitHash,
  safeTransfer,
  sendEth,
  setApprovalForAll,
  type TxRequest,
  transferErc20,
  unlimitedPermit,
} from './requests.ts'
import { v2AddLiquidityEth, v2RemoveLiquidityEth, v2SwapEthForTokens, v3SwapEthForUsdc } from './uniswap.ts'

type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> }

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const resultBox = byId<HTMLOutputElement>('result')
const logList = byId<HTMLOListElement>('log')

/** Whatever window.ethereum is at call time: the dev wallet, as patched by Preflight's hook when it is installed. */
const wallet = () => (window as unknown as { ethereum: Provider }).ethereum

function log(text: string) {
  const item = document.createElement('li')
  item.textContent = text
  logList.prepend(item)
}

function show(step: string, status: 'ok' | 'error' | 'waiting', text: string) {
  resultBox.dataset.status = status
  resultBox.dataset.step = step
  resultBox.textContent = text
  log(text)
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Reads and receipts go through the same provider, as a dapp's would. */
const chain = createPublicClient({ transport: custom({ request: (args) => wallet().request(args) }) })

async function sendTransaction(tx: TxRequest): Promise<Hex> {
  const hash = (await wallet().request({ method: 'eth_sendTransaction', params: [tx] })) as Hex
  const receipt = await waitForReceipt(chain, hash, { intervalMs: 100, timeoutMs: 10_000 })
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  return hash
}

const signTypedData = (signer: Address, data: TypedData) =>
  wallet().request({ method: 'eth_signTypedData_v4', params: [signer, JSON.stringify(data)] }) as Promise<Hex>

const safeNonce = (fixtures: Fixtures) =>
  chain.readContract({ address: fixtures.safe.address, abi: safeAbi, functionName: 'nonce' })

async function safeTxForCurrentNonce(fixtures: Fixtures): Promise<SafeTx> {
  return safeTransfer(fixtures, await safeNonce(fixtures))
}

function actions(fixtures: Fixtures, me: Address): Record<string, () => Promise<string>> {
  const owners = fixtures.safe.owners
  const usdc = fixtures.erc20.address
  const pickedOwner = () => owners[Number(byId<HTMLSelectElement>('owner').value)] ?? me
  const tx = async (request: TxRequest) => `tx ${await sendTransaction(request)}`
  /** The chosen owner signs a scenario's proposal at the Safe's current nonce. */
  const propose = async (build: (fixtures: Fixtures, nonce: bigint) => SafeTx) => {
    const proposal = build(fixtures, await safeNonce(fixtures))
    return `signature ${await signTypedData(pickedOwner(), safeTxTypedData(fixtures.chainId, fixtures.safe.address, proposal))}`
  }
  const proposals = Object.entries(SAFE_SCENARIOS).map(([id, { build }]) => [id, () => propose(build)] as const)
  return {
    ...Object.fromEntries(proposals),
    'send-eth': () => tx(sendEth(fixtures, me)),
    'transfer-erc20': () => tx(transferErc20(fixtures, me)),
    'approve-erc20': () => tx(approveErc20(fixtures, me)),
    'set-approval-for-all': () => tx(setApprovalForAll(fixtures, me)),
    'sign-permit': async () => {
      const nonce = await chain.readContract({
        address: fixtures.erc20.address,
        abi: permitNoncesAbi,
        functionName: 'nonces',
        args: [me],
      })
      return `signature ${await signTypedData(me, unlimitedPermit(fixtures, me, nonce, nowSeconds()))}`
    },
    'sign-permit2': async () => `signature ${await signTypedData(me, permit2Single(fixtures, nowSeconds()))}`,
    'hand-over-vault': () => tx(handOverVault(fixtures, me)),
    'cow-order': async () => `signature ${await signTypedData(me, cowOrderPayingAnother(fixtures, nowSeconds()))}`,
    'propose-safe-tx': async () => {
      const safeTx = await safeTxForCurrentNonce(fixtures)
      return `signature ${await signTypedData(pickedOwner(), safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTx))}`
    },
    'safe-message': async () => {
      const data = safeMessageTypedData(fixtures.chainId, fixtures.safe.address, safePermitHash(fixtures))
      return `signature ${await signTypedData(pickedOwner(), data)}`
    },
    'execute-safe-tx': async () => {
      const executor = pickedOwner()
      const cosigner = owners.find((owner) => owner !== executor) ?? executor
      const safeTx = await safeTxForCurrentNonce(fixtures)
      const signatures = []
      for (const owner of [executor, cosigner]) {
        const signature = await signTypedData(owner, safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTx))
        log(`execute-safe-tx: signed by ${owner}: ${signature}`)
        signatures.push({ owner, signature })
      }
      return tx(execSafeTransaction(fixtures, executor, safeTx, signatures))
    },
    'swap-v2': () => tx(v2SwapEthForTokens(fixtures, me, usdc, parseEther('1'))),
    'swap-v3': () => tx(v3SwapEthForUsdc(fixtures, me, parseEther('1'))),
    'approve-router-v2': () => tx(approveErc20(fixtures, me, fixtures.uniswapV2.router)),
    'add-liquidity-v2': () =>
      tx(v2AddLiquidityEth(fixtures, me, usdc, parseUnits('3000', fixtures.erc20.decimals), parseEther('1'))),
    'remove-liquidity-v2': async () => {
      const lp = await chain.readContract({
        address: fixtures.uniswapV2.pair,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [me],
      })
      return tx(v2RemoveLiquidityEth(fixtures, me, usdc, lp / 2n))
    },
    drainer: async () => {
      const approval = await sendTransaction(approveErc20(fixtures, me, fixtures.drainer.address))
      log(`drainer: approved the drainer for USDC in tx ${approval}`)
      return tx(claimRewards(fixtures, me))
    },
  }
}

function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const text = typeof message === 'string' ? message : String(error)
  return code === undefined ? `error: ${text}` : `error ${String(code)}: ${text}`
}

async function start() {
  const status = byId<HTMLParagraphElement>('status')
  let fixtures: Fixtures
  try {
    const response = await fetch('/fixtures.json')
    if (!response.ok) throw new Error(`GET /fixtures.json answered ${response.status}`)
    fixtures = (await response.json()) as Fixtures
  } catch (error) {
    status.textContent = `Could not load the devnet fixtures: ${describeError(error)}. Start the demo with npm start.`
    return
  }
  const me = fixtures.accounts[0]?.address as Address
  announceDevWallet(createDevWallet({ rpcUrl: fixtures.rpcUrl, account: me }))
  status.textContent = `Devnet Wallet as account 0 (${me}) on chain ${fixtures.chainId} via ${fixtures.rpcUrl}; Safe ${fixtures.safe.address} (${fixtures.safe.threshold} of ${fixtures.safe.owners.length}).`
  for (const [step, run] of Object.entries(actions(fixtures, me))) {
    const button = byId<HTMLButtonElement>(step)
    button.disabled = false
    button.addEventListener('click', async () => {
      show(step, 'waiting', `${step}: waiting for the wallet…`)
      try {
        show(step, 'ok', `${step}: ${await run()}`)
      } catch (error) {
        show(step, 'error', `${step}: ${describeError(error)}`)
      }
    })
  }
  document.documentElement.dataset.dappReady = 'true'
}

start()
