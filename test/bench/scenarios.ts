/** The benchmark's fixed scenarios on the devnet fixtures: scan requests for the engine and the same calls for viem. */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  type Hex,
  maxUint160,
  maxUint256,
  numberToHex,
  pad,
  parseAbi,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem'
import { cowOrderPayingAnother, safeAbi, safePermitHash, type TxRequest } from '../../src/devnet/dapp/requests.ts'
import { v2SwapEthForTokens, v3SwapEthForUsdc } from '../../src/devnet/dapp/uniswap.ts'
import {
  eip2612Permit,
  permit2PermitSingle,
  plainSafeTx,
  safeMessageTypedData,
  safeTxTypedData,
  type TypedData,
} from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { addOwnerProposal, takeoverProposal, upgradeProxyProposal } from '../../src/devnet/safeProposals.ts'
import {
  NATIVE_ASSET_ADDRESS,
  type ScanMessageRequest,
  type ScanTransactionsRequest,
  type ScanTransactionsResponse,
} from '../../src/engine/index.ts'

const drainerAbi = parseAbi(['function claim() payable', 'function claimRewards(address token) payable'])

/** Safe v1.4.1 keeps the threshold in storage slot 4. */
const SAFE_THRESHOLD_SLOT = pad(numberToHex(4))

/** The same calls for viem's simulateCalls, with what it needs to simulate a Safe transaction without signatures. */
export type ViemCalls = {
  account: Address
  calls: { to: Address; data?: Hex; value?: bigint }[]
  stateOverrides?: { address: Address; stateDiff?: { slot: Hex; value: Hex }[] }[]
}

export type TransactionScenario = {
  kind: 'transactions'
  name: string
  request: ScanTransactionsRequest
  viem: ViemCalls
  /** Most sequential RPC round trips allowed by the targets (issue 3 §9). */
  maxRoundTrips: number
  /** Assets (NATIVE_ASSET_ADDRESS for ETH) whose transfers of the user must carry a price, or the run is an error. */
  priced?: Address[]
}

export type MessageScenario = {
  kind: 'message'
  name: string
  /** The request for one run; `run` lets a cold-cache scenario name a token never scanned before. */
  request: (run: number) => ScanMessageRequest
  maxRoundTrips: number
  minRoundTrips: number
}

export type Scenario = TransactionScenario | MessageScenario

const origin = { origin: 'https://app.example.org' }

