/** Checks the requesting origin against the bundled eth-phishing-detect lists (allowlist wins, then blocklist, then look-alikes). */
import config from 'eth-phishing-detect/src/config.json'
import type { Warning } from '../api/index.ts'
import { makeWarning } from './warnings.ts'

type Lists = {
  allowlist: Set<string>
  blocklist: Set<string>
  fuzzylist: string[]
  /** The length of the longest allowed or blocked entry: no parent domain longer than it can match one. */
  longest: number
}

let built: Lists | undefined
/**
 * The lists, built on first use: nothing is read while the service worker starts. The package's entries are lowercase
 * hostnames (a test holds it to that), so they go into the sets as they are: lowercasing 15,000 entries took a few ms
 * of a stopped worker's first scan, while the confirmation window was opening.
 */
function lists(): Lists {
  built ??= {
    allowlist: new Set(config.whitelist),
    blocklist: new Set(config.blacklist),
    fuzzylist: config.fuzzylist,
    longest: Math.max(...[...config.whitelist, ...config.blacklist].map((domain) => domain.length)),
  }
  return built
}

/** What the lists say about a hostname. */
export type DomainVerdict =
  | { kind: 'ALLOWED' }
  | { kind: 'BLOCKED'; match: string }
  | { kind: 'LOOKALIKE'; target: string }
  | { kind: 'UNKNOWN' }

/**
 * The hostname and each parent domain, longest first, up to `longest` characters: "a.b.example.org" →
 * [a.b.example.org, b.example.org, example.org]. Joining every suffix of a 2,000-character name of empty labels took
 * time growing with the square of its length (24 ms a name); the ones past the longest listed entry are never built.
 */
function domainAndParents(hostname: string, longest: number): string[] {
  const parents: string[] = []
  let dot = hostname.lastIndexOf('.')
  while (dot > 0) {
    dot = hostname.lastIndexOf('.', dot - 1)
    const parent = hostname.slice(dot + 1)
    if (parent.length > longest) break
    parents.push(parent)
  }
  return parents.reverse()
}

/** Looks a hostname up the way eth-phishing-detect does: exact or parent-domain matches, fuzzy on the last two labels. */
export function checkDomain(hostname: string): DomainVerdict {
  const { allowlist, blocklist, fuzzylist, longest } = lists()
  const host = hostname.toLowerCase().replace(/\.$/, '')
  const candidates = domainAndParents(host, longest)
  if (candidates.some((domain) => allowlist.has(domain))) return { kind: 'ALLOWED' }
  const blocked = candidates.find((domain) => blocklist.has(domain))
  if (blocked) return { kind: 'BLOCKED', match: blocked }
  const root = host.split('.').slice(-2).join('.')
  if (!root.includes('.') || /^[0-9.]+$/.test(host)) return { kind: 'UNKNOWN' }
  // Lengths further apart than the tolerance already need more edits than it allows: skip the full comparison.
  const target = fuzzylist.find(
    (domain) =>
      domain !== root &&
      Math.abs(domain.length - root.length) <= config.tolerance &&
      editDistance(root, domain) <= config.tolerance,
  )
  return target ? { kind: 'LOOKALIKE', target } : { kind: 'UNKNOWN' }
}

/** The hostname of an origin, or undefined when it has none (an opaque or malformed origin). */
function hostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname || undefined
  } catch {
    return undefined
  }
}

/** Warnings for the page that sent the request: CRITICAL when blocklisted, WARNING when it imitates a known site. */
export function originWarnings(origin: string): Warning[] {
  const hostname = hostnameOf(origin)
  if (!hostname) return []
  const verdict = checkDomain(hostname)
  if (verdict.kind === 'BLOCKED') {
    return [
      makeWarning(
        'TRUSTED_BLOCKLIST_DOMAIN',
        'CRITICAL',
        `${hostname} is on a trusted phishing blocklist. Do not sign anything this site asks for.`,
      ),
    ]
  }
  if (verdict.kind === 'LOOKALIKE') {
    return [
      makeWarning(
        'COPY_CAT_DOMAIN',
        'WARNING',
        `${hostname} looks like ${verdict.target} but is a different site. Check the address bar before you continue.`,
      ),
    ]
  }
  return []
}

/**
 * Warnings for the page a framed request was sent inside (`topOrigin`, the address bar's site), when it is not the
 * frame's own: a phishing page can have a frame on a clean, fresh domain send what it wants signed, and the frame's
 * origin alone then says nothing. CRITICAL when that page is blocklisted, WARNING when it imitates a known site.
 */
export function embeddingPageWarnings(topOrigin: string, frameOrigin: string): Warning[] {
  const top = hostnameOf(topOrigin)
  const frameHost = hostnameOf(frameOrigin)
  if (!top || top === frameHost) return []
  const verdict = checkDomain(top)
  // A frame the lists already judge the same way has its own warning (originWarnings): one is enough.
  if (frameHost && checkDomain(frameHost).kind === verdict.kind) return []
  const frame = frameHost ?? frameOrigin
  if (verdict.kind === 'BLOCKED') {
    return [
      makeWarning(
        'BLOCKLISTED_DOMAIN_CROSS_ORIGIN',
        'CRITICAL',
        `This request comes from ${frame} inside ${top}, the page you are on, which is on a trusted phishing blocklist. Do not sign anything this page asks for.`,
      ),
    ]
  }
  if (verdict.kind === 'LOOKALIKE') {
    return [
      makeWarning(
        'COPY_CAT_DOMAIN',
        'WARNING',
        `This request comes from ${frame} inside ${top}, the page you are on, which looks like ${verdict.target} but is a different site. Check the address bar before you continue.`,
      ),
    ]
  }
  return []
}

/** Levenshtein distance between two short strings (domain names). */
export function editDistance(a: string, b: string): number {
  // Two reused rows of the dynamic-programming table: this runs for every scan's origin against the fuzzy list.
  let previous = new Uint32Array(b.length + 1)
  let current = new Uint32Array(b.length + 1)
  for (let j = 0; j <= b.length; j++) previous[j] = j
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
    }
    const finished = current
    current = previous
    previous = finished
  }
  return previous[b.length] as number
}
