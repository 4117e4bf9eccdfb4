/** Stored settings come from an older build or a hand edit: a malformed backend falls back to the default one. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, withDefaults } from '../../src/extension/shared/settings.ts'

describe('withDefaults', () => {
  it('keeps a complete remote backend', () => {
    const backend = { kind: 'remote', apiUrl: 'https://scan.example', apiKey: 'k' }
    expect(withDefaults({ backend }).backend).toEqual(backend)
  })

  it.each([
    ['remote without apiUrl', { kind: 'remote' }],
    ['remote with an empty apiUrl', { kind: 'remote', apiUrl: '', apiKey: 'k' }],
    ['remote with a non-string apiUrl', { kind: 'remote', apiUrl: 42 }],
    ['an unknown kind', { kind: 'cloud' }],
    ['a string', 'remote'],
    ['null', null],
  ])('falls back to the local backend for %s', (_name, backend) => {
    const settings = withDefaults({ ...DEFAULT_SETTINGS, backend, enabled: false })
    expect(settings.backend).toEqual({ kind: 'local' })
    expect(settings.enabled).toBe(false)
  })

  it('fills a missing apiKey of a remote backend with an empty key', () => {
    expect(withDefaults({ backend: { kind: 'remote', apiUrl: 'https://scan.example' } }).backend).toEqual({
      kind: 'remote',
      apiUrl: 'https://scan.example',
      apiKey: '',
    })
  })
})
