/**
 * Message scans (seed §1.3, §2.3, §2.5, §2.6, §2.8.2, §2.8.3): raw messages, Safe transaction messages simulated as
 * the wallet's execTransaction, token permits, Seaport orders and any other typed data — all on the transaction
 * scan's simulation, state changes and warnings.
 */
import { type Address, getAddress, isAddress, isAddressEqual, zeroAddress } from 'viem'
import {
  type EngineError,
  type MessageError,
  type MultisigContext,
  NATIVE_ASSET_ADDRESS,
  type Protocol,
  type ScanMessageResponse,
  type ScanOptions,
  type ScanOutcome,
  type StateChange,
  type Warning,
} from '../api/index.ts'
import {
  type AssetChange,
  computeAssetChanges,
  erc20Asset,
  nativeAsset,
  renderSafeChanges,
  renderStateChanges,
  type TransferChange,
} from '../assets/index.ts'
import {
  type AssetKnowledge,
  addressesInTypedData,
  authorizedTransfer,
  type BlurSignature,
  BOUND_WORDS,
  type Bound,
  decodeRawMessage,
  decodeTypedMessage,
  depositUpdateWarnings,
  farcasterTransferWarnings,
  findBlurSignature,
  findDeltaOrder,
  findDepositUpdate,
  findFarcasterTransfer,
  findHyperliquidControl,
  findHyperliquidSend,
  findLooksRareOrders,
  findNftPermit,
  findPolymarketOrder,
  findSafeMessage,
  findSafeTransaction,
  findSeaportOrders,
  findSignedCall,
  findSignedDeposits,
  findSwapOrder,
  findTokenPermits,
  findUserOperation,
  hasUnsupportedItems,
  hyperliquidControlWarnings,
  hyperliquidSendWarnings,
  initCall,
  isBlurSite,
  isNativeOutput,
  isTradeForNothing,
  multisigWarnings,
  type NftPermit,
  nftPermitApproval,
  type PermitContext,
  type PolymarketOrder,
  parseTypedData,
  permitReads,
  permitStateChange,
  permitWarnings,
  polymarketShareChanges,
  proceedsElsewhereWarning,
  rawMessageWarnings,
  readRawMessage,
  reorderedTextWarnings,
  type SafeMessage,
  type SafeTxMessage,
  type SeaportItem,
  type SeaportOrders,
  type SeaportTrade,
  type SignedCall,
  type SwapOrder,
  safeMessageContext,
  safeMessageWarnings,
  safeSignerWarnings,
  safeSimulationInput,
  seaportCriteriaChanges,
  seaportReads,
  seaportTransfers,
  signedDepositWarnings,
  signInOf,
  signInWarnings,
  swapOrderTrades,
  swapOrderWarnings,
  type TokenPermit,
  type TypedData,
  type UserOperation,
  unreadableWarning,
  unusualAddressWarnings,
  unvaluedPaymentWarnings,
  type WitnessOutput,
  type WitnessPayment,
  walletDisagreementWarnings,
  witnessOutputs,
  witnessPayments,
} from '../messages/index.ts'
import { assetPlan } from '../prices/index.ts'
import {
  actionFor,
  contractProtocol,
  counterfeitWarnings,
  imbalancedValueWarnings,
  knownProtocol,
  makeWarning,
  maliciousAddressWarnings,
  originWarnings,
  simulationWarnings,
  sortWarnings,
  stateWritingReadWarnings,
  uniqueWarnings,
} from '../risk/index.ts'
import { isSafeOwner } from '../safe/index.ts'
import {
  addStats,
  cachedTokenMetadata,
  codeSizeBefore,
  codeSizeRead,
  erc20BalanceRead,
  knownChainId,
  NO_TRAFFIC,
  nativeBalanceRead,
  type Read,
  type ReadResults,
  type RpcStats,
  type RunOutcome,
  readAccountCode,
  readKeys,
  runSimulation,
  type SimulationResult,
  type SimulationTx,
  tokenMetadata,
  tokenMetadataReads,
} from '../simulation/index.ts'
import { internalError } from './internalError.ts'
import { type MessageScanInput, parseMessageRequest } from './messageRequest.ts'
import { perTransactionResults } from './perTransaction.ts'
import { simulationPrices } from './pricing.ts'
import { newRequestId } from './requestId.ts'

type SimulationResults = ScanMessageResponse['simulationResults']

/** What one kind of message analysis contributes to the response. */
type Analysis = {
  warnings: Warning[]
  simulationResults: SimulationResults
}

type Scan = { ok: true; analysis: Analysis; stats: RpcStats } | { ok: false; error: EngineError; stats: RpcStats }

/** Scans a message request: the response, or an error value (a bad envelope names the field); never throws. */
export async function scanMessage(request: unknown, options: ScanOptions): Promise<ScanOutcome<ScanMessageResponse>> {
  return (await scanMessageWithStats(request, options)).outcome
}

/** Like scanMessage, plus how many sequential round trips and JSON-RPC requests the scan made (benchmarks). */
export async function scanMessageWithStats(
  request: unknown,
  options: ScanOptions,
): Promise<{ outcome: ScanOutcome<ScanMessageResponse>; stats: RpcStats }> {
  const parsed = parseMessageRequest(request)
  if (!parsed.ok) return { outcome: parsed, stats: NO_TRAFFIC }
  try {
    const scan = await analyse(parsed.value, options)
    if (!scan.ok) return { outcome: { ok: false, error: scan.error }, stats: scan.stats }
    const warnings = sortWarnings(uniqueWarnings([...originWarnings(parsed.value.origin), ...scan.analysis.warnings]))
    const response: ScanMessageResponse = {
      requestId: newRequestId(),
      action: actionFor(warnings),
      warnings,
      simulationResults: scan.analysis.simulationResults,
    }
    return { outcome: { ok: true, response }, stats: scan.stats }
  } catch (error) {
    // Node failures are values by now (RPC_ERROR); anything thrown here is a bug in Preflight.
    return { outcome: { ok: false, error: internalError(error) }, stats: NO_TRAFFIC }
  }
}

