/** Validates a transaction scan request (seed §2.1, §2.2) into the engine's normalised simulation input. */
import { type Address, type Hex, maxUint64 } from 'viem'
import {
  type InvalidRequest,
  invalid,
  isRecord,
  type Parsed,
  parseAddress,
  parseAmount,
  parseBytes,
  parseOrigin,
} from '../api/index.ts'
import { type SimulationInput, type SimulationTx, type TxFees, toWord } from '../simulation/index.ts'

/** The most transactions one scan accepts; more is a request error, not a slow scan. */
export const MAX_TX_OBJECTS = 100

/**
 * The most entries each of `stateOverrides.nativeBalances` and `stateOverrides.storage` may hold. Far more than any
 * honest simulation sets, and small enough that checking them (each address checksummed) stays a few milliseconds.
 */
export const MAX_STATE_OVERRIDES = 1000

type TransactionsScanInput = { simulation: SimulationInput; origin: string }

type Result = { ok: true; value: TransactionsScanInput } | { ok: false; error: InvalidRequest }

/** Checks every field of an untrusted request; the first problem found is returned, naming the field. */
export function parseTransactionsRequest(request: unknown): Result {
  if (!isRecord(request)) return invalid('request', 'must be a JSON object with txObjects, userAccount and metadata')
  const { txObjects } = request
  if (!Array.isArray(txObjects) || txObjects.length === 0) {
    return invalid('txObjects', 'must be a non-empty array of transaction objects')
  }
  if (txObjects.length > MAX_TX_OBJECTS) {
    return invalid(
      'txObjects',
      `has ${txObjects.length} transactions; at most ${MAX_TX_OBJECTS} can be scanned at once`,
    )
  }
  const txs: SimulationTx[] = []
  for (const [index, txObject] of txObjects.entries()) {
    const tx = parseTxObject(txObject, `txObjects[${index}]`)
    if (!tx.ok) return tx
    txs.push(tx.value)
  }
  const userAccount = parseAddress(request.userAccount, 'userAccount')
  if (!userAccount.ok) return userAccount
  if (!isRecord(request.metadata)) return invalid('metadata', 'must be an object with the origin of the request')
  const origin = parseOrigin(request.metadata.origin, 'metadata.origin')
  if (!origin.ok) return origin
  const config = parseSimulatorConfig(request.simulatorConfig)
  if (!config.ok) return config
  return {
    ok: true,
    value: { origin: origin.value, simulation: { txs, userAccount: userAccount.value, ...config.value } },
  }
}

function parseTxObject(value: unknown, field: string): Parsed<SimulationTx> {
  if (!isRecord(value)) return invalid(field, 'must be an object with from, to, data and value')
  const from = parseAddress(value.from, `${field}.from`)
  if (!from.ok) return from
  let to: Address | null = null
  if (value.to !== undefined && value.to !== null) {
    const parsed = parseAddress(value.to, `${field}.to`)
    if (!parsed.ok) return parsed
    to = parsed.value
  }
  let data: Hex = '0x'
  if (value.data !== undefined && value.data !== null) {
    const parsed = parseBytes(value.data, `${field}.data`)
    if (!parsed.ok) return parsed
    data = parsed.value
  }
  if (to === null && data === '0x') {
    return invalid(`${field}.to`, 'is missing: a transaction without a recipient must carry contract creation data')
  }
  let amount = 0n
  if (value.value !== undefined && value.value !== null) {
    const parsed = parseAmount(value.value, `${field}.value`)
    if (!parsed.ok) return parsed
    amount = parsed.value
  }
  let gas: bigint | null = null
  if (value.gas !== undefined && value.gas !== null) {
    const parsed = parseAmount(value.gas, `${field}.gas`)
    if (!parsed.ok) return parsed
    if (parsed.value < 21_000n) return invalid(`${field}.gas`, 'is below 21000, the cost of the simplest transaction')
    if (parsed.value > maxUint64)
      return invalid(`${field}.gas`, 'is larger than 2^64-1, the most gas a transaction can carry')
    gas = parsed.value
  }
  const fees = parseFees(value, field)
  if (!fees.ok) return fees
  const tx: SimulationTx = { from: from.value, to, data, value: amount, gas }
  if (fees.value) tx.fees = fees.value
  return { ok: true, value: tx }
}

