/**
 * What the confirmation window says for real scans: the engine on the devnet scans the demo dapp's own requests, and
 * the window's view model must turn them into the words a person reads.
 */
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseEther,
  toHex,
  type WalletClient,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveErc20,
  cowOrderPayingAnother,
  execSafeTransaction,
  handOverVault,
  permit2Single,
  ROUTER_ADDRESS,
  safeTransfer,
  sendEth,
  setApprovalForAll,
  type TxRequest,
  transferErc20,
  unlimitedPermit,
} from '../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import {
  COW_SETTLEMENT_ADDRESS,
  forwardRequestTypedData,
  PERMIT2_ADDRESS,
  safeMessageTypedData,
  safeTxTypedData,
  seaportOrder,
  type TypedData,
} from '../../src/devnet/eip712.ts'
import { fixtureArtifact } from '../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { addOwnerProposal, hiddenDelegatecallBatchProposal } from '../../src/devnet/safeProposals.ts'
import { scanMessage, scanTransactions } from '../../src/engine/index.ts'
import type { PendingRequest, ScanState } from '../../src/extension/shared/pending.ts'
import { confirmView, noChangesText } from '../../src/extension/ui/lib/confirmView.ts'
import { safeTakeoverWords } from '../../src/extension/ui/lib/controlView.ts'
import { shortAddress } from '../../src/extension/ui/lib/format.ts'
import { dollarTotals } from '../../src/extension/ui/lib/stateChangeView.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { buyWithFeeRouter, launchTaxedToken } from '../support/taxedTokens.ts'

const ORIGIN = 'http://localhost:5173'
const NOW = 1_900_000_000
/** Seaport 1.6's address on every chain. */