/** Builds the scenario set; `coldTokens` are fresh permit tokens, one per cold-cache run. */
export function buildScenarios(fixtures: Fixtures, coldTokens: Address[]): Scenario[] {
  const [user, signer] = fixtures.accounts.map((account) => account.address) as [Address, Address]
  const recipient = fixtures.accounts[5]?.address as Address
  const safe = fixtures.safe.address
  const usdc = fixtures.erc20.address

  const single = (name: string, to: Address, data: Hex | undefined, value: bigint, maxRoundTrips: number) =>
    transactionScenario(name, user, [{ to, data, value }], maxRoundTrips)

  const safeExec = (name: string, to: Address, value: bigint, data: Hex, operation = 0): TransactionScenario => {
    const execute = (signatures: Hex) =>
      encodeFunctionData({
        abi: safeAbi,
        functionName: 'execTransaction',
        args: [to, value, data, operation, 0n, 0n, 0n, zeroAddress, zeroAddress, signatures],
      })
    // The owner's pre-validated signature: r = owner, s = 0, v = 1 (what the engine's preset substitutes).
    const prevalidated = `${pad(signer)}${'0'.repeat(64)}01` as Hex
    return {
      kind: 'transactions',
      name,
      maxRoundTrips: 1,
      request: {
        txObjects: [{ from: signer, to: safe, data: execute('0x'), value: '0' }],
        userAccount: safe,
        metadata: origin,
        simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: safe }] },
      },
      viem: {
        account: signer,
        calls: [{ to: safe, data: execute(prevalidated) }],
        stateOverrides: [{ address: safe, stateDiff: [{ slot: SAFE_THRESHOLD_SLOT, value: pad(numberToHex(1)) }] }],
      },
    }
  }

  return [
    single('native transfer', recipient, undefined, parseEther('1'), 1),
    single('ERC-20 transfer', usdc, transferData(recipient, parseUnits('100', 6)), 0n, 1),
    single(
      'ERC-20 unlimited approve',
      usdc,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [recipient, maxUint256] }),
      0n,
      2,
    ),
    single(
      'setApprovalForAll',
      fixtures.erc721.address,
      encodeFunctionData({ abi: erc721Abi, functionName: 'setApprovalForAll', args: [recipient, true] }),
      0n,
      2,
    ),
    safeExec('Safe exec: native transfer', recipient, parseEther('1'), '0x'),
    safeExec('Safe exec: ERC-20 transfer', usdc, 0n, transferData(recipient, parseUnits('1000', 6))),
    ((takeover) => safeExec('Safe exec: singleton swap (BLOCK)', takeover.to, 0n, takeover.data, takeover.operation))(
      takeoverProposal(fixtures, 0n),
    ),
    ((upgrade) => safeExec('Safe exec: proxy upgrade through its ProxyAdmin (WARN)', upgrade.to, 0n, upgrade.data))(
      upgradeProxyProposal(fixtures, 0n),
    ),
    single(
      'drainer claim()',
      fixtures.drainer.address,
      encodeFunctionData({ abi: drainerAbi, functionName: 'claim' }),
      parseEther('1'),
      2,
    ),
    transactionScenario(
      '2-tx bundle: approve + drain',
      user,
      [
        {
          to: usdc,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [fixtures.drainer.address, maxUint256],
          }),
          value: 0n,
        },
        {
          to: fixtures.drainer.address,
          data: encodeFunctionData({ abi: drainerAbi, functionName: 'claimRewards', args: [usdc] }),
          value: 0n,
        },
      ],
      2,
    ),
    pricedScenario('Uniswap V2 swap 1 ETH → USDC (priced)', v2SwapEthForTokens(fixtures, user, usdc, parseEther('1')), [
      NATIVE_ASSET_ADDRESS,
      usdc,
    ]),
    pricedScenario('Uniswap V3 swap 1 ETH → USDC (priced)', v3SwapEthForUsdc(fixtures, user, parseEther('1')), [
      NATIVE_ASSET_ADDRESS,
      usdc,
    ]),
    {
      kind: 'message',
      name: 'Safe multisig message',
      request: () => safeTxMessage(fixtures, signer, recipient),
      minRoundTrips: 1,
      maxRoundTrips: 1,
    },
    {
      kind: 'message',
      name: 'Safe message: add owner, threshold 1 (BLOCK)',
      request: () =>
        typedDataRequest(
          signer,
          safeTxTypedData(String(fixtures.chainId), fixtures.safe.address, addOwnerProposal(fixtures, 0n)),
        ),
      minRoundTrips: 1,
      maxRoundTrips: 1,
    },
    {
      kind: 'message',
      name: 'Safe message (EIP-1271) of a hash (WARN)',
      request: () => safeMessageRequest(fixtures, signer, safePermitHash(fixtures)),
      minRoundTrips: 1,
      maxRoundTrips: 1,
    },
    {
      kind: 'message',
      name: 'CoW swap order paying another address (WARN)',
      request: () => typedDataRequest(user, cowOrderPayingAnother(fixtures, Math.floor(Date.now() / 1000))),
      minRoundTrips: 1,
      maxRoundTrips: 1,
    },
    {
      kind: 'message',
      name: 'EIP-2612 permit (cold cache)',
      request: (run) => permitMessage(fixtures, user, coldTokens[run] ?? usdc, recipient),
      minRoundTrips: 0,
      maxRoundTrips: 2,
    },
    {
      kind: 'message',
      name: 'EIP-2612 permit (warm cache)',
      request: () => permitMessage(fixtures, user, usdc, recipient),
      minRoundTrips: 0,
      maxRoundTrips: 1,
    },
    {
      kind: 'message',
      name: 'Permit2 PermitSingle',
      request: () => permit2Message(fixtures, user, usdc, recipient),
      minRoundTrips: 0,
      maxRoundTrips: 1,
    },
  ]
}