async function analyse(input: MessageScanInput, options: ScanOptions): Promise<Scan> {
  const { message } = input
  if (message.kind !== 'SIGN_TYPED_DATA') {
    const raw = readRawMessage(message.rawMessage)
    const signIn = signInOf(raw)
    const signInChecks = signIn ? signInWarnings(signIn, input.origin, input.userAccount) : []
    return done({
      warnings: [...rawMessageWarnings(raw), ...signInChecks],
      simulationResults: results([], decodeRawMessage(message.kind, raw)),
    })
  }
  const parsed = parseTypedData(message.data)
  if (!parsed.ok) {
    const why = `${parsed.error.field}: ${parsed.error.message}`
    const error: MessageError = { kind: 'INVALID_MESSAGE', humanReadableError: why }
    const warning = unreadableWarning(`It is malformed (${why}), and a wallet should refuse to sign it.`)
    return done({ warnings: [warning], simulationResults: { ...results([]), error } })
  }
  const typedData = parsed.typedData
  const scan = await analyseTypedData(typedData, message.data, input, options)
  if (!scan.ok) return scan
  const { simulationResults } = scan.analysis
  // A periphery deposit rides in a permit's witness as well as alone: judged whichever analysis read the message.
  const chainId = knownChainId(options.rpcUrl, options.chainId) ?? domainChainId(typedData)
  const deposits = findSignedDeposits(typedData)
  const warnings = [
    ...unusualAddressWarnings(typedData),
    ...reorderedTextWarnings(typedData),
    ...walletDisagreementWarnings(typedData),
    ...scan.analysis.warnings,
    ...deposits.flatMap((deposit) => signedDepositWarnings(deposit, input.userAccount, chainId)),
  ]
  if (simulationResults.error && UNREAD_ERRORS.has(simulationResults.error.kind)) {
    warnings.push(unreadableWarning(simulationResults.error.humanReadableError))
  }
  const protocol = simulationResults.protocol ?? verifyingContractProtocol(typedData, options)
  return done({ warnings, simulationResults: { ...simulationResults, protocol } }, scan.stats)
}

/** Errors that mean the scan could not tell what the message does: the person must hear it, as a warning. */
const UNREAD_ERRORS = new Set<MessageError['kind']>(['UNSUPPORTED_ORDER_TYPE', 'UNSUPPORTED_MESSAGE', 'UNKNOWN_ERROR'])

/**
 * Routes typed data to the analysis of its kind: Safe transaction, permits, Seaport, LooksRare, Polymarket or Blur
 * order, or anything else.
 * `payload` is the request's typed data as sent, for what rides beside the signed fields (a Blur order's tree).
 */
async function analyseTypedData(
  typedData: TypedData,
  payload: unknown,
  input: MessageScanInput,
  options: ScanOptions,
): Promise<Scan> {
  const safeTx = findSafeTransaction(typedData)
  if (safeTx) return scanSafeTransaction(typedData, safeTx, input, options)
  const safeMessage = findSafeMessage(typedData)
  if (safeMessage) return scanSafeMessage(typedData, safeMessage, input, options)
  const permits = findTokenPermits(typedData, input.userAccount)
  const nftPermit = findNftPermit(typedData, input.userAccount)
  if (permits.length > 0 || nftPermit) return scanPermits(typedData, permits, nftPermit ? [nftPermit] : [], options)
  const seaport = findSeaportOrders(typedData, input.userAccount)
  if (seaport) return scanOrders(typedData, seaport, input, options)
  const looksRare = findLooksRareOrders(typedData, input.userAccount)
  if (looksRare) return scanOrders(typedData, looksRare.orders, input, options, looksRare.warnings, looksRare.bounds)
  const polymarket = findPolymarketOrder(typedData, input.userAccount)
  if (polymarket) return scanPolymarketOrder(typedData, polymarket, input, options)
  const blur = findBlurSignature(typedData, payload, input.userAccount)
  if (blur) return scanBlur(typedData, blur, input, options)
  const swap = findSwapOrder(typedData) ?? findDeltaOrder(typedData)
  if (swap) return scanSwapOrder(typedData, swap, input, options)
  const call = findSignedCall(typedData, input.userAccount)
  if (call) return scanSignedRun(typedData, signedCallRun(call), input.userAccount, options)
  const operation = findUserOperation(typedData)
  if (operation) return scanUserOperation(typedData, operation, input.userAccount, options)
  const chainId = knownChainId(options.rpcUrl, options.chainId) ?? domainChainId(typedData)
  const update = findDepositUpdate(typedData)
  const send = findHyperliquidSend(typedData)
  const transfer = findFarcasterTransfer(typedData)
  const control = findHyperliquidControl(typedData)
  return done({
    warnings: [
      ...(chainId === null ? [] : messageAddressWarnings(chainId, typedData)),
      ...(update ? depositUpdateWarnings(update, input.userAccount) : []),
      ...(send ? hyperliquidSendWarnings(send, input.userAccount) : []),
      ...(transfer ? farcasterTransferWarnings(transfer, input.userAccount) : []),
      ...(control ? hyperliquidControlWarnings(control, input.userAccount) : []),
    ],
    simulationResults: results([], decodeTypedMessage(typedData)),
  })
}

