/**
 * Validators for response bodies against the reference OpenAPI files (one per API version), for tests.
 * The files are OpenAPI 3.1 with OpenAPI 3.0 leftovers (`nullable`, `discriminator`, `example`): those are turned into
 * plain JSON Schema 2020-12 so ajv can check a body against the schema of one path + method + status.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js'
import { parse } from 'yaml'

export const OPENAPI_DIR = '/work/shared/reference/blowfish-openapi'

/** The reference file for each API version header value. */
export const OPENAPI_FILES: Record<string, string> = {
  '2022-06-01': 'v20220601.yaml',
  '2023-03-08': 'v20230308.yaml',
  '2023-05-17': 'v20230517.yaml',
  '2023-06-05': 'v20230605.yaml',
}

export type BodyValidator = {
  /** True when `body` matches the schema; otherwise `errors` explains where it does not. */
  (body: unknown): boolean
  errors: string[]
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Rewrites OpenAPI's `nullable: true` as a JSON Schema union with null, recursively, and drops `discriminator`. */
export function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (node === null || typeof node !== 'object') return node
  const out: { [key: string]: Json } = {}
  for (const [key, value] of Object.entries(node)) {
    // ajv only understands `discriminator` with extra constraints the reference files do not meet. A discriminated
    // oneOf picks its branch by `kind`, so anyOf states it faithfully even where two branches share a kind (the
    // reference's EvmSimulationTimedOut is declared with kind SIMULATION_FAILED).
    if (key === 'discriminator' || key === 'nullable') continue
    out[key === 'oneOf' && node.discriminator ? 'anyOf' : key] = toJsonSchema(value)
  }
  if (node.nullable !== true) return out
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'], ...nullableEnum(out) }
  if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] }
  return { anyOf: [out, { type: 'null' }] }
}

/** An `enum` must list null too, or a nullable enum still rejects null. */
function nullableEnum(schema: { [key: string]: Json }): { enum?: Json[] } {
  return Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {}
}

/** Preflight's own warning kinds (Safe messages, signatures, approvals, swap orders, lending positions, unsellable tokens), a deliberate difference the server documents. */
const PREFLIGHT_WARNING_KINDS = [
  'MULTISIG_SIGNER_NOT_OWNER',
  'MULTISIG_NONCE_USED',
  'MULTISIG_CHAIN_MISMATCH',
  'MULTISIG_HASH_MISMATCH',
  'MULTISIG_BLIND_SIGNATURE',
  'NON_CANONICAL_ADDRESS',
  'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
  'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
  'LENDING_POSITION_DELEGATION',
  'SIGN_IN_DOMAIN_MISMATCH',
  'SIGN_IN_ACCOUNT_MISMATCH',
  'TOKEN_CANNOT_BE_SOLD',
  'SIMULATION_EVASION',
]

/**
 * The deliberate differences the server documents (src/server/openapi.ts DIFFERENCES) applied to a reference file:
 * seed §2.7 allows a warning's `data` to be an object in 2023-06-05, the version its examples use; warning kinds
 * include Preflight's three for Safe messages (the reference tells clients to expect new kinds); seed §2.6 types a
 * price's `source` as a string (the reference lists three price vendors; Preflight's prices come from Chainlink feeds
 * and Uniswap V3 TWAPs).
 */
function applyDocumentedDifferences(document: Json, version: string): Json {
  const schemas = (document as { components?: { schemas?: Record<string, Json> } }).components?.schemas
  widenPriceSources(document)
  const visit = (node: Json) => {
    if (node === null || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    const kinds = (node.properties as { kind?: { enum?: Json[] } } | undefined)?.kind?.enum
    if (Array.isArray(kinds) && kinds.includes('PERMIT_UNLIMITED_ALLOWANCE') && kinds.includes('COPY_CAT_DOMAIN')) {
      kinds.push(...PREFLIGHT_WARNING_KINDS)
    }
    for (const value of Object.values(node)) visit(value)
  }
  visit(document)
  if (version !== '2023-06-05') return document
  const warning = (schemas?.Warning as { items?: { properties?: { data?: Json } } } | undefined)?.items?.properties
  if (warning?.data) warning.data = { type: ['string', 'object', 'null'] }
  return document
}

/**
 * Preflight's own state change kind, SAFE_CONFIGURATION_CHANGE (docs/scan-api.md): sent from 2023-06-05 on,
 * where the reference reserves the right to add state change kinds and tells clients to fall back to
 * `humanReadableDiff` for kinds they do not know. Its schema, as the engine's type (api/responses.ts) defines it.
 */
export const SAFE_CONFIGURATION_CHANGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'data'],
  properties: {
    kind: { enum: ['SAFE_CONFIGURATION_CHANGE'] },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['contract', 'field', 'before', 'after'],
      properties: {
        contract: {
          type: 'object',
          required: ['address', 'kind'],
          properties: { address: { type: 'string', pattern: '^0x[0-9a-f]{40}$' }, kind: { enum: ['ACCOUNT'] } },
        },
        field: {
          enum: ['singleton', 'owners', 'threshold', 'nonce', 'modules', 'guard', 'moduleGuard', 'fallbackHandler'],
        },
        before: { $ref: '#/components/schemas/PreflightSafeConfigurationValue' },
        after: { $ref: '#/components/schemas/PreflightSafeConfigurationValue' },
      },
    },
  },
}

