import { describe, expect, it } from 'vitest'
import { redactUrl, urlSecrets } from '../../src/server/redactUrl.ts'

describe('node URLs', () => {
  it('are logged as scheme and host only', () => {
    expect(redactUrl('https://mainnet.infura.io/v3/0123456789abcdef')).toBe('https://mainnet.infura.io/…')
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
  })

  it('give up every part that may be a key, as written, decoded and encoded, longest first', () => {
    const secrets = urlSecrets(
      'https://user:pass-word-1@eth.example.com/v2/key%2Bwith%2Fslash?apikey=Q1-token-secret&x=1',
    )
    for (const secret of ['pass-word-1', 'key%2Bwith%2Fslash', 'key+with/slash', 'Q1-token-secret']) {
      expect(secrets).toContain(secret)
    }
    // Words too short to be keys stay readable wherever they appear.
    expect(secrets.filter((secret) => ['v2', 'user', 'x', '1', ''].includes(secret))).toEqual([])
    expect(secrets[0]).toBe(
      encodeURIComponent('https://user:pass-word-1@eth.example.com/v2/key%2Bwith%2Fslash?apikey=Q1-token-secret&x=1'),
    )
    expect(secrets.map((secret) => secret.length)).toEqual(secrets.map((secret) => secret.length).sort((a, b) => b - a))
  })
})