// ── Safe transaction messages ────────────────────────────────────────────────────────────────────────────────────

/**
 * Simulates the Safe transaction as the wallet's execTransaction sent by the signer, at the message's nonce and under
 * the multisig preset (confirmations enough, the threshold untouched), and reports the wallet's changes: who controls it
 * first, then its assets. A queued transaction (a nonce above the Safe's) simulates on today's state at its nonce; a
 * used nonce (executed or replaced) is reported without effects, as it can never run. When the signer is not an
 * owner, the transaction is simulated once more from the first owner, so the user still sees what it does.
 */
async function scanSafeTransaction(
  typedData: TypedData,
  safeTx: SafeTxMessage,
  input: MessageScanInput,
  options: ScanOptions,
): Promise<Scan> {
  const wallet = getAddress(safeTx.wallet)
  const simulate = (from: Address) =>
    runSimulation({ ...safeSimulationInput(safeTx, wallet, from), assets: assetPlan }, options)
  let run: RunOutcome = await simulate(input.userAccount)
  if (!run.ok) return { ok: false, error: run.error, stats: NO_TRAFFIC }
  let stats = run.result.stats
  const safe = run.result.safes.get(wallet.toLowerCase()) ?? null
  const decodedMessage = decodeTypedMessage(typedData)
  if (!safe) {
    const error = notASafe(wallet, 'transaction', 'what it would do')
    return done({ warnings: [], simulationResults: { ...results([], decodedMessage), error } }, stats)
  }
  const multisig: MultisigContext = {
    wallet: wallet.toLowerCase() as Address,
    version: safe.version,
    owners: safe.owners.map((owner) => owner.toLowerCase() as Address),
    threshold: safe.threshold,
    currentNonce: safe.nonce.toString(),
    messageNonce: safeTx.nonce.toString(),
    safeTxHash: safeTx.safeTxHash,
    domainHash: safeTx.domainHash,
    messageHash: safeTx.messageHash,
  }
  const requestWarnings = [
    ...multisigWarnings(safeTx, safe, input.userAccount, run.result.chainId),
    ...messageAddressWarnings(run.result.chainId, typedData),
  ]
  const protocol = contractProtocol(run.result.chainId, wallet, run.result.safes)
  // A nonce the Safe has used was executed or replaced: this one can never run, so no effect is claimed for it.
  if (safeTx.nonce < safe.nonce) {
    return done(
      { warnings: requestWarnings, simulationResults: { ...results([], decodedMessage), protocol, multisig } },
      stats,
    )
  }
  const firstOwner = safe.owners[0]
  if (!isSafeOwner(safe, input.userAccount) && firstOwner) {
    run = await simulate(getAddress(firstOwner))
    if (!run.ok) return { ok: false, error: run.error, stats }
    stats = addStats(stats, run.result.stats)
  }
  const result = run.result
  const txs = result.outcomes.map((outcome) => outcome.tx)
  const changes = computeAssetChanges(result)
  const walletChanges = changes.filter((change) => isAddressEqual(accountOf(change), wallet))
  const perTransaction = perTransactionResults(result, txs)
  const txError = perTransaction[0]?.error ?? null
  const error: MessageError | null = result.failure
    ? {
        kind: 'SIMULATION_FAILED',
        humanReadableError: `The Safe transaction could not be simulated: ${result.failure}`,
      }
    : txError
      ? { kind: 'SIMULATION_FAILED', humanReadableError: txError.humanReadableError }
      : null
  const priceOf = simulationPrices(result)
  const warnings = [...requestWarnings, ...simulationWarnings(result, txs, changes, wallet, priceOf)]
  // Who controls the Safe comes first, then what it holds.
  const expectedStateChanges = [
    ...(renderSafeChanges(result.safeChanges)[wallet.toLowerCase() as Address] ?? []),
    ...asMessageChanges(renderStateChanges(walletChanges, result.chainId, result.reads, priceOf)),
  ]
  return done(
    {
      warnings,
      simulationResults: {
        ...results(expectedStateChanges, decodedMessage),
        error,
        protocol,
        multisig,
        perTransaction,
      },
    },
    stats,
  )
}

// ── Calls signed for a relayer ──────────────────────────────────────────────────────────────────────────────────

/**
 * What a signature lets a relayer or bundler run, and whose changes it makes: the account reported. `safeSigner` is
 * set where the signature counts only as one of the account's Safe owners' (a SafeOp), to check the signer as a
 * SafeTx's is.
 */
type SignedRun = { account: Address; txs: SimulationTx[]; safeSigner?: Address }

/** A call a signature authorizes, as the transaction that makes it. */
function signedTx(call: SignedCall): SimulationTx {
  return { from: getAddress(call.from), to: getAddress(call.to), data: call.data, value: call.value, gas: null }
}

/**
 * A forward request, meta-transaction, Aave delegation or Compound III authorization runs as the signer's own call
 * to its target.
 */
function signedCallRun(call: SignedCall): SignedRun {
  const tx = signedTx(call)
  return { account: tx.from, txs: [tx] }
}

/**
 * A user operation runs as the EntryPoint's calls: what its `initCode` runs first, if anything, then its `callData`.
 * The gas it lets the bundler charge the account is judged as a transaction's fee is (UNUSUAL_GAS_CONSUMPTION).
 */
function userOperationRun(operation: UserOperation, first: SignedCall | null, signer: Address): SignedRun {
  const execution = signedTx(operation.execution)
  const paid = operation.gas ? { ...execution, gas: operation.gas.limit, fees: operation.gas.fees } : execution
  return {
    account: getAddress(operation.sender),
    txs: [...(first ? [signedTx(first)] : []), paid],
    ...(operation.safeOwners ? { safeSigner: signer } : {}),
  }
}

