/** Stored settings come from an older build or a hand edit: a malformed backend falls back to the default one. */
import { describe, expect, it } from 'vitest'
import {
  canCheckMessagesOn,
  DEFAULT_SETTINGS,
  type Settings,
  withDefaults,
} from '../../src/extension/shared/settings.ts'

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

describe('canCheckMessagesOn', () => {
  it('says whether the local RPCs or the scan API can check a chain', () => {
    const local: Settings = { ...DEFAULT_SETTINGS, rpcUrls: { '10': 'http://127.0.0.1:8545' } }
    expect(canCheckMessagesOn(10, local)).toBe(true)
    expect(canCheckMessagesOn(1337, local)).toBe(false)
    expect(canCheckMessagesOn(0, local)).toBe(false)
    const remote: Settings = {
      ...DEFAULT_SETTINGS,
      backend: { kind: 'remote', apiUrl: 'https://api.example', apiKey: 'k' },
    }
    expect(canCheckMessagesOn(1, remote)).toBe(true)
    expect(canCheckMessagesOn(1337, remote)).toBe(false)
  })
})
