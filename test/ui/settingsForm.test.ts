import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../src/extension/shared/settings.ts'
import { fromForm, type SettingsForm, toForm, urlProblem } from '../../src/extension/ui/lib/settingsForm.ts'

const form = (patch: Partial<SettingsForm>): SettingsForm => ({ ...toForm(DEFAULT_SETTINGS), ...patch })

describe('the options form', () => {
  it('round-trips the default settings unchanged', () => {
    const result = fromForm(toForm(DEFAULT_SETTINGS), DEFAULT_SETTINGS)
    expect(result).toEqual({ ok: true, settings: DEFAULT_SETTINGS })
  })

  it('names the row and the reason for a bad chain id, a duplicate chain and a bad RPC URL', () => {
    const rows = [
      { chainId: 'abc', url: 'https://a.example' },
      { chainId: '5', url: 'ftp://b.example' },
      { chainId: '05', url: 'not a url' },
    ]
    const result = fromForm(form({ rpcRows: rows }), DEFAULT_SETTINGS)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors['rpc.0.chainId']).toMatch(/"abc" is not a chain id/)
    expect(result.errors['rpc.1.url']).toMatch(/must start with http:\/\/ or https:\/\//)
    expect(result.errors['rpc.2.chainId']).toBe('Chain 5 is already listed (row 2)')
    expect(result.errors['rpc.2.url']).toMatch(/"not a url" is not a URL/)
  })

  it('requires https and a key for a remote scan API, except on localhost', () => {
    const remote = { backendKind: 'remote' as const }
    const insecure = fromForm(form({ ...remote, apiUrl: 'http://scan.example.org', apiKey: '' }), DEFAULT_SETTINGS)
    expect(insecure.ok || insecure.errors).toEqual({
      apiUrl: expect.stringMatching(/must use https/),
      apiKey: 'API key is required for a scan API',
    })
    const local = fromForm(form({ ...remote, apiUrl: 'http://127.0.0.1:8080/', apiKey: ' k1 ' }), DEFAULT_SETTINGS)
    expect(local.ok && local.settings.backend).toEqual({
      kind: 'remote',
      apiUrl: 'http://127.0.0.1:8080',
      apiKey: 'k1',
    })
  })

  it('keeps what the form does not edit: on/off and paused sites', () => {
    const current = { ...DEFAULT_SETTINGS, enabled: false, pausedOrigins: ['https://a.example'] }
    const result = fromForm(toForm(current), current)
    expect(result.ok && result.settings).toMatchObject({ enabled: false, pausedOrigins: ['https://a.example'] })
  })

  it('rejects URLs with credentials', () => {
    expect(urlProblem('https://user:pw@rpc.example')).toBe('must not contain a user name or password')
  })
})
