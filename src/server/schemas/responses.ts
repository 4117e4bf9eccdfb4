/**
 * Response schemas of each route and version, as render.ts and domains.ts shape them. The OpenAPI document publishes
 * them, Fastify serialises the error and domain bodies with them, and test/server/openapi.test.ts checks live scan
 * responses against them. Deliberate differences from the reference files are listed in DIFFERENCES.
 */
import type { ApiVersion } from '../versions.ts'
import { address } from './requests.ts'

type Schema = Record<string, unknown>

const string = { type: 'string' } as const
const decimal = { type: 'string', pattern: '^-?[0-9]+$', description: 'a decimal integer in base units' } as const
const hex = { type: 'string', pattern: '^0x[0-9a-f]*$' } as const
const lowerAddress = { ...address, pattern: '^0x[0-9a-f]{40}$', description: 'a lowercase 20-byte hex address' }
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })
const object = (properties: Record<string, unknown>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  required,
  properties,
})

export const requestId = { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'this request, as in X-Request-Id' }

/** Every error answer: what is wrong (for a bad field, "field: reason") and the request id to quote. */
export const errorBody = object({ error: string, requestId })

const action = { type: 'string', enum: ['NONE', 'WARN', 'BLOCK'] }

/**
 * Warning kinds: the reference's, plus Preflight's own (for Safe messages, signatures, approvals, swap orders and
 * lending positions).
 */
const WARNING_KINDS = [
  'APPROVAL_TO_EOA',
  'BLOCKLISTED_DOMAIN_CROSS_ORIGIN',
  'BLUR_BULK_ORDER_NOT_ON_BLUR',
  'BLUR_V2_ORDER_NOT_ON_BLUR',
  'BULK_APPROVALS_REQUEST',
  'COPY_CAT_DOMAIN',
  'DANGLING_APPROVAL',
  'IMBALANCED_DOLLAR_VALUE',
  'ETH_SIGN_TX_HASH',
  'KNOWN_MALICIOUS',
  'PERMIT_NO_EXPIRATION',
  'PERMIT_UNLIMITED_ALLOWANCE',
  'POISONED_ADDRESS',
  'SET_OWNER_AUTHORITY',
  'SUSPECTED_MALICIOUS',
  'TOO_MANY_TRANSACTIONS',
  'TRADE_FOR_NOTHING',
  'TRADE_FOR_UNVERIFIED_NFT',
  'TRANSFERRING_ERC20_TO_OWN_CONTRACT',
  'TRUSTED_BLOCKLIST_DOMAIN',
  'UNLIMITED_ALLOWANCE_TO_NFTS',
  'UNUSUAL_GAS_CONSUMPTION',
  'USER_ACCOUNT_OWNER_CHANGE',
  'RELIABLE_SIMULATION_NOT_POSSIBLE',
  'MULTISIG_SIGNER_NOT_OWNER',
  'MULTISIG_CHAIN_MISMATCH',
  'MULTISIG_NONCE_USED',
  'MULTISIG_HASH_MISMATCH',
  'MULTISIG_BLIND_SIGNATURE',
  'MULTISIG_GAS_REFUND',
  'NON_CANONICAL_ADDRESS',
  'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
  'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
  'LENDING_POSITION_DELEGATION',
  'SIGN_IN_DOMAIN_MISMATCH',
  'SIGN_IN_ACCOUNT_MISMATCH',
  'TOKEN_CANNOT_BE_SOLD',
  'SIMULATION_EVASION',
]

/** Warnings: no `data` in 2022-06-01 and 2023-03-08; a string or null in 2023-05-17; also an object from 2023-06-05. */
function warnings(version: ApiVersion): Schema {
  const base = {
    kind: { type: 'string', enum: WARNING_KINDS },
    message: string,
    severity: { type: 'string', enum: ['WARNING', 'CRITICAL'] },
  }
  const data =
    version === '2023-06-05'
      ? { data: { type: ['string', 'object', 'null'] } }
      : version === '2023-05-17'
        ? { data: { type: ['string', 'null'] } }
        : {}
  return { type: 'array', items: object({ ...base, ...data }) }
}