/**
 * A user operation. Where its `initCode` call goes depends on the account's code, read first (one more round trip,
 * only for an operation that carries one): a factory for an account without code, the account itself for an
 * EIP-7702 account; the EntryPoint refuses it for any other account, so nothing runs.
 */
async function scanUserOperation(
  typedData: TypedData,
  operation: UserOperation,
  signer: Address,
  options: ScanOptions,
): Promise<Scan> {
  if (!operation.init) return scanSignedRun(typedData, userOperationRun(operation, null, signer), signer, options)
  const read = await readAccountCode(getAddress(operation.sender), options)
  if (!read.ok) return { ok: false, error: read.error, stats: NO_TRAFFIC }
  const first = initCall(operation, operation.init, read.code)
  if (!first) {
    const why =
      `The EntryPoint refuses this operation: its account ${operation.sender.toLowerCase()} exists already, yet its ` +
      'initCode asks to create it (AA10), so nothing would run.'
    return done(
      {
        warnings: [],
        simulationResults: {
          ...results([], decodeTypedMessage(typedData)),
          error: { kind: 'SIMULATION_FAILED', humanReadableError: why },
        },
      },
      read.stats,
    )
  }
  const scan = await scanSignedRun(typedData, userOperationRun(operation, first, signer), signer, options)
  if (!scan.ok) return scan
  const stats = addStats(scan.stats, read.stats)
  // A setup call runs on the account itself, as its own code wants: it can hand the account to someone else (an
  // executor, an owner, a module) without moving any asset, so it is named whatever the changes show.
  const setsUp = isAddressEqual(first.to, operation.sender)
  const warnings = setsUp ? [...scan.analysis.warnings, accountSetupWarning(operation.sender)] : scan.analysis.warnings
  return { ...scan, analysis: { ...scan.analysis, warnings }, stats }
}

/** SET_OWNER_AUTHORITY: an operation that first runs a setup call on an EIP-7702 account, from its `initCode`. */
function accountSetupWarning(account: Address): Warning {
  return makeWarning(
    'SET_OWNER_AUTHORITY',
    'WARNING',
    `This operation first runs a setup call on the account ${account.toLowerCase()} (an EIP-7702 account's ` +
      'initialisation): such a call can give another address control of the account (an owner, an executor, a ' +
      'module) and moves no asset, so the changes shown may not reveal it. Sign only if you are setting up this ' +
      'account yourself.',
  )
}

/**
 * A forward request, meta-transaction or user operation does, once a relayer or bundler submits it, what those calls
 * would: they are simulated, and the account's changes and their warnings are reported, naming the account when it is
 * not the signer's own.
 */
async function scanSignedRun(
  typedData: TypedData,
  run: SignedRun,
  signer: Address,
  options: ScanOptions,
): Promise<Scan> {
  const { account } = run
  const input = {
    txs: run.txs,
    userAccount: account,
    blockNumber: null,
    balances: [],
    storage: [],
    multisigWallets: [],
  }
  const simulated = await runSimulation({ ...input, assets: assetPlan }, options)
  if (!simulated.ok) return { ok: false, error: simulated.error, stats: NO_TRAFFIC }
  const result = simulated.result
  const txs = result.outcomes.map((outcome) => outcome.tx)
  const changes = computeAssetChanges(result)
  const mine = changes.filter((change) => isAddressEqual(accountOf(change), account))
  const perTransaction = perTransactionResults(result, txs)
  const failure = result.failure ?? perTransaction.find((entry) => entry.error)?.error?.humanReadableError ?? null
  const error: MessageError | null = failure
    ? { kind: 'SIMULATION_FAILED', humanReadableError: `The call this signature authorizes fails: ${failure}` }
    : null
  const priceOf = simulationPrices(result)
  const safe = result.safes.get(account.toLowerCase()) ?? null
  const domainChain = domainChainId(typedData)
  const warnings = [
    ...(failure ? [failedRunWarning(failure)] : []),
    ...(run.safeSigner && safe
      ? safeSignerWarnings(
          'transaction',
          safe,
          run.safeSigner,
          domainChain === null ? null : BigInt(domainChain),
          result.chainId,
        )
      : []),
    ...messageAddressWarnings(result.chainId, typedData),
    ...simulationWarnings(result, txs, changes, account, priceOf),
  ]
  // A Safe's changes of who controls it come first, as for its own transactions.
  const expectedStateChanges = [
    ...(renderSafeChanges(result.safeChanges)[account.toLowerCase() as Address] ?? []),
    ...asMessageChanges(renderStateChanges(mine, result.chainId, result.reads, priceOf)),
  ]
  return done(
    {
      warnings,
      simulationResults: {
        ...results(expectedStateChanges, decodeTypedMessage(typedData)),
        error,
        perTransaction,
        ...(isAddressEqual(account, signer) ? {} : { account: account.toLowerCase() as Address }),
      },
    },
    result.stats,
  )
}

/**
 * A call a signature authorizes should run: one that fails in the simulation may behave otherwise when submitted (the
 * simulation cannot make every condition the relayer or bundler meets), so the person is told, never NONE.
 */
function failedRunWarning(failure: string): Warning {
  return makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `What this signature authorizes fails in Preflight's simulation (${failure}), so what it would do once ` +
      'submitted is not known. Sign only if you know why it fails.',
  )
}

// ── Safe messages ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A Safe message changes nothing until some contract asks the Safe whether it signed, so nothing is simulated: the
 * Safe's owners, threshold and version are read (1 round trip) to judge the signer, the chain and the hash, and to say
 * what the Safe would sign. For an address that is no Safe here, it is reported unsupported (WARN), as a Safe
 * transaction is: the same address may be a Safe on another chain.
 */
