/**
 * Shared by the message scan tests: a validator for the reference 2023-06-05 message 200 schema with the tolerances
 * Preflight's documented extensions need, and a way to scan with the devnet's RPC.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020.js'
import { type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http, maxUint256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { expect } from 'vitest'
import { parse } from 'yaml'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { type ScanMessageResponse, type StateChange, scanMessageWithStats } from '../../src/engine/index.ts'
import {
  addPreflightStateChanges,
  type Json,
  OPENAPI_DIR,
  OPENAPI_FILES,
  toJsonSchema,
  widenPriceSources,
} from '../support/openapi.ts'

type Schema = Record<string, unknown> & { [key: string]: Schema | Schema[] | unknown }

/**
 * The reference schema of a message scan 200 response, widened only where the seed spec or Preflight's documented
 * extensions go beyond it:
 * - warning `data` may be an object (seed §2.7 says "object or null"; the reference says string or null);
 * - warning kinds MULTISIG_SIGNER_NOT_OWNER / MULTISIG_CHAIN_MISMATCH / MULTISIG_NONCE_USED / NON_CANONICAL_ADDRESS /
 *   UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER (Preflight's own; the reference tells clients to fall back to `message` for unknown kinds);
 * - error kinds INVALID_MESSAGE (malformed typed data) and SIMULATION_FAILED (a Safe transaction that reverts);
 * - ERC721_APPROVAL (an NFT permit) and ERC20_APPROVAL (what a signed Safe transaction or relayed call approves), in
 *   the transaction scans' shape;
 * - warning kinds MULTISIG_HASH_MISMATCH, MULTISIG_BLIND_SIGNATURE and MULTISIG_GAS_REFUND and state change kind
 *   SAFE_CONFIGURATION_CHANGE
 *   (Preflight's own, for Safe messages; the reference tells clients to fall back to `humanReadableDiff` for unknown
 *   kinds), TRADE_PROCEEDS_TO_OTHER_ADDRESS (Preflight's own, for swap orders) and LENDING_POSITION_DELEGATION
 *   (Preflight's own, for lending positions handed to a contract), SIGN_IN_DOMAIN_MISMATCH and SIGN_IN_ACCOUNT_MISMATCH
 *   (Preflight's own, for Sign-In with Ethereum messages), SIMULATION_EVASION (Preflight's own, for a token whose reads
 *   write state).
 * - a price's `source` is any string (seed §2.6; Preflight's are Chainlink and UniswapV3).
 * Extra `simulationResults` fields (multisig, safeMessage, perTransaction, decodedMessage) need no change: the schema allows them.
 */
export function messageResponseValidator(): (body: unknown) => string[] {
  const document = addPreflightStateChanges(
    toJsonSchema(parse(readFileSync(join(OPENAPI_DIR, OPENAPI_FILES['2023-06-05'] as string), 'utf8')) as Json),
  )
  widenPriceSources(document)
  const schemas = (document as { components: { schemas: Record<string, Schema> } }).components.schemas
  const warningItem = (schemas.Warning as { items: Schema }).items as { properties: Record<string, Schema> }
  ;(warningItem.properties.kind as { enum: string[] }).enum.push(
    'MULTISIG_SIGNER_NOT_OWNER',
    'MULTISIG_CHAIN_MISMATCH',
    'MULTISIG_NONCE_USED',
    'NON_CANONICAL_ADDRESS',
    'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
    'MULTISIG_HASH_MISMATCH',
    'MULTISIG_BLIND_SIGNATURE',
    'MULTISIG_GAS_REFUND',
    'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
    'LENDING_POSITION_DELEGATION',
    'SIGN_IN_DOMAIN_MISMATCH',
    'SIGN_IN_ACCOUNT_MISMATCH',
    'SIMULATION_EVASION',
  )
  warningItem.properties.data = { type: ['string', 'object', 'null'] }
  const pointer = [
    'paths',
    '/ethereum/v0/mainnet/scan/message',
    'post',
    'responses',
    '200',
    'content',
    'application/json',
  ]
  const schema = pointer.reduce((node: Schema, key) => node[key] as Schema, document as Schema).schema as {
    properties: { simulationResults: { properties: Record<string, Schema> } }
  }
  const results = schema.properties.simulationResults.properties
  ;((results.error as Schema).properties as { kind: { enum: string[] } }).kind.enum.push(
    'INVALID_MESSAGE',
    'SIMULATION_FAILED',
  )
  // toJsonSchema turns the reference's discriminated oneOf into anyOf.
  const changes = results.expectedStateChanges as { items: { properties: { rawInfo: { anyOf: Schema[] } } } }
  changes.items.properties.rawInfo.anyOf.push(
    { $ref: '#/components/schemas/EvmStateChangeErc721Approval' },
    { $ref: '#/components/schemas/EvmStateChangeErc20Approval' },
  )
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false })
  // Registered whole, so the `#/components/...` references resolve inside the document.
  ajv.addSchema({ ...(document as object), $id: 'message' }, 'message')
  const escaped = pointer.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
  const validate = ajv.compile({ $ref: `message#/${escaped}/schema` })
  return (response) => {
    if (validate(response)) return []
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
  }
}

