/**
 * Calls signed for a relayer to submit (an ERC-2771 ForwardRequest, a native MetaTransaction): simulated as the
 * signer's own transaction to the target. Then, reality as the oracle: the same call made on the devnet leaves the
 * allowance and balances the scan showed.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { forwardRequestTypedData, NAMED_DOMAIN_FIELDS } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const fx = devnetRolledBackPerTest()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const validate = messageResponseValidator()
const user = () => fx().accounts[0]?.address as Address
const taker = () => fx().accounts[9]?.address as Address
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()

/** An OpenZeppelin MinimalForwarder request: the forwarder calls `to` with `data`, in `from`'s name. */
const forwardRequest = (to: Address, data: Hex, forwarder: Address) =>
  forwardRequestTypedData(fx().chainId, forwarder, { from: user(), to, data })

/** A native meta-transaction: the token itself runs `functionSignature` as `from`. */
const metaTransaction = (token: Address, functionSignature: Hex) => ({
  types: {
    EIP712Domain: NAMED_DOMAIN_FIELDS,
    MetaTransaction: [
      { name: 'nonce', type: 'uint256' },
      { name: 'from', type: 'address' },
      { name: 'functionSignature', type: 'bytes' },
    ],
  },
  primaryType: 'MetaTransaction',
  domain: { name: 'USD Coin', version: '1', chainId: fx().chainId, verifyingContract: token },
  message: { nonce: '0', from: user(), functionSignature },
})

const request = (data: unknown) => ({
  message: { kind: 'SIGN_TYPED_DATA', data },
  userAccount: user(),
  metadata: { origin: 'https://gasless.example' },
})

describe('calls signed for a relayer', () => {
  it('a ForwardRequest that approves a person for all USDC → the approval shown, APPROVAL_TO_EOA, WARN', async () => {
    const usdc = fx().erc20.address
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [taker(), maxUint256] })
    const { response } = await scanOk(request(forwardRequest(usdc, approve, fx().safeContracts.multiSend)), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((warning) => warning.kind)).toContain('APPROVAL_TO_EOA')
    const [change] = response.simulationResults.expectedStateChanges
    expect(change?.humanReadableDiff).toBe(`Approve ${short(taker())} to spend unlimited USDC`)

    // The same call, made by the user: the allowance the scan showed.
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[0]?.privateKey as Hex),
    })
    const hash = await wallet.sendTransaction({ to: usdc, data: approve })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    const allowance = await chain().readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [user(), taker()],
    })
    expect(change?.rawInfo).toMatchObject({ data: { amount: { after: allowance.toString() } } })
  })

  it('a MetaTransaction that transfers USDC → the transfer shown, as the same transaction would', async () => {
    const usdc = fx().erc20.address
    const amount = parseUnits('4000', 6)
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [taker(), amount] })
    const { response } = await scanOk(request(metaTransaction(usdc, transfer)), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 4,000 USDC',
    ])
    expect(response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC20_TRANSFER',
      data: { counterparty: { address: taker().toLowerCase() } },
    })
  })

  it('a ForwardRequest whose call fails says so instead of showing nothing', async () => {
    const usdc = fx().erc20.address
    const tooMuch = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [taker(), maxUint256] })
    const { response } = await scanOk(request(forwardRequest(usdc, tooMuch, fx().safeContracts.multiSend)), fx().rpcUrl)
    expect(response.simulationResults.error).toMatchObject({ kind: 'SIMULATION_FAILED' })
    expect(response.simulationResults.error?.humanReadableError).toContain('The call this signature authorizes fails')
  })
})
