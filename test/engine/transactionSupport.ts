/**
 * Shared by the transaction scan tests: the reference 2023-06-05 schema check of a transaction scan response, and a
 * scan of one transaction on the devnet with the contracts it needs deployed.
 */
import { type Abi, type Address, getAddress, type Hex } from 'viem'
import { expect } from 'vitest'
import type { TxRequest } from '../../src/devnet/dapp/requests.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactions } from '../../src/engine/index.ts'
import { responseValidator } from '../support/openapi.ts'
import { devnetClient, scanRequest } from './protocolSupport.ts'

const schema = responseValidator('2023-06-05', '/ethereum/v0/mainnet/scan/transactions', 'post', 200)

/** Preflight's own warning kinds (docs/engine-checks.md); the reference tells clients to show `message` for kinds they do not know. */
const OWN_KINDS = new Set([
  'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
  'MULTISIG_BLIND_SIGNATURE',
  'MULTISIG_GAS_REFUND',
  'LENDING_POSITION_DELEGATION',
  'TOKEN_CANNOT_BE_SOLD',
  'SIMULATION_EVASION',
])

/**
 * Every successful response must match the reference 2023-06-05 schema. Two tolerances: Preflight's own warning kinds
 * are checked as if they were a reference kind; and the reference gives SIMULATION_FAILED to two oneOf branches
 * (timed-out and failed) and relies on its discriminator, which the validator drops, so a body matching both branches
 * ("passingSchemas": [0,1]) is ambiguous there, not invalid, and that error is ignored. Every other error fails.
 */
export function validateTransactionsResponse(response: ScanTransactionsResponse): void {
  const warnings = response.warnings.map((w) => (OWN_KINDS.has(w.kind) ? { ...w, kind: 'SUSPECTED_MALICIOUS' } : w))
  schema({ ...response, warnings })
  const errors = schema.errors.filter(
    (error) => !/must match exactly one schema in oneOf \{"passingSchemas":\[\d+,\d+\]\}/.test(error),
  )
  expect(errors, errors.join('\n')).toEqual([])
}

/**
 * Scans `tx` on the devnet at `rpcUrl` as its sender's own request, and checks the answer against the reference;
 * `chainId` picks the lists the engine judges by (1: mainnet's, as on a fork of it).
 */
export async function scanOnDevnet(rpcUrl: string, tx: TxRequest, chainId = 31337): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(scanRequest(tx), { rpcUrl, chainId })
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** The lines a scan shows for `account` ("Receive 100 USDC"), in its order. */
export function accountDiffs(response: ScanTransactionsResponse, account: Address): string[] {
  const changes = response.simulationResults.aggregated.expectedStateChanges[account.toLowerCase() as Address] ?? []
  return changes.map((change) => change.humanReadableDiff)
}

/**
 * Deploys a compiled contract from a devnet account, sending it `value` wei, and returns its address; throws when the
 * deployment fails.
 */
export async function deployOnDevnet(
  rpcUrl: string,
  deployer: Address,
  contract: { abi: Abi; bytecode: Hex },
  args: unknown[] = [],
  value = 0n,
): Promise<Address> {
  const client = devnetClient(rpcUrl)
  const hash = await client.deployContract({ ...contract, args, value, account: deployer, chain: null })
  const receipt = await waitForReceipt(client, hash)
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('the contract did not deploy')
  return getAddress(receipt.contractAddress)
}