/** The fee fields of a transaction object: a legacy gas price or EIP-1559 caps, never both (as a node refuses). */
function parseFees(value: Record<string, unknown>, field: string): Parsed<TxFees | null> {
  const amounts: Record<'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas', bigint | null> = {
    gasPrice: null,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
  }
  for (const key of ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    if (value[key] === undefined || value[key] === null) continue
    const parsed = parseAmount(value[key], `${field}.${key}`)
    if (!parsed.ok) return parsed
    amounts[key] = parsed.value
  }
  const { gasPrice, maxFeePerGas, maxPriorityFeePerGas } = amounts
  if (gasPrice !== null && (maxFeePerGas !== null || maxPriorityFeePerGas !== null)) {
    return invalid(`${field}.gasPrice`, 'cannot be set together with maxFeePerGas or maxPriorityFeePerGas')
  }
  if (maxFeePerGas !== null && maxPriorityFeePerGas !== null && maxPriorityFeePerGas > maxFeePerGas) {
    return invalid(`${field}.maxPriorityFeePerGas`, 'is larger than maxFeePerGas')
  }
  if (gasPrice !== null) return { ok: true, value: { kind: 'legacy', gasPrice } }
  if (maxFeePerGas === null && maxPriorityFeePerGas === null) return { ok: true, value: null }
  return { ok: true, value: { kind: 'eip1559', maxFeePerGas, maxPriorityFeePerGas } }
}

type SimulatorSettings = Omit<SimulationInput, 'txs' | 'userAccount'>

function parseSimulatorConfig(value: unknown): Parsed<SimulatorSettings> {
  const settings: SimulatorSettings = { blockNumber: null, balances: [], storage: [], multisigWallets: [] }
  if (value === undefined || value === null) return { ok: true, value: settings }
  if (!isRecord(value)) return invalid('simulatorConfig', 'must be an object with stateOverrides and presets')
  if (value.blockNumber !== undefined && value.blockNumber !== null) {
    const block = parseAmount(value.blockNumber, 'simulatorConfig.blockNumber')
    if (!block.ok) return block
    settings.blockNumber = block.value
  }
  const overrides = value.stateOverrides
  if (overrides !== undefined && overrides !== null) {
    if (!isRecord(overrides)) return invalid('simulatorConfig.stateOverrides', 'must be an object')
    const balances = listField(
      overrides.nativeBalances,
      'simulatorConfig.stateOverrides.nativeBalances',
      MAX_STATE_OVERRIDES,
    )
    if (!balances.ok) return balances
    for (const [index, entry] of balances.value.entries()) {
      const field = `simulatorConfig.stateOverrides.nativeBalances[${index}]`
      if (!isRecord(entry)) return invalid(field, 'must be an object with address and value')
      const address = parseAddress(entry.address, `${field}.address`)
      if (!address.ok) return address
      const amount = parseAmount(entry.value, `${field}.value`)
      if (!amount.ok) return amount
      settings.balances.push({ address: address.value, value: amount.value })
    }
    const storage = listField(overrides.storage, 'simulatorConfig.stateOverrides.storage', MAX_STATE_OVERRIDES)
    if (!storage.ok) return storage
    for (const [index, entry] of storage.value.entries()) {
      const field = `simulatorConfig.stateOverrides.storage[${index}]`
      if (!isRecord(entry)) return invalid(field, 'must be an object with address, slot and value')
      const address = parseAddress(entry.address, `${field}.address`)
      if (!address.ok) return address
      const slot = parseAmount(entry.slot, `${field}.slot`)
      if (!slot.ok) return slot
      const word = parseAmount(entry.value, `${field}.value`)
      if (!word.ok) return word
      settings.storage.push({ address: address.value, slot: toWord(slot.value), value: toWord(word.value) })
    }
  }
  const presets = listField(value.presets, 'simulatorConfig.presets')
  if (!presets.ok) return presets
  for (const [index, entry] of presets.value.entries()) {
    const field = `simulatorConfig.presets[${index}]`
    if (!isRecord(entry)) return invalid(field, 'must be an object with kind and walletAddress')
    if (entry.kind !== 'MULTISIG_WALLET' && entry.kind !== 'GNOSIS_SAFE') {
      return invalid(`${field}.kind`, 'must be "MULTISIG_WALLET" (or its alias "GNOSIS_SAFE")')
    }
    const wallet = parseAddress(entry.walletAddress, `${field}.walletAddress`)
    if (!wallet.ok) return wallet
    settings.multisigWallets.push(wallet.value)
  }
  return { ok: true, value: settings }
}

function listField(value: unknown, field: string, maxItems = Number.POSITIVE_INFINITY): Parsed<unknown[]> {
  if (value === undefined || value === null) return { ok: true, value: [] }
  if (!Array.isArray(value)) return invalid(field, 'must be an array')
  if (value.length > maxItems) return invalid(field, `has ${value.length} entries; at most ${maxItems} are accepted`)
  return { ok: true, value }
}