function transferData(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
}

function transactionScenario(
  name: string,
  from: Address,
  calls: { to: Address; data?: Hex; value: bigint }[],
  maxRoundTrips: number,
): TransactionScenario {
  return {
    kind: 'transactions',
    name,
    maxRoundTrips,
    request: {
      txObjects: calls.map((call) => ({ from, to: call.to, data: call.data ?? '0x', value: call.value.toString() })),
      userAccount: from,
      metadata: origin,
    },
    viem: { account: from, calls: calls.map((call) => ({ to: call.to, data: call.data, value: call.value })) },
  }
}

/**
 * One transaction the demo dapp sends, as a scenario of known tokens: one round trip, and every asset in `priced`
 * must come back with its dollar price (prices are read in the same call, so a swap of known tokens costs no more).
 */
function pricedScenario(name: string, tx: TxRequest, priced: Address[]): TransactionScenario {
  const call = { to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0) }
  return { ...transactionScenario(name, tx.from, [call], 1), priced }
}

/** The assets of `priced` that the response leaves without a price among the user's transfers. */
export function unpricedAssets(scenario: TransactionScenario, response: ScanTransactionsResponse): Address[] {
  const user = scenario.request.userAccount.toLowerCase() as Address
  const changes = response.simulationResults.aggregated.expectedStateChanges[user] ?? []
  const pricedNow = new Set(
    changes.flatMap(({ rawInfo }) =>
      (rawInfo.kind === 'NATIVE_ASSET_TRANSFER' || rawInfo.kind === 'ERC20_TRANSFER') && rawInfo.data.asset.price
        ? [rawInfo.data.asset.address.toLowerCase()]
        : [],
    ),
  )
  return (scenario.priced ?? []).filter((asset) => !pricedNow.has(asset.toLowerCase()))
}

/** A typed-data scan request from `userAccount`, as the benchmark's dapp sends it. */
function typedDataRequest(userAccount: Address, data: TypedData): ScanMessageRequest {
  return { userAccount, metadata: origin, message: { kind: 'SIGN_TYPED_DATA', data } }
}

/** A Safe transaction message (seed §2.3) for the Safe fixture: 1 ETH to `recipient`, nonce 0, for `signer`. */
export function safeTxMessage(fixtures: Fixtures, signer: Address, recipient: Address): ScanMessageRequest {
  const tx = plainSafeTx(recipient, parseEther('1'), 0n)
  return typedDataRequest(signer, safeTxTypedData(String(fixtures.chainId), fixtures.safe.address, tx))
}

/** A Safe message (EIP-1271) the Safe's owner `signer` is asked to sign: the Safe signs the bare hash `hash`. */
export function safeMessageRequest(fixtures: Fixtures, signer: Address, hash: Hex): ScanMessageRequest {
  return typedDataRequest(signer, safeMessageTypedData(String(fixtures.chainId), fixtures.safe.address, hash))
}

/** An EIP-2612 permit of an unlimited allowance on `token` (a DevUSD deployment) to `spender`. */
export function permitMessage(
  fixtures: Fixtures,
  owner: Address,
  token: Address,
  spender: Address,
): ScanMessageRequest {
  const permit = { owner, spender, value: maxUint256, nonce: 0n, deadline: 4102444800 }
  return typedDataRequest(
    owner,
    eip2612Permit({ name: fixtures.erc20.name, chainId: String(fixtures.chainId), token, ...permit }),
  )
}

/** The seed's Permit2 PermitSingle: an unlimited (max uint160) allowance on `token` to `spender`. */
export function permit2Message(
  fixtures: Fixtures,
  owner: Address,
  token: Address,
  spender: Address,
): ScanMessageRequest {
  const allowance = { token, amount: maxUint160, expiration: 1900000000, spender, sigDeadline: 1900000000 }
  return typedDataRequest(owner, permit2PermitSingle({ chainId: String(fixtures.chainId), ...allowance }))
}