async function scanSafeMessage(
  typedData: TypedData,
  safeMessage: SafeMessage,
  input: MessageScanInput,
  options: ScanOptions,
): Promise<Scan> {
  const wallet = getAddress(safeMessage.wallet)
  const run = await runReads(wallet, [], options, [])
  if (!run.ok) return { ok: false, error: run.error, stats: NO_TRAFFIC }
  const { chainId, safes, stats } = run.result
  const safe = safes.get(wallet.toLowerCase()) ?? null
  const warnings = messageAddressWarnings(chainId, typedData)
  const decodedMessage = decodeTypedMessage(typedData)
  if (!safe) {
    const error = notASafe(wallet, 'message', 'what your signature would let it sign')
    return done({ warnings, simulationResults: { ...results([], decodedMessage), error } }, stats)
  }
  return done(
    {
      warnings: [...safeMessageWarnings(safeMessage, safe, input.userAccount, chainId), ...warnings],
      simulationResults: {
        ...results([], decodedMessage),
        protocol: contractProtocol(chainId, wallet, safes),
        safeMessage: safeMessageContext(safeMessage, safe),
      },
    },
    stats,
  )
}

/** A Safe-shaped message whose domain names an address that is no Safe on the chain scanned: nothing can be shown. */
function notASafe(wallet: Address, signed: 'transaction' | 'message', unknown: string): MessageError {
  return {
    kind: 'UNSUPPORTED_MESSAGE',
    humanReadableError:
      `This is a Safe ${signed} for ${wallet.toLowerCase()}, but that address is not a Safe on this chain, so ` +
      `${unknown} cannot be shown.`,
  }
}

// ── Permits ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Token and NFT permits: one read-only simulation call for spender code, total supply and uncached metadata. */
async function scanPermits(
  typedData: TypedData,
  permits: TokenPermit[],
  nftPermits: NftPermit[],
  options: ScanOptions,
): Promise<Scan> {
  const owner = permits[0]?.owner ?? nftPermits[0]?.owner ?? zeroAddress
  const chainHint = knownChainId(options.rpcUrl, options.chainId)
  const metadataNeeded = (token: Address) => cachedTokenMetadata(chainHint, token) === undefined
  // A signature transfer with a witness (a UniswapX order) also says what the signer is paid: read those balances,
  // and what judging every payment needs.
  const outputs = witnessOutputs(typedData, owner)
  const payments = witnessPayments(typedData)
  const reads = [
    ...permitReads(permits, nftPermits, metadataNeeded),
    ...witnessReads(outputs, owner, metadataNeeded),
    ...paymentTokenReads(
      payments.map((payment) => payment.token),
      metadataNeeded,
    ),
  ]
  const tokens = [...permits.map((permit) => permit.token), ...outputs.map((output) => output.token)]
  const run = await runReads(owner, reads, options, tokens)
  if (!run.ok) return { ok: false, error: run.error, stats: NO_TRAFFIC }
  const result = run.result
  const priceOf = simulationPrices(result)
  const metadataOf = (token: Address) => tokenMetadata(result.chainId, token, result.reads)
  const assetOf = (token: Address) => erc20Asset(result.chainId, token, metadataOf(token), priceOf(token))
  const context: PermitContext = {
    now: options.now?.() ?? Math.floor(Date.now() / 1000),
    spenderHasCode: (spender) => codeSizeBefore(result.reads, spender) !== 0n,
    totalSupply: (token) => {
      const supply = result.reads.before.get(readKeys.totalSupply(token))
      return typeof supply === 'bigint' ? supply : null
    },
    symbol: (token) => assetOf(token).symbol,
    balance: (token, owner) => {
      const balance = result.reads.before.get(readKeys.erc20Balance(token, owner))
      return typeof balance === 'bigint' ? balance : null
    },
  }
  const nftChanges = Object.values(renderStateChanges(nftPermits.map(nftPermitApproval), result.chainId, result.reads))
  const paid = renderStateChanges(witnessTransfers(outputs, owner, result.reads), result.chainId, result.reads, priceOf)
  // A transfer authorization is the transfer it makes, not a permission to spend.
  const authorized = permits.filter((permit) => permit.standard === 'EIP3009')
  const sent = authorized.map((permit) => authorizedTransfer(permit, context.balance(permit.token, permit.owner)))
  const expectedStateChanges = [
    ...permits
      .filter((permit) => permit.standard !== 'EIP3009')
      .map((permit) => permitStateChange(permit, assetOf(permit.token), context)),
    ...asMessageChanges(renderStateChanges(sent, result.chainId, result.reads, priceOf)),
    ...nftChanges.flat(),
    ...asMessageChanges(paid).map((change) => bounded(change, { gives: 'exact', receives: 'atLeast' })),
  ]
  const warnings = [
    ...permitWarnings(permits, nftPermits, context),
    ...witnessWarnings(permits, payments, owner, paymentJudge(typedData, result), {
      chainId: result.chainId,
      priceOf,
      metadataOf,
    }),
    ...messageAddressWarnings(result.chainId, typedData),
    ...stateWritingReadWarnings(result.stateWritingReads, metadataOf),
  ]
  return done(
    { warnings, simulationResults: results(expectedStateChanges, decodeTypedMessage(typedData)) },
    result.stats,
  )
}

