/** The requesting site against the bundled eth-phishing-detect lists. */
import config from 'eth-phishing-detect/src/config.json'
import { describe, expect, it } from 'vitest'
import { checkDomain, embeddingPageWarnings, originWarnings } from '../../../src/engine/index.ts'
import { editDistance } from '../../../src/engine/risk/phishing.ts'

describe('origin checks against the bundled phishing list', () => {
  it('the bundled lists hold lowercase hostnames without a trailing dot, as the lookup takes them', () => {
    for (const list of [config.whitelist, config.blacklist, config.fuzzylist]) {
      expect(list.length).toBeGreaterThan(0)
      expect(list.filter((domain) => domain !== domain.toLowerCase() || domain.endsWith('.'))).toEqual([])
    }
  })

  it('blocklisted domains and their subdomains are CRITICAL; allowlisted ones pass', () => {
    expect(checkDomain('moonbirds.tv')).toEqual({ kind: 'BLOCKED', match: 'moonbirds.tv' })
    expect(checkDomain('claim.moonbirds.tv')).toEqual({ kind: 'BLOCKED', match: 'moonbirds.tv' })
    expect(checkDomain('metamask.io')).toEqual({ kind: 'ALLOWED' })
    expect(originWarnings('https://claim.moonbirds.tv/mint')).toMatchObject([
      { kind: 'TRUSTED_BLOCKLIST_DOMAIN', severity: 'CRITICAL' },
    ])
  })

  it('a long name is looked up by its parents as a short one is, from the top-level domain down', () => {
    expect(checkDomain(`${'claim.'.repeat(300)}moonbirds.tv`)).toEqual({ kind: 'BLOCKED', match: 'moonbirds.tv' })
    expect(checkDomain(`${'a.'.repeat(1_000)}metamask.io`)).toEqual({ kind: 'ALLOWED' })
    expect(checkDomain(`metamask${'.'.repeat(2_000)}io`)).toEqual({ kind: 'UNKNOWN' })
    expect(checkDomain('moonbirds.tv.example.org')).toEqual({ kind: 'UNKNOWN' })
  })

  it('look-alikes of popular sites are a COPY_CAT_DOMAIN warning; unrelated sites get nothing', () => {
    expect(checkDomain('metamesk.io')).toEqual({ kind: 'LOOKALIKE', target: 'metamask.io' })
    expect(originWarnings('https://opensae.io')).toMatchObject([{ kind: 'COPY_CAT_DOMAIN', severity: 'WARNING' }])
    expect(originWarnings('https://app.example.org')).toEqual([])
    expect(originWarnings('http://127.0.0.1:5173')).toEqual([])
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })

  it('a framed request is judged by the page around it: blocklisted is CRITICAL, a look-alike a WARNING', () => {
    expect(embeddingPageWarnings('https://claim.moonbirds.tv', 'https://fresh-mint.example')).toMatchObject([
      {
        kind: 'BLOCKLISTED_DOMAIN_CROSS_ORIGIN',
        severity: 'CRITICAL',
        message: expect.stringContaining('fresh-mint.example inside claim.moonbirds.tv'),
      },
    ])
    expect(embeddingPageWarnings('https://metamesk.io', 'https://fresh-mint.example')).toMatchObject([
      { kind: 'COPY_CAT_DOMAIN', severity: 'WARNING', message: expect.stringContaining('looks like metamask.io') },
    ])
    // A clean or allowlisted page around the frame adds nothing, nor does a page the frame's own check already judged.
    expect(embeddingPageWarnings('https://app.example.org', 'https://fresh-mint.example')).toEqual([])
    expect(embeddingPageWarnings('https://metamask.io', 'https://moonbirds.tv')).toEqual([])
    expect(embeddingPageWarnings('https://moonbirds.tv', 'https://claim.moonbirds.tv')).toEqual([])
    expect(embeddingPageWarnings('https://moonbirds.tv:8443', 'https://moonbirds.tv')).toEqual([])
    expect(embeddingPageWarnings('null', 'https://fresh-mint.example')).toEqual([])
  })
})
