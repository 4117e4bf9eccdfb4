/**
 * CoW orders signed on chain (`setPreSignature`), how a Safe swaps: the devnet's 2-of-3 Safe pre-signs an order
 * known to the transaction only by its ID. The scan cannot show the order, and says so; reality is the oracle: once
 * the scanned proposal is executed, a solver settles the order, and the Safe's USDC pays whoever the order named.
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
  parseAbi,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { beforeEach, describe, expect, it } from 'vitest'
import { plainSafeTx, safeTxTypedData } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type SafeTx, scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { type CowOrder, type DevnetCow, deployCow } from '../../support/cow.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { ownersExecution } from '../../support/safeExecution.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const settlementAbi = parseAbi(['function setPreSignature(bytes orderUid, bool signed)'])
const nonceAbi = parseAbi(['function nonce() view returns (uint256)'])

describe('CoW orders pre-signed on chain', () => {
  const fx = devnetRolledBackPerTest()
  const validateMessage = messageResponseValidator()
  let cow: DevnetCow
  const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
  /** Dev account 7 sends what the owners signed: anyone can. */
  const send = async (to: Address, data: Hex) => {
    const relayer = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[7]?.privateKey as Hex),
    })
    const receipt = await waitForReceipt(chain(), await relayer.sendTransaction({ to, data }))
    expect(receipt.status).toBe('success')
  }
  const safeNonce = () => chain().readContract({ address: fx().safe.address, abi: nonceAbi, functionName: 'nonce' })
  const safeTx = async (to: Address, data: Hex): Promise<SafeTx> => plainSafeTx(to, 0n, await safeNonce(), data)
  const presign = (uid: Hex, signed = true) =>
    encodeFunctionData({ abi: settlementAbi, functionName: 'setPreSignature', args: [uid, signed] })
  const kinds = (warnings: Warning[]) => warnings.map((warning) => `${warning.severity} ${warning.kind}`)
  const balanceOf = (token: Address, account: Address) =>
    chain().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })

  /** The Safe sells 1,000 USDC for 0.33 WETH, paid to dev account 8. */
  const order = (): CowOrder => ({
    sellToken: fx().erc20.address,
    buyToken: fx().weth.address,
    receiver: fx().accounts[8]?.address as Address,
    sellAmount: 1_000_000_000n,
    buyAmount: 330_000_000_000_000_000n,
    validTo: 1_900_000_000,
    appData: `0x${'00'.repeat(32)}`,
    feeAmount: 0,
    kind: 'sell' as CowOrder['kind'],
    partiallyFillable: false,
  })

  beforeEach(async () => {
    cow = await deployCow(fx(), fx().accounts[9] as { address: Address; privateKey: Hex })
    // The Safe lets CoW's relayer take its USDC, as a Safe app's swap does first.
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [cow.vaultRelayer, maxUint256] })
    await send(fx().safe.address, await ownersExecution(fx(), await safeTx(fx().erc20.address, approve)))
  }, 60_000)

  it('a Safe proposal that pre-signs an order: WARN with its ID, and once executed a solver takes the USDC', async () => {
    const safe = fx().safe.address
    const uid = cow.uid(order(), safe)
    const proposal = await safeTx(cow.settlement, presign(uid))
    const { response } = await scanOk(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fx().chainId, safe, proposal) },
        userAccount: fx().accounts[0]?.address,
        metadata: { origin: 'https://app.safe.global' },
      },
      fx().rpcUrl,
    )
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(kinds(response.warnings)).toEqual(['WARNING MULTISIG_BLIND_SIGNATURE'])
    const [warning] = response.warnings
    expect(warning?.message).toContain(uid.toLowerCase())
    expect(warning?.message).toContain('2030-03-17 17:46:40 UTC')
    expect(warning?.data).toMatchObject({
      owner: safe.toLowerCase(),
      orderUid: uid.toLowerCase(),
      validTo: 1_900_000_000,
    })
    // Nothing moves when it is executed: the order is filled later, off this transaction.
    expect(response.simulationResults.expectedStateChanges).toEqual([])

    const execution = await ownersExecution(fx(), proposal)
    const sent = await scanTransactionsWithStats(
      {
        txObjects: [{ from: fx().accounts[7]?.address, to: safe, data: execution }],
        userAccount: safe,
        metadata: { origin: 'https://app.safe.global' },
      },
      { rpcUrl: fx().rpcUrl },
    )
    if (!sent.outcome.ok) throw new Error(JSON.stringify(sent.outcome.error))
    validateTransactionsResponse(sent.outcome.response)
    expect(kinds(sent.outcome.response.warnings)).toEqual(['WARNING MULTISIG_BLIND_SIGNATURE'])

    const receiver = fx().accounts[8]?.address as Address
    const before = {
      usdc: await balanceOf(fx().erc20.address, safe),
      weth: await balanceOf(fx().weth.address, receiver),
    }
    await send(safe, execution)
    await cow.settle(order(), { presignedBy: safe })
    expect(before.usdc - (await balanceOf(fx().erc20.address, safe))).toBe(1_000_000_000n)
    expect((await balanceOf(fx().weth.address, receiver)) - before.weth).toBe(330_000_000_000_000_000n)
  })

  it('an account pre-signing its own order: the same warning under the kind for what cannot be read', async () => {
    const user = fx().accounts[0] as { address: Address; privateKey: Hex }
    const uid = cow.uid(order(), user.address)
    const { outcome } = await scanTransactionsWithStats(
      {
        txObjects: [{ from: user.address, to: cow.settlement, data: presign(uid) }],
        userAccount: user.address,
        metadata: { origin: 'https://swap.cow.fi' },
      },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(kinds(outcome.response.warnings)).toEqual(['WARNING RELIABLE_SIMULATION_NOT_POSSIBLE'])
    expect(outcome.response.warnings[0]?.data).toMatchObject({ orderUid: uid.toLowerCase() })
  })

  it('withdrawing a pre-signature signs nothing, and warns of nothing', async () => {
    const safe = fx().safe.address
    const scan = async (data: Hex) => {
      const { outcome } = await scanTransactionsWithStats(
        {
          txObjects: [{ from: safe, to: cow.settlement, data }],
          userAccount: safe,
          metadata: { origin: 'https://app.safe.global' },
        },
        { rpcUrl: fx().rpcUrl },
      )
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
      return outcome.response
    }
    expect((await scan(presign(cow.uid(order(), safe), false))).warnings).toEqual([])
  })
})
