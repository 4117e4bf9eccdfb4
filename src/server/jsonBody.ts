/**
 * A request body as JSON, read once and checked in one walk before any route sees it: nothing nested past a depth the
 * server can copy and validate without overflowing its stack, and no key that would change how the object is read.
 */

/** Deeper than any request a wallet or dapp sends: typed data nesting its 256 allowed struct types stays well within. */
export const MAX_BODY_DEPTH = 512

/** Path segments a refusal names, from the top: enough to find the field, short enough to read. */
const NAMED_SEGMENTS = 4

export type JsonBody = { ok: true; value: unknown } | { ok: false; message: string }

/**
 * Parses `text` and checks the result: a body nested some thousands of levels deep (under 1 MB as `[[[…]]]` in a
 * free-form field such as `metadata`) overflowed the stack where it was copied to a scan thread; a key `__proto__`, or
 * `prototype` inside `constructor`, is the way JSON reaches an object's prototype once code copies it with
 * Object.assign. Each refusal names the field.
 */
export function parseJsonBody(text: string): JsonBody {
  if (text.length === 0) return { ok: false, message: 'body: empty; send a JSON object' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, message: `body: invalid JSON (${(error as Error).message})` }
  }
  const problem = bodyProblem(value)
  return problem ? { ok: false, message: problem } : { ok: true, value }
}

/** A value met on the walk, with the way back to the top for naming it. */
type Visit = { value: unknown; depth: number; segment: string; parent: Visit | null }

/**
 * What is wrong with a parsed body, as `path: reason`, or null. Iterative, so it cannot overflow the stack it protects,
 * and linear in the size of the body.
 */
export function bodyProblem(body: unknown, limit: number = MAX_BODY_DEPTH): string | null {
  const stack: Visit[] = [{ value: body, depth: 0, segment: '', parent: null }]
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit
    if (typeof value !== 'object' || value === null) continue
    if (depth >= limit) return `${pathOf(visit)}: nested deeper than ${limit} levels`
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        stack.push({ value: value[index], depth: depth + 1, segment: `[${index}]`, parent: visit })
      }
      continue
    }
    for (const key of Object.keys(value)) {
      const inner = (value as Record<string, unknown>)[key]
      const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
      const here: Visit = { value: inner, depth: depth + 1, segment, parent: visit }
      if (key === '__proto__' || (key === 'constructor' && isObjectWith(inner, 'prototype'))) {
        return `${pathOf(here)}: a key that reaches an object's prototype is not accepted`
      }
      stack.push(here)
    }
  }
  return null
}

function isObjectWith(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
}

function pathOf(visit: Visit): string {
  const segments: string[] = []
  for (let at: Visit | null = visit; at; at = at.parent) segments.push(at.segment)
  segments.reverse()
  const named = segments
    .slice(1, 1 + NAMED_SEGMENTS)
    .join('')
    .replace(/^\./, '')
  return segments.length > 1 + NAMED_SEGMENTS ? `${named}…` : named || 'body'
}