describe('the confirmation view of real scans', () => {
  let devnet: Devnet
  let me: Address

  beforeAll(async () => {
    devnet = await startTestDevnet()
    me = devnet.fixtures.accounts[0]?.address as Address
  })
  afterAll(() => devnet?.stop())

  const pending = (method: PendingRequest['method'], account: Address, scan: ScanState): PendingRequest => ({
    id: 'test',
    origin: ORIGIN,
    tabId: 1,
    frameId: 0,
    chainId: devnet.fixtures.chainId,
    account,
    method,
    params: [],
    createdAt: 0,
    scan,
  })

  async function viewOfTransaction(tx: TxRequest) {
    const outcome = await scanTransactions(
      { txObjects: [tx], userAccount: tx.from, metadata: { origin: ORIGIN } },
      { rpcUrl: devnet.fixtures.rpcUrl, chainId: devnet.fixtures.chainId, now: () => NOW },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    return confirmView(pending('eth_sendTransaction', tx.from, { status: 'DONE', kind: 'transactions', ...outcome }))
  }

  async function viewOfMessage(signer: Address, data: TypedData) {
    const outcome = await scanMessage(
      { message: { kind: 'SIGN_TYPED_DATA', data }, userAccount: signer, metadata: { origin: ORIGIN } },
      { rpcUrl: devnet.fixtures.rpcUrl, chainId: devnet.fixtures.chainId, now: () => NOW },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    return confirmView(pending('eth_signTypedData_v4', signer, { status: 'DONE', kind: 'message', ...outcome }))
  }

  it('shows sending 1 ETH as −1 ETH for the user, first, and +1 ETH for the recipient', async () => {
    const view = await viewOfTransaction(sendEth(devnet.fixtures, me))
    expect(view.action).toBe('NONE')
    expect(view.groups.map((group) => [group.label, group.rows.map((row) => row.text)])).toEqual([
      ['You', ['−1 ETH']],
      ['Other account', ['+1 ETH']],
    ])
    expect(view.groups[0]?.rows[0]?.party?.label).toBe('to')
    // The devnet's ETH/USD feed says $3,000, read in the same simulation.
    expect(view.groups[0]?.rows[0]?.usd).toBe('$3,000.00')
    expect(dollarTotals(view.groups[0]?.rows ?? [])).toEqual({
      send: 3000,
      receive: 0,
      unpricedSend: 0,
      unpricedReceive: 0,
    })
    expect(dollarTotals(view.groups[1]?.rows ?? [])).toEqual({
      send: 0,
      receive: 3000,
      unpricedSend: 0,
      unpricedReceive: 0,
    })
  })

  it('shows an ERC-20 transfer with the token decimals and symbol, and the decoded call', async () => {
    const view = await viewOfTransaction(transferErc20(devnet.fixtures, me))
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual(['−100 USDC'])
    expect(view.calls.map((call) => call.functionName)).toEqual(['transfer'])
  })

  it('words an unlimited approval as "Allow … to spend unlimited USDC"', async () => {
    const view = await viewOfTransaction(approveErc20(devnet.fixtures, me))
    expect(view.groups[0]?.rows.map((row) => [row.text, row.direction, row.canTake])).toEqual([
      [
        `Allow ${shortAddress(PERMIT2_ADDRESS)} to spend unlimited USDC`,
        'approval',
        'can take now: 10,000 USDC ($10,000.00)',
      ],
    ])
  })

  it('words setApprovalForAll as moving all the collection', async () => {
    const operator = devnet.fixtures.accounts[4]?.address as Address
    const view = await viewOfTransaction(setApprovalForAll(devnet.fixtures, me))
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual([
      `Allow ${shortAddress(operator)} to move all your ${devnet.fixtures.erc721.name}`,
    ])
    expect(view.groups[0]?.rows[0]?.canTake).toBe(`can take now: 3 ${devnet.fixtures.erc721.name}`)
  })

  it('labels the Safe an owner executes a transaction for, and lists it before other accounts', async () => {
    const { fixtures } = devnet
    const safeTx = safeTransfer(fixtures, 0n)
    const typed = safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTx) as Parameters<
      WalletClient['signTypedData']
    >[0]
    const owners = fixtures.safe.owners.slice(0, 2)
    const wallet = createWalletClient({ transport: http(fixtures.rpcUrl) })
    const signatures = await Promise.all(
      owners.map(async (owner) => ({ owner, signature: await wallet.signTypedData({ ...typed, account: owner }) })),
    )
    const view = await viewOfTransaction(execSafeTransaction(fixtures, me, safeTx, signatures))
    expect(view.groups.map((group) => [group.label, group.rows.map((row) => row.text)])).toEqual([
      ['Safe', ['−1 ETH']],
      ['Other account', ['+1 ETH']],
    ])
  })

  it('shows an unlimited EIP-2612 permit as a signature permit with its expiry, and its warning', async () => {
    const view = await viewOfMessage(me, unlimitedPermit(devnet.fixtures, me, 0n, NOW))
    expect(view.action).toBe('WARN')
    expect(view.warnings.map((warning) => warning.kind)).toContain('PERMIT_UNLIMITED_ALLOWANCE')
    const row = view.groups[0]?.rows[0]
    expect(row?.text).toBe(`Allow ${shortAddress(ROUTER_ADDRESS)} to spend unlimited USDC`)
    expect(row?.note).toMatch(/^Signature permit · valid until /)
    expect(row?.canTake).toBe('can take now: 10,000 USDC ($10,000.00)')
  })

  /** A Seaport offer or consideration item of `amount` (both ends of its auction). */
  const item = (itemType: string, token: string, id: string, amount: bigint, recipient?: Address) => ({
    itemType,
    token,
    identifierOrCriteria: id,
    startAmount: amount.toString(),
    endAmount: amount.toString(),
    ...(recipient ? { recipient } : {}),
  })

  it("shows a Seaport listing's NFT going to whoever fills the order, and the ETH coming from them", async () => {
    const listing = seaportOrder({
      offerer: me,
      chainId: '31337',
      offer: [item('2', devnet.fixtures.erc721.address, '1', 1n)],
      consideration: [item('0', zeroAddress, '0', parseEther('2'), me)],
    })
    const view = await viewOfMessage(me, listing)
    const rows = view.groups[0]?.rows ?? []
    expect(rows.map((row) => [row.text, row.party])).toEqual([
      [`−1 ${devnet.fixtures.erc721.name} #1`, { label: 'to', who: 'whoever fills the order' }],
      ['+2 ETH', { label: 'from', who: 'whoever fills the order' }],
    ])
    // Never the collection's own contract, which the message shape names as the asset's `contract`.
    expect(JSON.stringify(rows)).not.toContain(devnet.fixtures.erc721.address)
  })

  it('a listing paid in a token Preflight cannot value: the payment shown as signed, and the warning saying so', async () => {
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const attacker = devnet.fixtures.accounts[8] as { address: Address; privateKey: Hex }
    const million = parseEther('1000000')
    const hash = await createWalletClient({
      chain: foundry,
      transport: http(devnet.fixtures.rpcUrl),
      account: privateKeyToAccount(attacker.privateKey),
    }).deployContract({ abi, bytecode, args: ['ApeCoin 2', 'APE2', 18, [attacker.address], [million]] } as never)
    const client = createPublicClient({ chain: foundry, transport: http(devnet.fixtures.rpcUrl) })
    const ape2 = (await waitForReceipt(client, hash)).contractAddress as Address
    const listing = seaportOrder({
      offerer: me,
      chainId: '31337',
      offer: [item('2', devnet.fixtures.erc721.address, '1', 1n)],
      consideration: [item('1', ape2, '0', million, me)],
    })
    const view = await viewOfMessage(me, listing)
    expect(view.action).toBe('WARN')
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual([
      `−1 ${devnet.fixtures.erc721.name} #1`,
      '+1,000,000 APE2',
    ])
    expect(view.warnings.map((warning) => [warning.severity, warning.message])).toEqual([
      [
        'WARNING',
        `This order pays you only in 1,000,000 APE2 (${shortAddress(ape2).toLowerCase()}). Preflight cannot ` +
          'establish this payment is worth anything: it has no price Preflight could read and is on no token list. ' +
          'Scammers pay in tokens they minted themselves, under any name and in any amount. Do not sign unless you ' +
          'know the token you are paid in and have checked its address.',
      ],
    ])
  })

  it('shows a CoW swap order with its limit in words, and without the payment when it pays another address', async () => {
    const paysAnother = cowOrderPayingAnother(devnet.fixtures, NOW)
    const honest = { ...paysAnother, message: { ...paysAnother.message, receiver: zeroAddress } }
    const view = await viewOfMessage(me, honest)
    expect(view.action).toBe('NONE')
    expect(view.groups[0]?.rows.map((row) => [row.text, row.note, row.party])).toEqual([
      ['−1,000 USDC', null, { label: 'to', who: 'whoever fills the order' }],
      ['+0.33 WETH', 'At least this much: the order pays no less', { label: 'from', who: 'whoever fills the order' }],
    ])
    const redirected = await viewOfMessage(me, paysAnother)
    expect(redirected.action).toBe('WARN')
    expect(redirected.warnings.map((warning) => warning.kind)).toContain('TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(redirected.groups[0]?.rows.map((row) => row.text)).toEqual(['−1,000 USDC'])
  })

  it('an account pre-signing a CoW order by its ID: the warning, and no "no asset changes" that reads as harmless', async () => {
    const uid = concat([keccak256(toHex('an order kept off chain')), me, toHex(1_900_000_000, { size: 4 })])
    const data = encodeFunctionData({
      abi: parseAbi(['function setPreSignature(bytes orderUid, bool signed)']),
      functionName: 'setPreSignature',
      args: [uid, true],
    })
    const view = await viewOfTransaction({ from: me, to: COW_SETTLEMENT_ADDRESS, data })
    expect(view.warnings.map((warning) => warning.kind)).toEqual(['RELIABLE_SIMULATION_NOT_POSSIBLE'])
    expect(view.groups).toEqual([])
    expect(noChangesText(view)).toBe(
      'Nothing moves in this transaction itself. What it signs can, later: see the warning above.',
    )
    // A plain transfer keeps the ordinary wording.
    expect(noChangesText(await viewOfTransaction(sendEth(devnet.fixtures, me)))).toBeUndefined()
  })

  it('a raw hash signed as a message: the warning, and no "no asset changes" that reads as harmless', async () => {
    // What Safe's protocol-kit sends when an owner signs with eth_sign: personal_sign of the bare safeTxHash.
    const outcome = await scanMessage(
      {
        message: { kind: 'PERSONAL_SIGN', rawMessage: keccak256(toHex('a Safe transaction')) },
        userAccount: me,
        metadata: { origin: ORIGIN },
      },
      { rpcUrl: devnet.fixtures.rpcUrl, chainId: devnet.fixtures.chainId, now: () => NOW },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    const view = confirmView(pending('personal_sign', me, { status: 'DONE', kind: 'message', ...outcome }))
    expect(view.action).toBe('BLOCK')
    expect(view.warnings.map((warning) => warning.kind)).toEqual(['ETH_SIGN_TX_HASH'])
    expect(view.groups).toEqual([])
    expect(noChangesText(view)).toBe(
      'Signing moves no assets by itself. What the hash stands for can, and it cannot be read here: see the warning above.',
    )
  })

  it('an owner handing over a contract: the warning, and no "no asset changes" that reads as harmless', async () => {
    const view = await viewOfTransaction(handOverVault(devnet.fixtures, me))
    expect(view.action).toBe('WARN')
    expect(view.warnings.map((warning) => warning.kind)).toEqual(['SET_OWNER_AUTHORITY'])
    expect(view.warnings[0]?.message).toContain('This hands ownership of')
    expect(view.groups).toEqual([])
    expect(noChangesText(view)).toBe(
      'Nothing moves in this transaction itself. It changes who controls a contract: see the warning above.',
    )
  })

  it('a buy of a token that cannot be sold back: the token received, and the warning saying so', async () => {
    const maker = devnet.fixtures.accounts[5]?.address as Address
    const honeypot = await launchTaxedToken(devnet.fixtures, maker, 'HONEY', { sellsRefused: true })
    const view = await viewOfTransaction(buyWithFeeRouter(devnet.fixtures, me, honeypot.address, parseEther('1')))
    expect(view.action).toBe('WARN')
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual([
      '−1 ETH',
      expect.stringMatching(/^\+~?[\d,.]+ HONEY$/),
    ])
    expect(view.warnings.map((warning) => [warning.kind, warning.severity, warning.message])).toEqual([
      [
        'TOKEN_CANNOT_BE_SOLD',
        'WARNING',
        `You may not be able to sell HONEY (${shortAddress(honeypot.address).toLowerCase()}): selling it back to the ` +
          `pool it came from (${shortAddress(honeypot.pair).toLowerCase()}) fails in the simulation.`,
      ],
    ])
  })

  it('shows a Permit2 PermitSingle for the maximum uint160 as unlimited', async () => {
    const view = await viewOfMessage(me, permit2Single(devnet.fixtures, NOW))
    expect(view.action).toBe('WARN')
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual([
      `Allow ${shortAddress(ROUTER_ADDRESS)} to spend unlimited USDC`,
    ])
  })

  it("shows a relayed request's changes under the account that sends it, when that is not the signer", async () => {
    const { fixtures } = devnet
    const sender = fixtures.accounts[0]?.address as Address
    const signer = fixtures.accounts[1]?.address as Address
    const recipient = fixtures.accounts[2]?.address as Address
    const transfer = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 amount)']),
      functionName: 'transfer',
      args: [recipient, 5_000_000n],
    })
    const forwardRequest = forwardRequestTypedData(fixtures.chainId, fixtures.safeContracts.multiSend, {
      from: sender,
      to: fixtures.erc20.address,
      data: transfer,
    })
    const view = await viewOfMessage(signer, forwardRequest)
    expect(
      view.groups.map((group) => [group.label, group.account.toLowerCase(), group.rows.map((row) => row.text)]),
    ).toEqual([['Account', sender.toLowerCase(), ['−5 USDC']]])
    const own = await viewOfMessage(sender, forwardRequest)
    expect(own.groups.map((group) => [group.label, group.account.toLowerCase()])).toEqual([
      ['You', sender.toLowerCase()],
    ])
  })

  it("shows a Safe transaction message from the Safe's side, with its nonce and hashes", async () => {
    const { fixtures } = devnet
    const view = await viewOfMessage(
      me,
      safeTxTypedData(fixtures.chainId, fixtures.safe.address, safeTransfer(fixtures, 0n)),
    )
    expect(view.groups.map((group) => [group.label, group.account.toLowerCase()])).toEqual([
      ['Safe', fixtures.safe.address.toLowerCase()],
    ])
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual(['−1 ETH'])
    expect(view.multisig).toMatchObject({ threshold: 2, currentNonce: '0', messageNonce: '0' })
    expect(view.multisig?.safeTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(view.message?.fields.find((field) => field.name === 'value')?.value).toBe(parseEther('1').toString())
  })
  it('shows a Safe message as what the Safe signs, with its hashes and no asset changes', async () => {
    const { fixtures } = devnet
    const hash = keccak256(toHex('the message a dapp asked the Safe to sign'))
    const view = await viewOfMessage(me, safeMessageTypedData(fixtures.chainId, fixtures.safe.address, hash))
    expect(view.action).toBe('WARN')
    expect(view.warnings.map((warning) => warning.kind)).toEqual(['MULTISIG_BLIND_SIGNATURE'])
    expect(view.safeMessage).toMatchObject({ message: hash, text: null, threshold: 2 })
    expect(view.safeMessage?.safeMessageHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(view.multisig).toBeNull()
    expect(view.groups).toEqual([])
  })

  it('leads a Safe takeover with what changes in control, judged CRITICAL, apart from the asset changes', async () => {
    const { fixtures } = devnet
    const proposal = hiddenDelegatecallBatchProposal(fixtures, 0n)
    const view = await viewOfMessage(me, safeTxTypedData(fixtures.chainId, fixtures.safe.address, proposal))
    expect(view.action).toBe('BLOCK')
    expect(view.control).toEqual([
      {
        safe: fixtures.safe.address.toLowerCase(),
        field: 'singleton',
        label: 'Singleton',
        text: `Safe 1.4.1 (${shortAddress(fixtures.safeContracts.singleton).toLowerCase()}) → ${shortAddress(fixtures.safeAttacks.singleton).toLowerCase()}`,
        severity: 'CRITICAL',
      },
    ])
    expect(view.groups[0]?.rows.map((row) => row.text)).toEqual(['−1 ETH'])
    expect(safeTakeoverWords(view.control)).toBe(
      'It would change who controls the Safe in a way Safe’s own contracts do not: see what changes in control below.',
    )
  })

  it('spells out an owner and threshold change in the Safe panel, CRITICAL when the new owner alone controls it', async () => {
    const { fixtures } = devnet
    const proposal = addOwnerProposal(fixtures, 0n)
    const view = await viewOfMessage(me, safeTxTypedData(fixtures.chainId, fixtures.safe.address, proposal))
    expect(view.action).toBe('BLOCK')
    expect(view.control.map((change) => [change.label, change.text, change.severity])).toEqual([
      ['Owners', `adds ${shortAddress(fixtures.drainer.attacker).toLowerCase()} (3 → 4 owners)`, 'CRITICAL'],
      ['Threshold', '2 → 1 (any single owner then controls the Safe)', 'CRITICAL'],
    ])
    expect(view.groups).toEqual([])
    // Safe's own addOwnerWithThreshold makes this change: the banner must not say its contracts would not.
    expect(safeTakeoverWords(view.control)).toBe(
      'It would change who controls the Safe: accounts that are not owners today could run it on their own. See below.',
    )
  })
})
