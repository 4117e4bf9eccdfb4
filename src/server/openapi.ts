/**
 * The OpenAPI 3.1 document of this server (GET /openapi.json), one per API version as the reference publishes them,
 * built from the same schemas the routes validate and serialise with, so it describes the server as it behaves.
 */
import {
  domainsRequestSchema,
  messageRequestSchema,
  scanParams,
  transactionsRequestSchema,
} from './schemas/requests.ts'
import {
  domainsResponseSchema,
  errorBody,
  messageResponseSchema,
  requestId,
  transactionsResponseSchema,
} from './schemas/responses.ts'
import { API_VERSIONS, type ApiVersion, DEFAULT_API_VERSION } from './versions.ts'

/**
 * Where this server deliberately answers differently from the reference OpenAPI files (the seed spec wins where the
 * two differ). Published in the document's description and in the README.
 */
export const DIFFERENCES = [
  'Presets: `MULTISIG_WALLET` is the preset kind (seed spec); the reference name `GNOSIS_SAFE` is accepted as an alias.',
  'Warnings in 2023-06-05: `data` may be an object (seed spec §2.7); the reference declares a string or null.',
  'Warning kinds: besides the reference kinds, Safe transaction messages can carry `MULTISIG_SIGNER_NOT_OWNER`, ' +
    '`MULTISIG_NONCE_USED`, `MULTISIG_CHAIN_MISMATCH` and `MULTISIG_HASH_MISMATCH`, and Safe messages and Safe ' +
    'approvals by hash `MULTISIG_BLIND_SIGNATURE`, Safe transactions that pay a gas refund out of the Safe ' +
    '`MULTISIG_GAS_REFUND`; as the reference advises, show ' +
    '`message` for a kind you do not know. Signatures can carry `NON_CANONICAL_ADDRESS` (an address in typed data ' +
    'written other than as 0x-hex) and approvals `UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER` (an unlimited allowance to ' +
    'a contract that is no known protocol), and swap orders, swaps, bridge deposits and Hyperliquid sends ' +
    '`TRADE_PROCEEDS_TO_OTHER_ADDRESS` (an order or a swap that pays what it buys, an Across or OP Stack deposit ' +
    'that pays out or refunds, or a Hyperliquid send that pays, to another address than the one that signs or pays). Signatures and transactions that hand a lending position to a ' +
    'contract carry `LENDING_POSITION_DELEGATION` (an Aave credit delegation, a Compound III manager). Sign-In with ' +
    'Ethereum messages carry `SIGN_IN_DOMAIN_MISMATCH` (a sign-in to another site than the one asking) and ' +
    '`SIGN_IN_ACCOUNT_MISMATCH` (a sign-in naming another account than the signer). Transactions that buy a token ' +
    'the simulation cannot sell back to its pool, or only at a heavy tax, carry `TOKEN_CANNOT_BE_SOLD`. A server ' +
    'started with `--probe-environment` also runs transactions as a block runs them (a real gas price and base fee, ' +
    'a wallet’s gas) and adds `SIMULATION_EVASION` when that leaves the user worse off than the simulation; any ' +
    'transaction, permit or order scan adds it when a contract the scan reads writes state when read (a token telling ' +
    'a simulation from a real transaction).',
  'State change kind `SAFE_CONFIGURATION_CHANGE` (a Safe’s singleton, owners, threshold, modules, guards or handler, ' +
    'before and after) is sent from 2023-06-05 on, where the reference reserves new kinds and asks clients to show ' +
    'the `humanReadableDiff` of kinds they do not know; older versions leave it out.',
  'ERC-20 approvals, permits and approvals for all may add `canTakeNow` to their data: what the spender could move at ' +
    'once (the allowance capped by the balance), in base units and dollars where a price is known.',
  'A price’s `source` is `Chainlink` or `UniswapV3` (seed spec §2.6 types it as a string).',
  'Message errors: a typed-data payload that is not valid EIP-712 is answered 200 with error kind `UNSUPPORTED_MESSAGE`, ' +
    'and a simulation the node refused with `UNKNOWN_ERROR`, in every version (the enumerations the reference declares).',
  '`perTransaction[].logs` holds the contracts’ own event logs; the node’s ETH-transfer pseudo-logs (address 0xeeee…) ' +
    'are not logs and are left out (the ETH transfers show as state changes).',
  'Message scans may add `simulationResults.multisig`, `perTransaction` (a Safe transaction message or a call it ' +
    'authorizes), `safeMessage` (a Safe message), `decodedMessage`, and `account` (whose assets the changes are, when ' +
    'not the signer’s: the smart account a user operation runs on).',
  '`riskScore` is sent by /v0/domains in every version (every reference file requires it); `risk_score` only in 2022-06-01.',
  'Errors: every error body is `{error, requestId}`; a bad field is named as "field: reason". 404 for an unknown ' +
    'chain/network, 408 for a body not received in time, 413 over 1 MiB, 429 over a rate limit, 502 when the node ' +
    'fails (naming the chain/network and the kind of failure, never the node), 504 after the scan timeout.',
  'Transaction objects also accept `gas`, `gasPrice`, `maxFeePerGas` and `maxPriorityFeePerGas`, which are judged.',
]

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBody } },
})

