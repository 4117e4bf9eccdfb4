/** JSON.parse that keeps integers beyond 2^53 exact (as decimal strings), for typed data sent as a JSON string. */

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const INTEGER = /^-?\d+$/

/** Parses JSON text; integer literals that a double cannot hold exactly become decimal strings. Throws on bad JSON. */
export function parseJsonLossless(text: string): unknown {
  let out = ''
  let inString = false
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    if (inString) {
      const end = c === '\\' ? i + 2 : i + 1
      if (c === '"') inString = false
      out += text.slice(i, end)
      i = end
      continue
    }
    if (c === '"') inString = true
    NUMBER.lastIndex = i
    const literal = c === '-' || (c >= '0' && c <= '9') ? NUMBER.exec(text)?.[0] : undefined
    if (literal) {
      out += INTEGER.test(literal) && !Number.isSafeInteger(Number(literal)) ? `"${literal}"` : literal
      i += literal.length
      continue
    }
    out += c
    i++
  }
  return JSON.parse(out)
}