// ── Seaport orders ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A marketplace order or bulk order (Seaport, Blur, LooksRare, Polymarket) or a swap order: the user's balances of
 * what changes hands, read in one call, shown as transfers (all orders of a bulk tree added up) whose amounts bind as
 * `bounds` say, and each order judged on its own. `readerWarnings` are what reading the order already found (a maker
 * other than the signer, a Blur order off Blur's site), put first.
 */
async function scanOrders(
  typedData: TypedData,
  seaport: SeaportOrders,
  input: MessageScanInput,
  options: ScanOptions,
  readerWarnings: Warning[] = [],
  bounds: { gives: Bound; receives: Bound } = { gives: 'exact', receives: 'exact' },
): Promise<Scan> {
  const decodedMessage = decodeTypedMessage(typedData)
  const trade = seaport.total
  if (hasUnsupportedItems(trade)) {
    const error: MessageError = {
      kind: 'UNSUPPORTED_ORDER_TYPE',
      humanReadableError: 'This order trades an item type its exchange does not define, so its effect cannot be shown.',
    }
    return done({ warnings: [], simulationResults: { ...results([], decodedMessage), error } })
  }
  const user = input.userAccount
  const chainHint = knownChainId(options.rpcUrl, options.chainId)
  const metadataNeeded = (token: Address) => cachedTokenMetadata(chainHint, token) === undefined
  const tokens = [...trade.gives, ...trade.receives].map((item) => item.token)
  // An order is judged on the tokens it pays in, even when someone else is paid.
  const paidIn = seaport.orders.flatMap((order) => order.receives.map((item) => item.token))
  const reads = [...seaportReads(trade, user, metadataNeeded), ...paymentTokenReads(paidIn, metadataNeeded)]
  const run = await runReads(user, reads, options, tokens)
  if (!run.ok) return { ok: false, error: run.error, stats: NO_TRAFFIC }
  const result = run.result
  const priceOf = simulationPrices(result)
  const warnings = [...readerWarnings, ...messageAddressWarnings(result.chainId, typedData)]
  const forNothing = seaport.orders.filter(paymentJudge(typedData, result)).length
  if (forNothing > 0) {
    const which = `${forNothing} of the ${seaport.orders.length} orders in this bulk signature give`
    warnings.push(forNothingWarning(seaport.bulk ? which : 'This order gives'))
  }
  const moved = seaportTransfers(trade, user, result.reads)
  const metadataOf = (token: Address) => tokenMetadata(result.chainId, token, result.reads)
  const counterfeits = counterfeitWarnings(result.chainId, moved, user, metadataOf)
  warnings.push(...counterfeits, ...stateWritingReadWarnings(result.stateWritingReads, metadataOf))
  // A trade for nothing is blocked already, and a counterfeit already says to count its payment as nothing. Each
  // order of a bulk tree is judged on its own; a single order as shown, on what it pays the signer (a swap order's
  // payments to others are TRADE_PROCEEDS_TO_OTHER_ADDRESS).
  if (forNothing === 0 && counterfeits.length === 0) {
    const known: AssetKnowledge = { chainId: result.chainId, priceOf, metadataOf }
    const judged = seaport.bulk ? seaport.orders : [seaport.total]
    const which = (count: number) =>
      seaport.bulk ? `${count} of the ${seaport.orders.length} orders in this bulk signature` : 'This order'
    warnings.push(...unvaluedPaymentWarnings(judged, known, which))
  }
  const transfers = renderStateChanges(moved, result.chainId, result.reads, priceOf)
  const changes = [
    ...asMessageChanges(transfers).map((change) => bounded(change, bounds)),
    ...seaportCriteriaChanges(trade, user, result.chainId, result.reads),
  ]
  // What leaves the wallet first, then what comes in, exact and "any item" changes alike.
  const expectedStateChanges = [
    ...changes.filter((change) => change.humanReadableDiff.startsWith('Send')),
    ...changes.filter((change) => !change.humanReadableDiff.startsWith('Send')),
  ]
  if (forNothing === 0) warnings.push(...imbalancedValueWarnings(expectedStateChanges))
  return done({ warnings, simulationResults: results(expectedStateChanges, decodedMessage) }, result.stats)
}

/** "Send 5 USDC" as "Send at most 5 USDC", "Receive 2 WETH" as "Receive at least 2 WETH", as the amount binds. */
function bounded(change: StateChange, bounds: { gives: Bound; receives: Bound }): StateChange {
  const diff = change.humanReadableDiff
    .replace(/^Send /, `Send ${BOUND_WORDS[bounds.gives]}`)
    .replace(/^Receive /, `Receive ${BOUND_WORDS[bounds.receives]}`)
  return { ...change, humanReadableDiff: diff }
}

// ── Swap orders ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A CoW, 0x, 1inch or Velora Delta order: read and judged as a marketplace order is, in one round trip, with what it
 * pays shown only when it pays the user on this chain, and its amounts worded as they bind ("Receive at least").
 */
async function scanSwapOrder(
  typedData: TypedData,
  order: SwapOrder,
  input: MessageScanInput,
  options: ScanOptions,
): Promise<Scan> {
  const user = input.userAccount
  const bounds = { gives: order.sell.bound, receives: order.buy.bound }
  const scan = await scanOrders(
    typedData,
    swapOrderTrades(order, user),
    input,
    options,
    swapOrderWarnings(order, user),
    bounds,
  )
  if (!scan.ok || !order.bridged) return scan
  // A bridged order's proceeds arrive on another chain, never among this chain's changes: the dollar comparison of
  // those would call every such order a loss. It is judged on what it buys here (a trade for nothing) instead.
  const warnings = scan.analysis.warnings.filter((warning) => warning.kind !== 'IMBALANCED_DOLLAR_VALUE')
  return { ...scan, analysis: { ...scan.analysis, warnings } }
}

// ── Polymarket ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A Polymarket order: read and judged as a marketplace order is, for the account whose assets it trades (the signer's
 * proxy wallet or Safe, where it has one), both sides "up to" as it fills in part, and its shares counted as shares.
 * An order for an exchange Preflight does not know cannot be read: it says so (WARN).
 */
