/** One result per transaction: error, gas, protocol, decoded calldata and logs (seed §2.4 perTransaction). */
import { type Hex, toEventSelector } from 'viem'
import { decodeCalldata, decodeLog, decodeRevert } from '../abi/index.ts'
import {
  type Address,
  NATIVE_ASSET_ADDRESS,
  type PerTransactionError,
  type PerTransactionResult,
} from '../api/index.ts'
import { transactionProtocol } from '../risk/index.ts'
import type { SimulationResult, SimulationTx, TxOutcome } from '../simulation/index.ts'

let executionFailure: Hex | undefined
/** Safe's ExecutionFailure topic, hashed on first use (not while a service worker starts). */
const executionFailureTopic = () => (executionFailure ??= toEventSelector('ExecutionFailure(bytes32,uint256)'))

/** perTransaction entries for every requested transaction, in order. */
export function perTransactionResults(result: SimulationResult, txs: SimulationTx[]): PerTransactionResult[] {
  return txs.map((tx, index) => {
    const outcome = result.outcomes[index]
    const decodedCalldata = decodeCalldata(tx.to, tx.data)
    const protocol = transactionProtocol(result.chainId, result.safes, tx, outcome)
    if (!outcome) {
      return {
        error: {
          kind: 'TRANSACTION_ERROR',
          humanReadableError: 'The transaction could not be simulated because the node refused the simulation.',
          errorType: 'SimulationFailed',
        },
        gas: { gasLimit: null },
        protocol,
        logs: [],
        decodedLogs: [],
        decodedCalldata,
      }
    }
    const logs = eventLogs(outcome)
    return {
      error: transactionError(outcome),
      gas: { gasLimit: gasLimit(outcome).toString() },
      protocol,
      logs: logs.map((log) => ({ address: log.address.toLowerCase() as Address, topics: log.topics, data: log.data })),
      decodedLogs: logs.map(decodeLog),
      decodedCalldata,
    }
  })
}

/**
 * The contracts' own event logs (seed §2.4: raw event logs). The node's traceTransfers adds a pseudo-log from the
 * all-e address for each ETH transfer; those feed the state changes but no contract emitted them.
 */
function eventLogs(outcome: TxOutcome): TxOutcome['logs'] {
  return outcome.logs.filter((log) => log.address.toLowerCase() !== NATIVE_ASSET_ADDRESS)
}

/**
 * The gas limit to send: the transaction's own when it set one, else the simulated gas used plus 20% headroom
 * (gas used varies with state between simulation and inclusion; wallets add a similar margin).
 */
export function gasLimit(outcome: TxOutcome): bigint {
  if (outcome.tx.gas !== null) return outcome.tx.gas
  return (outcome.gasUsed * 12n + 9n) / 10n
}

/** Reverted (with the decoded reason), failed for another reason, or null on success. */
function transactionError(outcome: TxOutcome): PerTransactionError | null {
  if (outcome.status === 'success') {
    // Safe's execTransaction succeeds even when its inner call fails (with safeTxGas or gasPrice set).
    if (outcome.logs.some((log) => log.topics[0] === executionFailureTopic())) {
      return {
        kind: 'TRANSACTION_REVERTED',
        humanReadableError: 'The Safe executed the transaction but its inner call failed, so nothing was transferred.',
        revertReason: 'ExecutionFailure',
      }
    }
    return null
  }
  const message = outcome.error?.message ?? 'execution failed'
  // Nodes report running out of gas like a bare revert; using up the whole given limit tells them apart.
  if (outcome.tx.gas !== null && outcome.gasUsed >= outcome.tx.gas && outcome.returnData === '0x') {
    return {
      kind: 'TRANSACTION_ERROR',
      humanReadableError: `The transaction would run out of gas: its limit of ${outcome.tx.gas} gas is too low.`,
      errorType: 'OutOfGas',
    }
  }
  const reverted = outcome.returnData !== '0x' || /revert|execution failed/i.test(message) || outcome.error?.code === 3
  if (reverted) {
    const decoded = decodeRevert(outcome.returnData)
    return { kind: 'TRANSACTION_REVERTED', humanReadableError: decoded.explanation, revertReason: decoded.reason }
  }
  const errorType = message
    .replace(/[^a-zA-Z0-9 ]/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('')
  return { kind: 'TRANSACTION_ERROR', humanReadableError: `The transaction would fail: ${message}.`, errorType }
}