const accountInfo = object({ address: lowerAddress, kind: { type: 'string', enum: ['ACCOUNT'] } })
const amountChange = object({ before: decimal, after: decimal })
const price = nullable(
  object({
    source: string,
    updatedAt: { type: 'integer', description: 'Unix seconds' },
    dollarValuePerToken: { type: 'number' },
  }),
)
const snakePrice = nullable(
  object({ source: string, last_updated_at: { type: 'integer' }, dollar_value_per_token: { type: 'number' } }),
)
const imageUrl = { type: ['string', 'null'] }

function fungibleAsset(legacy: boolean): Schema {
  return object(
    {
      address: lowerAddress,
      symbol: string,
      name: string,
      decimals: { type: 'integer' },
      verified: { type: 'boolean' },
      lists: { type: 'array', items: string },
      imageUrl,
      price: legacy ? snakePrice : price,
    },
    ['address', 'symbol', 'name', 'decimals', 'verified', 'imageUrl', 'price'],
  )
}

const nftAsset = object({ address: lowerAddress, name: string, price }, ['address', 'name', 'price'])

type ChangeStyle = {
  /** 2022-06-01: names repeated in fungible data, snake_case prices, NFT previews, no NFT counterparty. */
  legacy: boolean
  /** Message scans name the token contract and keep NFT assets. */
  message: boolean
  /** 2023-06-05 transaction scans: counterparty instead of contract, NFT assets instead of name/symbol/assetPrice. */
  keyed: boolean
  /** From 2023-06-05: Preflight's SAFE_CONFIGURATION_CHANGE (render.ts leaves it out of older versions). */
  safe: boolean
}

/** One state change kind: `rawInfo` = {kind, data}, data shaped by version and scan type as render.ts does. */
function change(kind: string, data: Record<string, unknown>, required: string[]): Schema {
  return object({ kind: { type: 'string', enum: [kind] }, data: object(data, required) })
}

function fungibleChanges(style: ChangeStyle): Schema[] {
  const asset = fungibleAsset(style.legacy)
  const named = style.legacy ? { name: string, symbol: string, decimals: { type: 'integer' } } : {}
  const namedRequired = Object.keys(named)
  const transferParty = style.keyed ? { counterparty: nullable(accountInfo) } : { contract: accountInfo }
  const transfer = (kind: string) =>
    change(kind, { amount: amountChange, asset, ...transferParty, ...named }, ['amount', 'asset', ...namedRequired])
  const contract = style.keyed ? {} : { contract: accountInfo }
  return [
    transfer('NATIVE_ASSET_TRANSFER'),
    transfer('ERC20_TRANSFER'),
    change(
      'ERC20_APPROVAL',
      { owner: accountInfo, spender: accountInfo, amount: amountChange, asset, ...contract, ...named },
      ['owner', 'spender', 'amount', 'asset', ...Object.keys(contract), ...namedRequired],
    ),
    change(
      'ERC20_PERMIT',
      {
        contract: accountInfo,
        owner: accountInfo,
        spender: accountInfo,
        amount: decimal,
        nonce: decimal,
        deadline: { type: ['integer', 'null'], description: 'Unix seconds; null when the permit never expires' },
        asset,
        ...named,
      },
      ['contract', 'owner', 'spender', 'amount', 'nonce', 'deadline', 'asset', ...namedRequired],
    ),
  ]
}