/** Scans and insists on a response (the tests that use it are about successful scans). */
export async function scanOk(
  request: unknown,
  rpcUrl: string,
  now?: number,
): Promise<{ response: ScanMessageResponse; roundTrips: number }> {
  const { outcome, stats } = await scanMessageWithStats(request, { rpcUrl, ...(now ? { now: () => now } : {}) })
  if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
  return { response: outcome.response, roundTrips: stats.roundTrips }
}

/** Each state change's sentence, in order. */
export const diffsOf = (changes: StateChange[]): string[] => changes.map((change) => change.humanReadableDiff)

/** The `amount` (before and after, as the response sends them) of the scan's `index`th state change, if it has one. */
export const amountOf = (response: ScanMessageResponse, index: number): unknown =>
  (response.simulationResults.expectedStateChanges[index]?.rawInfo.data as { amount?: unknown } | undefined)?.amount

/** The scan's before → after for the user's balance of `symbol`, as numbers in base units. */
export function claimedBalance(changes: StateChange[], symbol: string): { before: bigint; after: bigint } | undefined {
  const change = changes.find((c) => c.humanReadableDiff.endsWith(` ${symbol}`))
  const amount = (change?.rawInfo.data as { amount?: { before: string; after: string } } | undefined)?.amount
  return amount && { before: BigInt(amount.before), after: BigInt(amount.after) }
}

/**
 * A scanner of typed data the user signs on `origin`: each response validated against the reference schema and made
 * in one round trip, as every order scan is.
 */
export function orderScanner(user: () => Address, origin: string, rpcUrl: () => string, now?: number) {
  const validate = messageResponseValidator()
  return async (payload: unknown): Promise<ScanMessageResponse> => {
    const request = { message: { kind: 'SIGN_TYPED_DATA', data: payload }, userAccount: user(), metadata: { origin } }
    const { response, roundTrips } = await scanOk(request, rpcUrl(), now)
    expect(validate(response)).toEqual([])
    expect(roundTrips).toBe(1)
    return response
  }
}

/** `owner` approves `spender` for all of `token`, and the approval is mined: what a swap or order protocol needs. */
export async function approveMax(rpcUrl: string, owner: { privateKey: Hex }, token: Address, spender: Address) {
  const chain = createPublicClient({ chain: foundry, transport: http(rpcUrl), pollingInterval: 20 })
  const wallet = createWalletClient({
    chain: foundry,
    transport: http(rpcUrl),
    account: privateKeyToAccount(owner.privateKey),
  })
  const hash = await wallet.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, maxUint256],
  })
  await waitForReceipt(chain, hash)
}
