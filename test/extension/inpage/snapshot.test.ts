import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { copyData, copyPayload, freezeDeep, readField } from '../../../src/extension/inpage/snapshot.ts'

describe('copyData', () => {
  it('reads every property exactly once, so a getter or Proxy cannot answer twice', () => {
    let reads = 0
    const tx = new Proxy(
      { to: 'friend', value: '0x1' },
      {
        getOwnPropertyDescriptor(target, key) {
          reads++
          const value = key === 'to' && reads > 1 ? 'attacker' : Reflect.get(target, key)
          return { value, enumerable: true, configurable: true, writable: true }
        },
      },
    )
    const copy = copyData([tx])
    expect(copy).toEqual({ ok: true, value: [{ to: 'friend', value: '0x1' }] })
    expect(reads).toBe(2)
    let getterCalls = 0
    expect(
      copyData({
        get amount() {
          getterCalls++
          return '10'
        },
      }),
    ).toEqual({ ok: true, value: { amount: '10' } })
    expect(getterCalls).toBe(1)
  })

  it('keeps JSON data and bigints, drops undefined members, and turns array holes into null', () => {
    expect(copyData({ a: [1, undefined, 'x', true, null], b: undefined, n: 10n })).toEqual({
      ok: true,
      value: { a: [1, null, 'x', true, null], n: 10n },
    })
  })

  it('refuses what a wallet cannot be sent, saying why', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const [value, why] of [
      [{ f: () => 1 }, /function/],
      [[Symbol('s')], /symbol/],
      [{ n: Number.NaN }, /not finite/],
      [cyclic, /nested too deeply/],
      [
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('no')
            },
          },
        ),
        /threw/,
      ],
    ] as const) {
      expect(copyData(value)).toMatchObject({ ok: false, reason: expect.stringMatching(why) })
    }
  })
})

describe('copyPayload and readField', () => {
  it('copies one level and always holds method and params as own properties', () => {
    const params = [1]
    const copy = copyPayload({ method: 'eth_chainId', params, id: 3 })
    expect(copy).toEqual({ method: 'eth_chainId', params, id: 3 })
    expect(copy?.params).toBe(params)
    expect(Object.hasOwn(copyPayload({}) ?? {}, 'method')).toBe(true)
  })

  it('never reads a getter planted on Object.prototype', () => {
    Object.defineProperty(Object.prototype, 'planted', { configurable: true, get: () => 'page' })
    try {
      expect(readField({}, 'planted')).toBeUndefined()
      expect(readField(Object.create({ planted: 'own chain' }), 'planted')).toBe('own chain')
    } finally {
      delete (Object.prototype as Record<string, unknown>).planted
    }
  })

  it('freezes data all the way down', () => {
    const data = freezeDeep({ a: [{ b: 1 }] })
    expect(Object.isFrozen(data.a[0])).toBe(true)
  })
})