function nftChanges(style: ChangeStyle): Schema[] {
  const metadata = object(
    style.legacy
      ? { rawImageUrl: string, previews: object({ small: imageUrl, medium: imageUrl, large: imageUrl }) }
      : { rawImageUrl: string },
  )
  const tokenId = { type: ['string', 'null'], pattern: '^[0-9]+$' }
  // Before 2023-06-05 (and in message scans) NFT changes name the collection beside or instead of the asset.
  const collection = style.keyed
    ? { asset: nftAsset }
    : {
        contract: accountInfo,
        name: string,
        symbol: string,
        assetPrice: style.legacy ? snakePrice : price,
        ...(style.message ? { asset: nftAsset } : {}),
      }
  const collectionRequired = Object.keys(collection).filter((key) => key !== 'symbol')
  const party = style.legacy ? {} : { counterparty: nullable(accountInfo) }
  const nft = (kind: string, data: Record<string, unknown>, required: string[]) =>
    change(kind, { ...data, ...collection }, [...required, ...collectionRequired])
  return [
    nft('ERC721_TRANSFER', { amount: amountChange, metadata, tokenId, ...party }, ['amount', 'metadata', 'tokenId']),
    nft('ERC721_APPROVAL', { amount: amountChange, metadata, owner: accountInfo, spender: accountInfo, tokenId }, [
      'amount',
      'metadata',
      'owner',
      'spender',
      'tokenId',
    ]),
    nft('ERC721_APPROVAL_FOR_ALL', { amount: amountChange, owner: accountInfo, spender: accountInfo }, [
      'amount',
      'owner',
      'spender',
    ]),
    nft('ERC1155_TRANSFER', { amount: amountChange, metadata, tokenId, ...party }, ['amount', 'metadata', 'tokenId']),
    nft('ERC1155_APPROVAL_FOR_ALL', { amount: amountChange, owner: accountInfo, spender: accountInfo }, [
      'amount',
      'owner',
      'spender',
    ]),
  ]
}

const safeValue = {
  description: 'an address or a number as a decimal string, or a list of addresses (owners, modules)',
  anyOf: [string, { type: 'array', items: string }],
}
const safeConfigurationChange = change(
  'SAFE_CONFIGURATION_CHANGE',
  {
    contract: accountInfo,
    field: {
      type: 'string',
      enum: ['singleton', 'owners', 'threshold', 'nonce', 'modules', 'guard', 'moduleGuard', 'fallbackHandler'],
    },
    before: safeValue,
    after: safeValue,
  },
  ['contract', 'field', 'before', 'after'],
)

function stateChanges(style: ChangeStyle): Schema {
  return {
    type: 'array',
    items: object({
      humanReadableDiff: { type: 'string', description: 'the change in plain English, e.g. "Send 1 ETH"' },
      rawInfo: {
        oneOf: [...fungibleChanges(style), ...nftChanges(style), ...(style.safe ? [safeConfigurationChange] : [])],
      },
    }),
  }
}

const serializedValue = {
  description: 'an ABI value as a string, or a list of them for arrays and tuples',
  anyOf: [string, { type: 'array' }],
}
const decodedArguments = { type: 'array', items: object({ name: string, paramType: string, value: serializedValue }) }
const protocol = nullable(
  object({
    trustLevel: { type: 'string', enum: ['KNOWN', 'TRUSTED', 'NATIVE'] },
    name: string,
    description: string,
    imageUrl,
    websiteUrl: string,
  }),
)

const perTransaction = {
  type: 'array',
  items: object({
    error: nullable({
      oneOf: [
        object({ kind: { enum: ['TRANSACTION_REVERTED'] }, humanReadableError: string, revertReason: string }),
        object({ kind: { enum: ['TRANSACTION_ERROR'] }, humanReadableError: string, errorType: string }),
      ],
    }),
    gas: object({ gasLimit: { type: ['string', 'null'] } }),
    protocol,
    logs: {
      type: 'array',
      description: "the contracts' own event logs (the node's ETH-transfer pseudo-logs are left out)",
      items: object({ address: lowerAddress, topics: { type: 'array', items: hex }, data: hex }),
    },
    decodedLogs: {
      type: 'array',
      items: nullable(object({ name: string, signature: string, params: decodedArguments })),
    },
    decodedCalldata: nullable(
      object({
        kind: { enum: ['FUNCTION'] },
        data: object({ contract: lowerAddress, functionName: string, arguments: decodedArguments }),
      }),
    ),
  }),
}

const humanError = (kinds: string[], extra: Record<string, unknown> = {}) =>
  object({ kind: { type: 'string', enum: kinds }, humanReadableError: string, ...extra })

