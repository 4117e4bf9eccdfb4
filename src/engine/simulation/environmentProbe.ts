/**
 * The environment probe: the transactions again, as a block runs them. A scan's simulation charges no fee and gives
 * each call the block's gas, so inside it `tx.gasprice` and `block.basefee` read 0 and `gasleft()` reads millions: a
 * drainer can read any of them and pay back only then ("claim: +0.1 ETH"), and keep everything once mined. The probe
 * has the node validate the block (its real base fee, the sender paying for the gas), offers a wallet's fees, gives
 * each transaction the gas a wallet would (its own, or half again what the scan used), the latest block's fee
 * recipient, and the number, time and randomness of the block after it (nextBlock.ts): a claim armed "a second from
 * now" gave back only in a simulation on the head's time. Only what moved is read back (traceTransfers and token
 * events); risk/simulationEvasion.ts compares it with the scan.
 */
import { type Address, getAddress, numberToHex, zeroAddress } from 'viem'
import { assetEventsFromLogs, type Movement } from './assetEvents.ts'
import { nextBlockTime, withFreshRandomness } from './nextBlock.ts'
import { type RpcClient, RpcFailure } from './rpc.ts'
import type { SimulationTx, TxFees } from './runSimulation.ts'
import { checkSimulateResult } from './simulateResponse.ts'

/**
 * What a block built now would run with: the latest block's base fee and fee recipient, and the node's gas price; and
 * that block's number, so the probe runs on the state the scan ran on even if a block arrives in between, and time, so
 * the probe's block comes after it.
 */
export type ChainHead = {
  number: bigint | null
  timestamp: bigint | null
  baseFeePerGas: bigint | null
  feeRecipient: Address | null
  gasPrice: bigint
}

/** The transactions as the probe ran them: each one's status, and the movements of those that succeeded. */
export type EnvironmentProbe = { succeeded: boolean[]; movements: Movement[] }

/** One transaction for the probe: the scan's, with the gas the scan saw it use. */
export type ProbedTx = SimulationTx & { gasUsed: bigint }

const hexQuantity = (value: unknown): bigint | null =>
  typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value) ? BigInt(value) : null

/**
 * The chain's head for the probe, from block `tag` and eth_gasPrice: asked at once, so they travel in the batch of the
 * scan's first call. Null when the node does not say (then there is no probe).
 */
export async function chainHead(client: RpcClient, tag: string): Promise<ChainHead | null> {
  const [block, price] = await Promise.all([
    client.request('eth_getBlockByNumber', [tag, false]) as Promise<{
      number?: unknown
      timestamp?: unknown
      baseFeePerGas?: unknown
      miner?: unknown
    }>,
    client.request('eth_gasPrice', []),
  ])
  const gasPrice = hexQuantity(price)
  if (gasPrice === null) return null
  const miner = typeof block?.miner === 'string' && /^0x[0-9a-f]{40}$/i.test(block.miner) ? block.miner : null
  return {
    number: hexQuantity(block?.number),
    timestamp: hexQuantity(block?.timestamp),
    baseFeePerGas: hexQuantity(block?.baseFeePerGas),
    feeRecipient: miner && miner !== zeroAddress ? getAddress(miner) : null,
    gasPrice,
  }
}

/**
 * The fee fields a wallet would send: the transaction's own, completed the way wallets complete them (a tip of what
 * the node suggests above the base fee, a cap of twice the base fee plus the tip).
 */
function walletFees(fees: TxFees | undefined, head: ChainHead): Record<string, string> {
  if (fees?.kind === 'legacy') return { gasPrice: numberToHex(fees.gasPrice) }
  if (head.baseFeePerGas === null) return { gasPrice: numberToHex(head.gasPrice) }
  const suggestedTip = head.gasPrice > head.baseFeePerGas ? head.gasPrice - head.baseFeePerGas : 0n
  const tip = fees?.maxPriorityFeePerGas ?? suggestedTip
  const cap = fees?.maxFeePerGas ?? 2n * head.baseFeePerGas + tip
  return { maxFeePerGas: numberToHex(cap), maxPriorityFeePerGas: numberToHex(tip < cap ? tip : cap) }
}

/**
 * Runs `txs` on the head's block (else on `tag`) under `stateOverrides` (the scan's own) as a validated block would;
 * null when the node refuses it (a sender that cannot pay for the gas, a sender with code), fails, or answers with
 * something else: the probe only adds a warning, so it costs the warning, never the scan. Its request is made at once,
 * so a call started beside another travels in the same batch.
 */
export async function probeEnvironment(
  client: RpcClient,
  stateOverrides: Record<string, object>,
  txs: ProbedTx[],
  head: ChainHead,
  tag: string,
  chainId: number,
): Promise<EnvironmentProbe | null> {
  const calls = txs.map((tx) => ({
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    data: tx.data,
    value: numberToHex(tx.value),
    gas: numberToHex(tx.gas ?? (tx.gasUsed * 3n) / 2n),
    ...walletFees(tx.fees, head),
  }))
  // The number the chain gives the next block, said outright: anvil numbers a first simulated block as its base.
  const blockOverrides = {
    ...(head.number !== null ? { number: numberToHex(head.number + 1n) } : {}),
    ...(head.timestamp !== null ? { time: numberToHex(nextBlockTime(head.timestamp, chainId)) } : {}),
    ...(head.feeRecipient ? { feeRecipient: head.feeRecipient } : {}),
  }
  const payload = {
    traceTransfers: true,
    validation: true,
    blockStateCalls: withFreshRandomness([{ stateOverrides, calls }], blockOverrides),
  }
  let answer: unknown
  try {
    answer = await client.request('eth_simulateV1', [payload, head.number === null ? tag : numberToHex(head.number)])
  } catch (error) {
    if (error instanceof RpcFailure) return null
    throw error
  }
  const checked = checkSimulateResult(answer, [calls.length])
  if (!checked.ok) return null
  const results = checked.blocks[0].calls
  const succeeded = results.map((call) => call.status === '0x1')
  const logs = results.flatMap((call) =>
    call.status === '0x1'
      ? (call.logs ?? []).map((log) => ({ address: getAddress(log.address), topics: log.topics, data: log.data }))
      : [],
  )
  return { succeeded, movements: assetEventsFromLogs(logs).movements }
}