async function scanPolymarketOrder(
  typedData: TypedData,
  order: PolymarketOrder,
  input: MessageScanInput,
  options: ScanOptions,
): Promise<Scan> {
  if (order.kind === 'unknownExchange') {
    const error: MessageError = { kind: 'UNSUPPORTED_ORDER_TYPE', humanReadableError: order.reason }
    return done({ warnings: [], simulationResults: { ...results([], decodeTypedMessage(typedData)), error } })
  }
  const scan = await scanOrders(
    typedData,
    order.orders,
    { ...input, userAccount: order.account },
    options,
    order.warnings,
    {
      gives: 'upTo',
      receives: 'upTo',
    },
  )
  if (!scan.ok) return scan
  const { simulationResults } = scan.analysis
  const expectedStateChanges = polymarketShareChanges(simulationResults.expectedStateChanges, order.ctf)
  return done({ ...scan.analysis, simulationResults: { ...simulationResults, expectedStateChanges } }, scan.stats)
}

// ── Blur ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A Blur signature: read like any order where the request lets it be opened, a blind signature (WARN, in words) where
 * it does not, and the reference's NOT_ON_BLUR kinds when the site asking is not Blur.
 */
function scanBlur(typedData: TypedData, blur: BlurSignature, input: MessageScanInput, options: ScanOptions) {
  const siteWarnings = isBlurSite(input.origin)
    ? []
    : [
        makeWarning(
          blur.form === 'BULK_V1' ? 'BLUR_BULK_ORDER_NOT_ON_BLUR' : 'BLUR_V2_ORDER_NOT_ON_BLUR',
          'CRITICAL',
          `This is a Blur marketplace ${blur.form === 'BULK_V1' ? 'bulk listing' : 'order'} signature, but ` +
            `${input.origin} is not Blur. Sites that ask for Blur signatures elsewhere use them to sell your NFTs. ` +
            'Do not sign it.',
        ),
      ]
  if (blur.kind === 'orders') return scanOrders(typedData, blur.orders, input, options, siteWarnings)
  const blind = makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `${blur.reason} Signing it blind can sell your NFTs at any price: only sign it on blur.io, for a listing you made.`,
  )
  return done({ warnings: [...siteWarnings, blind], simulationResults: results([], decodeTypedMessage(typedData)) })
}

// ── Shared ───────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A simulation with no transactions, only reads: how permits and orders see the chain in one round trip, with the
 * prices of `tokens` and the native currency read alongside.
 */
function runReads(
  userAccount: Address,
  extraReads: Read[],
  options: ScanOptions,
  tokens: Address[],
): Promise<RunOutcome> {
  return runSimulation(
    {
      txs: [],
      userAccount,
      blockNumber: null,
      balances: [],
      storage: [],
      multisigWallets: [],
      extraReads,
      assets: assetPlan,
      priceTokens: tokens.filter((token) => !isAddressEqual(token, zeroAddress)),
    },
    options,
  )
}

/** The balances a witness order's payments change: native currency for the zero address, else the token. */
function witnessReads(outputs: WitnessOutput[], owner: Address, metadataNeeded: (token: Address) => boolean): Read[] {
  return outputs.flatMap((output) =>
    isNativeOutput(output)
      ? [nativeBalanceRead(owner)]
      : [
          erc20BalanceRead(output.token, owner),
          ...(metadataNeeded(output.token) ? tokenMetadataReads(output.token) : []),
        ],
  )
}

/** What a witness order pays the signer, as balance changes from the balances read now. */
function witnessTransfers(outputs: WitnessOutput[], owner: Address, reads: ReadResults): TransferChange[] {
  return outputs.map((output) => {
    const native = isNativeOutput(output)
    const held = reads.before.get(native ? readKeys.native(owner) : readKeys.erc20Balance(output.token, owner))
    const before = typeof held === 'bigint' ? held : 0n
    return {
      type: 'transfer',
      account: owner,
      asset: native ? { standard: 'NATIVE' } : { standard: 'ERC20', token: output.token },
      before,
      after: before + output.amount,
      counterparty: null,
    }
  })
}

/**
 * What a signature transfer's order (UniswapX) pays for what it takes, judged as a swap order is: next to nothing in
 * all (TRADE_FOR_NOTHING), next to nothing to the signer while others are paid (TRADE_PROCEEDS_TO_OTHER_ADDRESS), or
 * only what Preflight cannot value to the signer. The signer's share is judged on its own, so a 1-wei output to the
 * signer does not hide the rest going elsewhere.
 */
function witnessWarnings(
  permits: TokenPermit[],
  payments: WitnessPayment[],
  signer: Address,
  forNothing: (trade: SeaportTrade) => boolean,
  known: AssetKnowledge,
): Warning[] {
  if (payments.length === 0) return []
  const gives = permits.map(
    (permit): SeaportItem => ({ kind: 'ERC20', token: permit.token, identifier: 0n, amount: 1n }),
  )
  const trade = (paid: WitnessPayment[]): SeaportTrade => ({ offerer: signer, gives, receives: paid.map(paymentItem) })
  if (forNothing(trade(payments))) return [forNothingWarning('The order this signature transfer carries gives')]
  const toSigner = payments.filter((payment) => isAddressEqual(payment.recipient, signer))
  if (!forNothing(trade(toSigner))) {
    return unvaluedPaymentWarnings([trade(toSigner)], known, () => 'The order this signature transfer carries')
  }
  const others = payments.filter((payment) => !isAddressEqual(payment.recipient, signer))
  return [
    proceedsElsewhereWarning(
      'The order this signature transfer carries',
      others.map((payment) => payment.recipient),
    ),
  ]
}

