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

/** An object met on the walk, with the way back to the top for naming it (the name is only written for a refusal). */
type Visit = { value: object; depth: number; key: string | number | null; parent: Visit | null }

/**
 * What is wrong with a parsed body, as `path: reason`, or null. Iterative, so it cannot overflow the stack it protects,
 * and linear in the size of the body: it runs on every request, so only objects are visited and no path is written
 * unless one is refused.
 */
export function bodyProblem(body: unknown, limit: number = MAX_BODY_DEPTH): string | null {
  if (typeof body !== 'object' || body === null) return null
  const stack: Visit[] = [{ value: body, depth: 0, key: null, parent: null }]
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit
    if (depth >= limit) return `${pathOf(visit)}: nested deeper than ${limit} levels`
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const inner: unknown = value[index]
        if (typeof inner === 'object' && inner !== null) {
          stack.push({ value: inner, depth: depth + 1, key: index, parent: visit })
        }
      }
      continue
    }
    for (const key of Object.keys(value)) {
      const inner: unknown = (value as Record<string, unknown>)[key]
      if (key === '__proto__' || (key === 'constructor' && isObjectWith(inner, 'prototype'))) {
        const at: Visit = { value: {}, depth: depth + 1, key, parent: visit }
        return `${pathOf(at)}: a key that reaches an object's prototype is not accepted`
      }
      if (typeof inner === 'object' && inner !== null)
        stack.push({ value: inner, depth: depth + 1, key, parent: visit })
    }
  }
  return null
}

function isObjectWith(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
}

/** `.name`, `["odd name"]` or `[3]`, as the path of a field is written. */
function segmentOf(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}

function pathOf(visit: Visit): string {
  const keys: (string | number)[] = []
  for (let at: Visit | null = visit; at; at = at.parent) if (at.key !== null) keys.push(at.key)
  keys.reverse()
  const named = keys.slice(0, NAMED_SEGMENTS).map(segmentOf).join('').replace(/^\./, '')
  return keys.length > NAMED_SEGMENTS ? `${named}…` : named || 'body'
}
