/** POST /v0/domains: each domain looked up in the bundled phishing list, rendered per API version (seed §4, §9). */
import { checkDomain, type DomainVerdict, originWarnings, type Warning } from '../engine/index.ts'
import type { ApiVersion } from './versions.ts'

const MAX_DOMAINS = 100
const MAX_DOMAIN_LENGTH = 2048

type DomainsRequest = { ok: true; domains: string[] } | { ok: false; error: string }

/**
 * Reads the request body: `{domains: string[]}`; a plain array of strings only before 2023-03-08 (seed §9, breaking).
 */
export function parseDomainsRequest(body: unknown, version: ApiVersion): DomainsRequest {
  let list: unknown = body
  let field = 'body'
  if (Array.isArray(body)) {
    if (version !== '2022-06-01') {
      return {
        ok: false,
        error: `body: a plain list of domains is accepted only by version 2022-06-01; send {"domains": [...]}`,
      }
    }
  } else if (body !== null && typeof body === 'object') {
    list = (body as { domains?: unknown }).domains
    field = 'domains'
  } else {
    return { ok: false, error: 'body: expected an object {"domains": [...]}' }
  }
  if (!Array.isArray(list)) return { ok: false, error: `${field}: expected an array of domain strings` }
  if (list.length === 0) return { ok: false, error: `${field}: list at least one domain` }
  if (list.length > MAX_DOMAINS) return { ok: false, error: `${field}: at most ${MAX_DOMAINS} domains per request` }
  for (const [index, entry] of list.entries()) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      return { ok: false, error: `${field}[${index}]: expected a non-empty string such as "https://example.org"` }
    }
    if (entry.length > MAX_DOMAIN_LENGTH) {
      return { ok: false, error: `${field}[${index}]: longer than ${MAX_DOMAIN_LENGTH} characters` }
    }
  }
  return { ok: true, domains: list as string[] }
}

/** The hostname of a URL or bare domain ("https://app.example.org/x" and "app.example.org" give the same); null if none. */
function hostnameOf(domain: string): string | null {
  const text = domain.trim()
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`)
    return url.hostname === '' ? null : url.hostname.toLowerCase()
  } catch {
    return null
  }
}

/** Looks up each domain in the bundled phishing list (the engine's origin check) and renders the results for `version`. */
export function scanDomains(domains: string[], version: ApiVersion): Record<string, unknown>[] {
  return domains.map((domain) => {
    const hostname = hostnameOf(domain)
    if (hostname === null) return renderResult(domain, 'UNPROCESSABLE', null, [], [], version)
    const { riskScore, labels } = describe(checkDomain(hostname))
    return renderResult(domain, 'PROCESSED', riskScore, labels, originWarnings(`https://${hostname}`), version)
  })
}

/** A score and the reference's labels for what the list says: blocked 1, look-alike 0.5, allowed 0, unknown null. */
function describe(verdict: DomainVerdict): { riskScore: number | null; labels: string[] } {
  switch (verdict.kind) {
    case 'BLOCKED':
      return {
        riskScore: 1,
        labels: ['blockchain=ethereum', 'warning[evm]=TRUSTED_BLOCKLIST_DOMAIN', 'source=metamask_blocklist'],
      }
    case 'LOOKALIKE':
      return { riskScore: 0.5, labels: ['blockchain=ethereum'] }
    case 'ALLOWED':
      return { riskScore: 0, labels: ['blockchain=ethereum', 'source=metamask_whitelist'] }
    case 'UNKNOWN':
      return { riskScore: null, labels: [] }
  }
}

/**
 * The seed removes `risk_score` from 2023-03-08 on; every reference file still requires `riskScore`, so `riskScore`
 * is always sent and `risk_score` only to 2022-06-01 clients. Warnings carry `data` from 2023-05-17 on.
 */
function renderResult(
  domain: string,
  status: 'PROCESSED' | 'UNPROCESSABLE',
  riskScore: number | null,
  labels: string[],
  warnings: Warning[],
  version: ApiVersion,
): Record<string, unknown> {
  const withData = version >= '2023-05-17'
  return {
    domain,
    status,
    riskScore,
    ...(version === '2022-06-01' ? { risk_score: riskScore } : {}),
    labels,
    warnings: warnings.map(({ data, ...warning }) =>
      withData ? { ...warning, data: typeof data === 'string' ? data : null } : warning,
    ),
  }
}