/** UniswapX pays the native currency as the zero address. */
function paymentItem(payment: WitnessPayment): SeaportItem {
  const native = isNativeOutput(payment)
  return { kind: native ? 'NATIVE' : 'ERC20', token: payment.token, identifier: 0n, amount: payment.amount }
}

/** TRADE_FOR_NOTHING for orders; `subject` says which, with its verb ("This order gives"). */
function forNothingWarning(subject: string): Warning {
  return makeWarning(
    'TRADE_FOR_NOTHING',
    'CRITICAL',
    `${subject} away your assets for nothing, or next to nothing, in return. Signing it lets anyone take them. ` +
      'Scammers ask for exactly this signature.',
  )
}

/** What judging an order's payments needs of each token it pays in: whether it has code, and its decimals. */
function paymentTokenReads(tokens: Address[], metadataNeeded: (token: Address) => boolean): Read[] {
  // The zero address too: where an order takes it for a token (0x, 1inch), its transfers move nothing.
  return [...new Set(tokens.map((token) => token.toLowerCase() as Address))].flatMap((token) => [
    codeSizeRead(token),
    ...(!isAddressEqual(token, zeroAddress) && metadataNeeded(token) ? tokenMetadataReads(token) : []),
  ])
}

/**
 * Whether a trade pays next to nothing, on the reads of `result`. A token without code pays nothing only on the chain
 * the message is for: a scan on another chain (the wallet's, when no node serves the domain's) sees other code.
 */
function paymentJudge(typedData: TypedData, result: SimulationResult): (trade: SeaportTrade) => boolean {
  const messageChain = domainChainId(typedData)
  const sameChain = messageChain === null || messageChain === result.chainId
  const decimals = (token: Address) =>
    isAddressEqual(token, zeroAddress)
      ? nativeAsset(result.chainId).decimals
      : (tokenMetadata(result.chainId, token, result.reads).decimals ?? 0)
  const hasCode = (token: Address) => !sameChain || codeSizeBefore(result.reads, token) !== 0n
  return (trade) => isTradeForNothing(trade, decimals, hasCode)
}

/** The listed protocol of the domain's verifying contract (Permit2, Seaport, …) on the message's chain, or null. */
function verifyingContractProtocol(typedData: TypedData, options: ScanOptions): Protocol {
  const contract = typedData.domain.verifyingContract
  // After a simulation the node's chain id is cached; a scan without one goes by the chain the domain names.
  const chainId = knownChainId(options.rpcUrl, options.chainId) ?? domainChainId(typedData)
  if (chainId === null || typeof contract !== 'string' || !isAddress(contract)) return null
  return knownProtocol(chainId, contract)
}

/** KNOWN_MALICIOUS for any address the message names (verifying contract, spender, recipients…). */
function messageAddressWarnings(chainId: number, typedData: TypedData): Warning[] {
  return maliciousAddressWarnings(chainId, addressesInTypedData(typedData), 'This message')
}

/**
 * Message scans name the asset's contract on transfers (`contract`, seed §2.6; the all-e address for the native
 * currency) where transaction scans name the counterparty; both are kept when the counterparty is known. NFT transfers
 * also carry the reference message shape's `name`, `symbol` and `assetPrice` beside the engine's `asset` object.
 */
function asMessageChanges(byAccount: Record<Address, StateChange[]>): StateChange[] {
  return Object.values(byAccount)
    .flat()
    .map((change) => {
      const rawInfo = withKnownCounterparty(change.rawInfo)
      const contract = (address: Address) => ({ contract: { address, kind: 'ACCOUNT' as const } })
      let data: object
      if (rawInfo.kind === 'NATIVE_ASSET_TRANSFER') data = { ...rawInfo.data, ...contract(NATIVE_ASSET_ADDRESS) }
      else if (rawInfo.kind === 'ERC20_TRANSFER') data = { ...rawInfo.data, ...contract(rawInfo.data.asset.address) }
      else if (rawInfo.kind === 'ERC721_TRANSFER' || rawInfo.kind === 'ERC1155_TRANSFER') {
        const { asset } = rawInfo.data
        const symbol = 'symbol' in asset ? { symbol: asset.symbol } : {}
        data = { ...rawInfo.data, ...contract(asset.address), name: asset.name, ...symbol, assetPrice: asset.price }
      } else return change
      return { ...change, rawInfo: { ...rawInfo, data } as StateChange['rawInfo'] }
    })
}

/** The change without a `counterparty` it does not know (null): message changes name their `contract` instead. */
function withKnownCounterparty(rawInfo: StateChange['rawInfo']): StateChange['rawInfo'] {
  if (!('counterparty' in rawInfo.data) || rawInfo.data.counterparty !== null) return rawInfo
  const { counterparty: _unknown, ...data } = rawInfo.data
  return { ...rawInfo, data } as StateChange['rawInfo']
}

function accountOf(change: AssetChange): Address {
  return change.type === 'transfer' ? change.account : change.owner
}

function domainChainId(typedData: TypedData): number | null {
  const chainId = typedData.domain.chainId
  return typeof chainId === 'bigint' && chainId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(chainId) : null
}

function results(
  expectedStateChanges: StateChange[],
  decodedMessage?: SimulationResults['decodedMessage'],
): SimulationResults {
  return { error: null, expectedStateChanges, protocol: null, ...(decodedMessage ? { decodedMessage } : {}) }
}

function done(analysis: Analysis, stats: RpcStats = NO_TRAFFIC): Scan {
  return { ok: true, analysis, stats }
}
