import { describe, expect, it } from 'vitest'
import { bodyProblem, MAX_BODY_DEPTH, parseJsonBody } from '../../src/server/jsonBody.ts'

/** `levels` objects and arrays, alternating, around a number, under `metadata.extra`. */
function nested(levels: number): unknown {
  let value: unknown = 1
  for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { 'in-ner': value }
  return { txObjects: [], metadata: { origin: 'https://a.example', extra: value } }
}

describe('bodyProblem', () => {
  it('passes a body up to the depth limit and names where one first goes past it', () => {
    // The body and metadata are two levels: extra may hold MAX_BODY_DEPTH - 2 more.
    expect(bodyProblem(nested(MAX_BODY_DEPTH - 2))).toBeNull()
    expect(bodyProblem(nested(MAX_BODY_DEPTH - 1))).toBe('metadata.extra["in-ner"][0]…: nested deeper than 512 levels')
    expect(bodyProblem({ a: { b: [1] } }, 2)).toBe('a.b: nested deeper than 2 levels')
    expect(bodyProblem({ a: { b: [] }, c: 1 }, 3)).toBeNull()
  })

  it('walks a body far deeper than the stack would allow, without recursing', () => {
    expect(bodyProblem(nested(200_000))).toMatch(/^metadata\.extra.*: nested deeper than 512 levels$/)
  })
})

describe('parseJsonBody', () => {
  it('reads JSON, and says where invalid JSON breaks', () => {
    expect(parseJsonBody('{"domains": ["a.org"]}')).toEqual({ ok: true, value: { domains: ['a.org'] } })
    expect(parseJsonBody('')).toEqual({ ok: false, message: 'body: empty; send a JSON object' })
    expect(parseJsonBody('{"a": }')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^body: invalid JSON \(Unexpected token/),
    })
  })

  it("refuses a key that reaches an object's prototype, naming where it is", () => {
    expect(parseJsonBody('{"message": {"data": {"types": {"__proto__": []}}}}')).toEqual({
      ok: false,
      message: "message.data.types.__proto__: a key that reaches an object's prototype is not accepted",
    })
    expect(parseJsonBody('{"metadata": {"constructor": {"prototype": {"x": 1}}}}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^metadata\.constructor: /),
    })
    // As names or values they are words like any other: a field named constructor, a primaryType "__proto__".
    expect(parseJsonBody('{"constructor": 1, "primaryType": "__proto__"}')).toMatchObject({ ok: true })
  })
})
