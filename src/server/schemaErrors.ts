/** Schema validation errors as the API has always worded bad input: "field: what is wrong", naming the field. */
import type { FastifySchemaValidationError } from 'fastify'

type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring'

/** JSON pointer `/txObjects/0/from` as the field name `txObjects[0].from`. */
function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(
      (name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment),
      '',
    )
}

type VerboseError = FastifySchemaValidationError & { parentSchema?: { description?: string }; data?: unknown }

/**
 * One sentence for the most specific error (the deepest field: inside an anyOf, the branch that got furthest), e.g.
 * `txObjects[0].from: must be a 0x-prefixed 20-byte hex address …`. Headers and path parameters are named as such.
 */
export function describeValidationError(errors: FastifySchemaValidationError[], context: SchemaErrorDataVar): string {
  const useful = (errors as VerboseError[]).filter((error) => !['anyOf', 'oneOf', 'if'].includes(error.keyword))
  const error =
    useful.reduce<VerboseError | undefined>(
      (best, candidate) => (!best || candidate.instancePath.length > best.instancePath.length ? candidate : best),
      undefined,
    ) ?? (errors[0] as VerboseError)
  const params = error.params as Record<string, unknown>
  let field = fieldName(error.instancePath)
  if (error.keyword === 'required')
    field = field ? `${field}.${params.missingProperty}` : String(params.missingProperty)
  const where = field || (context === 'body' ? 'body' : context)
  return `${where}: ${reason(error)}`
}

function reason(error: VerboseError): string {
  const params = error.params as Record<string, unknown>
  const hint = error.parentSchema?.description
  switch (error.keyword) {
    case 'required':
      return 'is required'
    case 'type':
      return `must be ${String(params.type).replaceAll(',', ' or ')}${hint ? ` (${hint})` : ''}`
    case 'pattern':
    case 'minimum':
    case 'maximum':
      return hint ? `must be ${hint}` : (error.message ?? 'is invalid')
    case 'maxItems':
      return `has ${Array.isArray(error.data) ? error.data.length : 'too many'} entries; at most ${params.limit} are accepted${hint ? ` (${hint})` : ''}`
    case 'minItems':
      return `must list at least ${params.limit}`
    case 'maxLength':
      return `is longer than ${params.limit} characters`
    case 'minLength':
      return 'must not be empty'
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`
    default:
      return error.message ?? 'is invalid'
  }
}
