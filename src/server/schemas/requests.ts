/**
 * Request schemas of each route and version (seed §2.1–§2.3, §9), declared once: Fastify validates bodies with them
 * and the OpenAPI document publishes them. They check the envelope (types, formats, limits); the engine then checks
 * what a schema cannot say (checksums, typed-data semantics) and names the field the same way.
 */
import { MAX_STATE_OVERRIDES, MAX_TX_OBJECTS } from '../../engine/index.ts'
import type { ApiVersion } from '../versions.ts'

/** The most domains one POST /v0/domains checks. */
export const MAX_DOMAINS = 100
/** The most `presets` entries: a request names the wallets it simulates, a handful at most. */
export const MAX_PRESETS = 20
/** Raw messages longer than this are refused: no wallet shows a megabyte of text to sign. */
export const MAX_RAW_MESSAGE_CHARS = 1_000_000

export const address = {
  type: 'string',
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: 'a 0x-prefixed 20-byte hex address (any case; mixed case must be a valid EIP-55 checksum)',
  examples: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
} as const

const amount = {
  type: ['string', 'integer'],
  pattern: '^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64})$',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    'a non-negative integer up to 2^256-1: a decimal string ("1000"), a 0x-hex string ("0x3e8") or a JSON integer',
  examples: ['1000000000000000000', '0xde0b6b3a7640000'],
} as const

const hexBytes = {
  type: 'string',
  pattern: '^0x([0-9a-fA-F]{2})*$',
  description: '0x-prefixed hex bytes with an even number of hex digits ("0x" for none)',
} as const

const orNull = <T extends { type: string | readonly string[] }>(schema: T) => ({
  ...schema,
  type: [...(Array.isArray(schema.type) ? schema.type : [schema.type]), 'null'],
})

const metadata = {
  type: 'object',
  required: ['origin'],
  properties: {
    origin: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'the URL of the requesting application, e.g. "https://app.example.org"',
    },
  },
  description: 'where the request comes from',
} as const

const txObject = {
  type: 'object',
  required: ['from'],
  properties: {
    from: address,
    to: { ...orNull(address), description: 'the recipient; absent or null for a contract creation' },
    data: orNull(hexBytes),
    value: orNull(amount),
    gas: orNull(amount),
    gasPrice: orNull(amount),
    maxFeePerGas: orNull(amount),
    maxPriorityFeePerGas: orNull(amount),
  },
  description: 'one transaction; fee fields are judged (a fee far above the base fee is a warning), not charged',
} as const

const simulatorConfig = {
  type: ['object', 'null'],
  properties: {
    blockNumber: orNull(amount),
    stateOverrides: {
      type: ['object', 'null'],
      properties: {
        nativeBalances: {
          type: ['array', 'null'],
          maxItems: MAX_STATE_OVERRIDES,
          items: { type: 'object', required: ['address', 'value'], properties: { address, value: amount } },
        },
        storage: {
          type: ['array', 'null'],
          maxItems: MAX_STATE_OVERRIDES,
          items: {
            type: 'object',
            required: ['address', 'slot', 'value'],
            properties: { address, slot: amount, value: amount },
          },
        },
      },
    },
    presets: {
      type: ['array', 'null'],
      maxItems: MAX_PRESETS,
      items: {
        type: 'object',
        required: ['kind', 'walletAddress'],
        properties: {
          kind: {
            type: 'string',
            enum: ['MULTISIG_WALLET', 'GNOSIS_SAFE'],
            description: 'MULTISIG_WALLET (seed spec); GNOSIS_SAFE is accepted as its alias',
          },
          walletAddress: address,
        },
      },
    },
  },
} as const

const transactionsBody = {
  type: 'object',
  required: ['txObjects', 'userAccount', 'metadata'],
  properties: {
    txObjects: { type: 'array', minItems: 1, maxItems: MAX_TX_OBJECTS, items: txObject },
    userAccount: address,
    metadata,
    simulatorConfig,
  },
} as const

/** 2022-06-01 scanned one transaction: `txObject`, or a `txObjects` list of one. */
const singleTransactionBody = {
  type: 'object',
  required: ['userAccount', 'metadata'],
  properties: {
    txObject: txObject,
    txObjects: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: txObject,
      description: 'version 2022-06-01 scans one transaction; send X-Api-Version 2023-03-08 or later for several',
    },
    userAccount: address,
    metadata,
    simulatorConfig,
  },
} as const

const typedData = {
  type: ['object', 'string'],
  description:
    'the EIP-712 payload {types, domain, primaryType, message}, or its JSON text as eth_signTypedData_v4 carries it; ' +
    'a payload that is not valid typed data is answered 200 with simulationResults.error',
} as const

const messageBody = {
  type: 'object',
  required: ['message', 'userAccount', 'metadata'],
  properties: {
    message: {
      type: 'object',
      required: ['kind'],
      properties: {
        kind: { type: 'string', enum: ['SIGN_TYPED_DATA', 'SIGN_MESSAGE', 'PERSONAL_SIGN'] },
        data: typedData,
        rawMessage: {
          type: 'string',
          maxLength: MAX_RAW_MESSAGE_CHARS,
          description: 'for SIGN_MESSAGE and PERSONAL_SIGN: the message, 0x-hex bytes or text',
        },
      },
    },
    userAccount: address,
    metadata,
  },
} as const

const domainList = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_DOMAINS,
  items: { type: 'string', minLength: 1, maxLength: 2048, description: 'a URL or a bare domain' },
} as const

const domainsBody = {
  type: 'object',
  required: ['domains'],
  properties: { domains: domainList },
  description: 'send {"domains": [...]}; a plain list of domains is accepted only by version 2022-06-01',
} as const

/** The transaction scan body a version accepts. */
export function transactionsRequestSchema(version: ApiVersion) {
  return version === '2022-06-01' ? singleTransactionBody : transactionsBody
}

/** The message scan body (the same in every version). */
export function messageRequestSchema(_version: ApiVersion) {
  return messageBody
}

/** The domains body: `{domains}`, or before 2023-03-08 also a plain list of strings (seed §9, breaking). */
export function domainsRequestSchema(version: ApiVersion) {
  return version === '2022-06-01' ? { anyOf: [domainsBody, domainList] } : domainsBody
}

/** Path parameters of the scan routes. */
export const scanParams = {
  type: 'object',
  required: ['chain', 'network'],
  properties: {
    chain: { type: 'string', pattern: '^[a-z0-9-]{1,40}$', description: 'chain name, e.g. ethereum' },
    network: { type: 'string', pattern: '^[a-z0-9-]{1,40}$', description: 'network name, e.g. mainnet' },
  },
} as const

/** The `language` query parameter: accepted, answered in English (see Content-Language). */
export const scanQuery = {
  type: 'object',
  properties: { language: { type: 'string', maxLength: 20, description: 'answers are in English whatever is asked' } },
} as const
