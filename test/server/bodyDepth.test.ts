import { describe, expect, it } from 'vitest'
import { MAX_BODY_DEPTH, pathPastDepth } from '../../src/server/bodyDepth.ts'

/** `levels` objects and arrays, alternating, around a number, under `metadata.extra`. */
function nested(levels: number): unknown {
  let value: unknown = 1
  for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { 'in-ner': value }
  return { txObjects: [], metadata: { origin: 'https://a.example', extra: value } }
}

describe('pathPastDepth', () => {
  it('passes a body up to the limit and names where one first goes past it', () => {
    // The body and metadata are two levels: extra may hold MAX_BODY_DEPTH - 2 more.
    expect(pathPastDepth(nested(MAX_BODY_DEPTH - 2))).toBeNull()
    expect(pathPastDepth(nested(MAX_BODY_DEPTH - 1))).toBe('metadata.extra["in-ner"][0]…')
    expect(pathPastDepth({ a: { b: [1] } }, 2)).toBe('a.b')
    expect(pathPastDepth({ a: { b: [] }, c: 1 }, 3)).toBeNull()
  })

  it('walks a body far deeper than the stack would allow, without recursing', () => {
    expect(pathPastDepth(nested(200_000))).toMatch(/^metadata\.extra/)
  })
})