/** The transaction scan response of `version` (render.ts renderTransactions). */
export function transactionsResponseSchema(version: ApiVersion): Schema {
  const head = { requestId, action, warnings: warnings(version) }
  if (version === '2022-06-01') {
    return object({
      ...head,
      simulationResults: object({
        expectedStateChanges: stateChanges({ legacy: true, message: false, keyed: false, safe: false }),
        error: nullable({
          oneOf: [
            humanError(['UNKNOWN_ERROR', 'INVALID_TRANSACTION']),
            humanError(['SIMULATION_FAILED'], { parsedErrorMessage: string }),
          ],
        }),
        gas: object({ gasLimit: { type: ['string', 'null'] } }),
      }),
    })
  }
  if (version === '2023-06-05') {
    return object({
      ...head,
      simulationResults: object({
        aggregated: object({
          error: nullable({
            oneOf: [
              humanError(['SIMULATION_FAILED'], { reason: string }),
              humanError(['SIMULATION_TIMED_OUT', 'UNKNOWN_ERROR']),
            ],
          }),
          expectedStateChanges: {
            type: 'object',
            description: 'state changes keyed by each affected account (lowercase address)',
            propertyNames: lowerAddress,
            additionalProperties: stateChanges({ legacy: false, message: false, keyed: true, safe: true }),
          },
          userAccount: lowerAddress,
        }),
        perTransaction,
      }),
    })
  }
  return object({
    ...head,
    simulationResults: object({
      aggregated: object({
        error: nullable({
          oneOf: [humanError(['SIMULATION_FAILED'], { reason: string }), humanError(['UNKNOWN_ERROR'])],
        }),
        expectedStateChanges: stateChanges({ legacy: false, message: false, keyed: false, safe: false }),
      }),
      perTransaction,
    }),
  })
}

/** The Safe a multisig message is for, as both Safe extensions name it. */
const safeFields = {
  wallet: lowerAddress,
  version: string,
  owners: { type: 'array', items: lowerAddress },
  threshold: { type: 'integer' },
}

const multisig = object({
  ...safeFields,
  currentNonce: decimal,
  messageNonce: decimal,
  safeTxHash: hex,
  domainHash: hex,
  messageHash: hex,
})

const safeMessage = object({
  ...safeFields,
  message: hex,
  text: { type: ['string', 'null'] },
  safeMessageHash: hex,
  domainHash: hex,
  messageHash: hex,
})

/** The message scan response of `version` (render.ts renderMessage). */
export function messageResponseSchema(version: ApiVersion): Schema {
  const legacy = version === '2022-06-01'
  const results: Record<string, unknown> = {
    expectedStateChanges: stateChanges({ legacy, message: true, keyed: false, safe: version === '2023-06-05' }),
    error: nullable(humanError(['UNSUPPORTED_ORDER_TYPE', 'UNKNOWN_ERROR', 'UNSUPPORTED_MESSAGE'])),
    ...(legacy ? {} : { protocol }),
  }
  const extensions = {
    multisig: { ...multisig, description: "Preflight's addition: a Safe transaction message's wallet and hashes" },
    safeMessage: {
      ...safeMessage,
      description: "Preflight's addition: a Safe message's wallet, the bytes the Safe would sign and the hashes",
    },
    perTransaction: { ...perTransaction, description: "Preflight's addition: the Safe message's execTransaction" },
    decodedMessage: {
      ...object({
        primaryType: string,
        fields: { type: 'array', items: object({ name: string, type: string, value: serializedValue }) },
      }),
      description: "Preflight's addition: the message's fields for display",
    },
    account: {
      ...lowerAddress,
      description:
        "Preflight's addition: whose assets the changes are when not the signer's (the smart account a user " +
        'operation runs on, the sender of a relayed request)',
    },
  }
  return object({
    requestId,
    action,
    warnings: warnings(version),
    simulationResults: {
      type: 'object',
      required: Object.keys(results),
      properties: { ...results, ...extensions },
    },
  })
}

/** The domains response of `version` (domains.ts renderResult). */
export function domainsResponseSchema(version: ApiVersion): Schema {
  const riskScore = { type: ['number', 'null'], description: '1 blocked, 0.5 look-alike, 0 trusted, null unknown' }
  const item = object({
    domain: string,
    status: { type: 'string', enum: ['PROCESSED', 'UNPROCESSABLE'] },
    riskScore,
    ...(version === '2022-06-01' ? { risk_score: riskScore } : {}),
    labels: { type: 'array', items: string },
    warnings: warnings(version >= '2023-05-17' ? '2023-05-17' : version),
  })
  return { type: 'array', items: item }
}