/**
 * Registers SAFE_CONFIGURATION_CHANGE in a 2023-06-05 document: a schema, and a branch of every EVM state change
 * oneOf or anyOf (the transaction scans' shared one and the message scan's own).
 */
export function addPreflightStateChanges(document: Json): Json {
  const schemas = (document as { components: { schemas: Record<string, Json> } }).components.schemas
  schemas.PreflightSafeConfigurationChange = SAFE_CONFIGURATION_CHANGE_SCHEMA as Json
  schemas.PreflightSafeConfigurationValue = {
    oneOf: [
      { type: 'string', pattern: '^(0x[0-9a-f]{40}|[0-9]+)$' },
      { type: 'array', items: { type: 'string' } },
    ],
  }
  const visit = (node: Json): void => {
    if (Array.isArray(node)) {
      node.forEach(visit)
      return
    }
    if (node === null || typeof node !== 'object') return
    // A discriminated oneOf is an anyOf once toJsonSchema has converted it.
    const rawInfo = node.rawInfo as { oneOf?: Json[]; anyOf?: Json[] } | undefined
    const branches = rawInfo?.oneOf ?? rawInfo?.anyOf
    if (branches?.some((branch) => JSON.stringify(branch).includes('StateChangeNativeAssetTransfer'))) {
      branches.push({ $ref: '#/components/schemas/PreflightSafeConfigurationChange' })
    }
    Object.values(node).forEach(visit)
  }
  visit(document)
  return document
}

/** Every price `source` (the shared AssetPrice and the copies inlined in message schemas) as any string. */
export function widenPriceSources(node: Json): void {
  if (Array.isArray(node)) {
    node.forEach(widenPriceSources)
    return
  }
  if (node === null || typeof node !== 'object') return
  const properties = node.properties as Record<string, Json> | undefined
  const source = properties?.source as { enum?: Json[] } | undefined
  if (properties && Array.isArray(source?.enum) && source.enum.includes('Coingecko')) {
    properties.source = { type: 'string' }
  }
  for (const value of Object.values(node)) widenPriceSources(value)
}

const loaded = new Map<string, { ajv: Ajv2020; id: string }>()

function load(version: string): { ajv: Ajv2020; id: string } {
  const cached = loaded.get(version)
  if (cached) return cached
  const file = OPENAPI_FILES[version]
  if (!file) throw new Error(`no reference OpenAPI file for version ${version}`)
  const reference = applyDocumentedDifferences(
    toJsonSchema(parse(readFileSync(join(OPENAPI_DIR, file), 'utf8')) as Json),
    version,
  )
  const document = version === '2023-06-05' ? addPreflightStateChanges(reference) : reference
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false })
  const id = `openapi-${version}`
  // The whole document is registered as one schema, so its `#/components/...` refs resolve locally, cycles included.
  ajv.addSchema({ ...(document as object), $id: id }, id)
  const entry = { ajv, id }
  loaded.set(version, entry)
  return entry
}

/** JSON Pointer escaping of one path segment (RFC 6901). */
function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The request examples a reference file carries for `method path`, by name, as the file gives them. */
export function requestExamples(version: string, path: string, method = 'post'): [string, unknown][] {
  const file = OPENAPI_FILES[version]
  if (!file) throw new Error(`no reference OpenAPI file for version ${version}`)
  const document = parse(readFileSync(join(OPENAPI_DIR, file), 'utf8')) as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { examples?: object }> } }>>
  }
  const examples = document.paths[path]?.[method]?.requestBody?.content?.['application/json']?.examples ?? {}
  return Object.entries(examples).map(([name, example]) => [name, (example as { value: unknown }).value])
}

/** A validator for a JSON Schema document already loaded (e.g. the server's own OpenAPI document). */
export function documentValidator(document: object, path: string, method: string, status: number): BodyValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  const id = 'served'
  ajv.addSchema({ ...document, $id: id }, id)
  return compileAt(ajv, id, path, method, status)
}

function compileAt(ajv: Ajv2020, id: string, path: string, method: string, status: number): BodyValidator {
  const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json']
    .map(pointerSegment)
    .join('/')
  const validate = ajv.compile({ $ref: `${id}#/${pointer}/schema` })
  const check = ((body: unknown) => {
    const ok = validate(body) as boolean
    check.errors = ok ? [] : (validate.errors ?? []).map(describe)
    return ok
  }) as BodyValidator
  check.errors = []
  return check
}

/** Returns a validator for the JSON body of `status` on `method path` in the reference file of `version`. */
export function responseValidator(version: string, path: string, method: string, status: number): BodyValidator {
  const { ajv, id } = load(version)
  return compileAt(ajv, id, path, method, status)
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`
}
