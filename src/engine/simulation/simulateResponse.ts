/**
 * Checks a node's eth_simulateV1 answer has the shape the engine reads — the blocks sent, one result per call, hex
 * fields, well-formed logs — so a broken or impostor node becomes an RPC error that says so, never a TypeError or a
 * result that silently lacks transactions.
 */
import { type Hex, isAddress, isHex } from 'viem'
import type { SimulatedLog } from './assetEvents.ts'

/** One call's result as the node reports it. */
export type RpcCallResult = {
  status: Hex
  returnData: Hex
  gasUsed: Hex
  logs?: SimulatedLog[]
  /** geth and reth put a revert's data in `data` and leave `returnData` empty; anvil puts it in `returnData`. */
  error?: { code?: number; message?: string; data?: unknown }
}

/** One simulated block as the node reports it: its calls, and the header fields the engine reads. */
export type RpcBlockResult = { calls: RpcCallResult[]; timestamp?: unknown; gasLimit?: unknown }

/**
 * The blocks of a simulation, one per entry of `callCounts` (a scan's before-reads, transactions and after-reads; a
 * sell probe's two), or a sentence saying what is malformed.
 */
export function checkSimulateResult<Counts extends number[]>(
  value: unknown,
  callCounts: [...Counts],
): { ok: true; blocks: { [Block in keyof Counts]: RpcBlockResult } } | { ok: false; problem: string } {
  if (!Array.isArray(value)) return { ok: false, problem: 'the result is not a list of blocks' }
  if (value.length !== callCounts.length) {
    return { ok: false, problem: `it returned ${value.length} blocks for the ${callCounts.length} sent` }
  }
  for (const [index, block] of value.entries()) {
    const calls = (block as { calls?: unknown } | null)?.calls
    const expected = callCounts[index]
    if (!Array.isArray(calls)) return { ok: false, problem: `block ${index + 1} has no list of call results` }
    if (calls.length !== expected) {
      return {
        ok: false,
        problem: `block ${index + 1} has ${calls.length} call results for the ${expected} calls sent`,
      }
    }
    const bad = calls.findIndex((call) => !isCallResult(call))
    if (bad !== -1) return { ok: false, problem: `call ${bad + 1} of block ${index + 1} is malformed` }
  }
  return { ok: true, blocks: value as { [Block in keyof Counts]: RpcBlockResult } }
}

/**
 * What a call returned, or for a failed call the data it reverted with: from `returnData`, or from `error.data` when
 * the node puts it there (geth's internal/ethapi simulate.go returns no return value for a failed call).
 */
export function callOutput(call: RpcCallResult): Hex {
  if (call.status === '0x1' || call.returnData !== '0x') return call.returnData
  const data = call.error?.data
  return isHexText(data) ? data : call.returnData
}

/** A simulated block's timestamp in Unix seconds, or null when the node did not say (it is optional to the engine). */
export function blockTimestamp(block: RpcBlockResult): bigint | null {
  return isHexText(block.timestamp) && block.timestamp !== '0x' ? BigInt(block.timestamp) : null
}

function isCallResult(value: unknown): value is RpcCallResult {
  if (typeof value !== 'object' || value === null) return false
  const call = value as Record<string, unknown>
  if (!isHexText(call.status) || !isHexText(call.returnData) || !isHexText(call.gasUsed)) return false
  return call.logs === undefined || (Array.isArray(call.logs) && call.logs.every(isLog))
}

function isLog(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const log = value as Record<string, unknown>
  return (
    typeof log.address === 'string' &&
    isAddress(log.address, { strict: false }) &&
    Array.isArray(log.topics) &&
    // Topics are 32-byte words; anything else is a broken node, not a contract's doing.
    log.topics.every((topic) => isHexText(topic) && topic.length === 66) &&
    isHexText(log.data)
  )
}

function isHexText(value: unknown): value is Hex {
  return typeof value === 'string' && isHex(value, { strict: true })
}
