/**
 * How deeply a request body nests. A body nested some thousands of levels deep (under 1 MB as `[[[…]]]` in a free-form
 * field such as `metadata`) overflowed the stack where it was copied to a scan thread, a 500 for what is bad input.
 */

/** Deeper than any request a wallet or dapp sends: typed data nesting its 256 allowed struct types stays well within. */
export const MAX_BODY_DEPTH = 512

/** Path segments a refusal names, from the top: enough to find the field, short enough to read. */
const NAMED_SEGMENTS = 4

/** A value met on the walk, with the way back to the top for naming it. */
type Visit = { value: unknown; depth: number; segment: string; parent: Visit | null }

/**
 * The path of the first value nested deeper than `limit` levels (as `metadata.extra[0][0]…`), or null when none is.
 * Iterative, so it cannot overflow the stack it protects, and linear in the size of the body.
 */
export function pathPastDepth(body: unknown, limit: number = MAX_BODY_DEPTH): string | null {
  const stack: Visit[] = [{ value: body, depth: 0, segment: '', parent: null }]
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit
    if (typeof value !== 'object' || value === null) continue
    if (depth >= limit) return pathOf(visit)
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        stack.push({ value: value[index], depth: depth + 1, segment: `[${index}]`, parent: visit })
      }
    } else {
      for (const key of Object.keys(value)) {
        const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
        stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, segment, parent: visit })
      }
    }
  }
  return null
}

function pathOf(visit: Visit): string {
  const segments: string[] = []
  for (let at: Visit | null = visit; at; at = at.parent) segments.push(at.segment)
  segments.reverse()
  const named = segments
    .slice(1, 1 + NAMED_SEGMENTS)
    .join('')
    .replace(/^\./, '')
  return segments.length > 1 + NAMED_SEGMENTS ? `${named}…` : named
}