const ERROR_RESPONSES = {
  '400': errorResponse('A bad request: the field and why, or an unsupported X-Api-Version (listing the supported)'),
  '401': errorResponse('X-Api-Key missing or not accepted'),
  '404': errorResponse('Unknown path, or a chain/network this server has no node for (listing those it has)'),
  '408': errorResponse('The body did not arrive in time'),
  '413': errorResponse('The body is over 1 MiB'),
  '429': {
    ...errorResponse('Over the per-key rate limit, or too many wrong keys from this address'),
    headers: { 'Retry-After': { description: 'seconds until the limit resets', schema: { type: 'integer' } } },
  },
  '500': errorResponse('A bug in this server (error "Internal Server Error"); quote the requestId'),
  '502': errorResponse('The node for the chain/network failed: "the node for CHAIN/NETWORK failed: KIND"'),
  '503': errorResponse('The server is shutting down; retry on another instance'),
  '504': errorResponse('The scan did not finish within the scan timeout (20 s by default)'),
}

const json = (schema: unknown) => ({ 'application/json': { schema } })

function scanOperation(version: ApiVersion, summary: string, body: unknown, response: unknown, deprecated = false) {
  return {
    summary,
    ...(deprecated ? { deprecated: true } : {}),
    security: [{ ApiKeyAuth: [] }],
    parameters: [
      ...Object.entries(scanParams.properties).map(([name, schema]) => ({
        name,
        in: 'path',
        required: true,
        schema,
      })),
      {
        name: 'language',
        in: 'query',
        description: 'accepted; every answer is in English (Content-Language: en)',
        schema: { type: 'string' },
      },
      {
        name: 'X-Api-Version',
        in: 'header',
        description: `the response shape; this document describes ${version}. Absent means ${DEFAULT_API_VERSION}.`,
        schema: { type: 'string', enum: [...API_VERSIONS], default: DEFAULT_API_VERSION },
      },
    ],
    requestBody: { required: true, content: json(body) },
    responses: { '200': { description: 'The scan result', content: json(response) }, ...ERROR_RESPONSES },
  }
}

const plain = (description: string, schema: unknown, type = 'application/json') => ({
  get: { summary: description, responses: { '200': { description, content: { [type]: { schema } } } } },
})

/** The OpenAPI 3.1 document for `version`. */
export function openApiDocument(version: ApiVersion) {
  const others = API_VERSIONS.filter((other) => other !== version)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Preflight scan API',
      version,
      description: [
        'Simulates EVM transactions and EIP-712 messages and answers with state changes, warnings and an action.',
        `This document describes responses for X-Api-Version ${version}. The server accepts ${API_VERSIONS.join(', ')}; ` +
          `the documents of the others are at ${others.map((other) => `/openapi.json?version=${other}`).join(', ')}.`,
        '',
        'Deliberate differences from the reference API files:',
        ...DIFFERENCES.map((difference) => `- ${difference}`),
      ].join('\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    'x-api-versions': [...API_VERSIONS],
    'x-deliberate-differences': DIFFERENCES,
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    },
    paths: {
      '/{chain}/v0/{network}/scan/transactions': {
        post: scanOperation(
          version,
          'Scan transactions',
          transactionsRequestSchema(version),
          transactionsResponseSchema(version),
        ),
      },
      '/{chain}/v0/{network}/scan/transaction': {
        post: scanOperation(
          version,
          'Scan transactions (the 2022 path)',
          transactionsRequestSchema(version),
          transactionsResponseSchema(version),
          true,
        ),
      },
      '/{chain}/v0/{network}/scan/message': {
        post: scanOperation(version, 'Scan a message', messageRequestSchema(version), messageResponseSchema(version)),
      },
      '/v0/domains': {
        post: {
          summary: 'Check domains against the bundled phishing list',
          security: [{ ApiKeyAuth: [] }],
          requestBody: { required: true, content: json(domainsRequestSchema(version)) },
          responses: {
            '200': { description: 'One result per domain', content: json(domainsResponseSchema(version)) },
            ...ERROR_RESPONSES,
          },
        },
      },
      '/healthz': plain('The process is alive', {
        type: 'object',
        required: ['status', 'requestId'],
        properties: { status: { enum: ['ok'] }, requestId },
      }),
      '/readyz': {
        get: {
          summary: 'Every node answers and serves the chain its name says; the rate-limit store answers',
          responses: {
            '200': { description: 'Ready', content: json(readinessBody) },
            '503': { description: 'Not ready (or draining), naming what is not', content: json(readinessBody) },
          },
        },
      },
      '/metrics': plain('Prometheus metrics', { type: 'string' }, 'text/plain'),
      '/openapi.json': plain('This document; ?version= picks another API version', { type: 'object' }),
      '/docs': plain('This document, browsable', { type: 'string' }, 'text/html'),
    },
  }
}

const readinessBody = {
  type: 'object',
  required: ['status', 'problems', 'requestId'],
  properties: {
    status: { enum: ['ready', 'not ready', 'draining'] },
    problems: {
      type: 'array',
      items: {
        type: 'object',
        required: ['dependency', 'problem'],
        properties: { dependency: { type: 'string' }, problem: { type: 'string' } },
      },
    },
    requestId,
  },
}
