/** Node URLs fit for a log or a terminal: hosted node providers put the customer's key in the path or the query. */

/** Scheme and host only; a path, a query or credentials are replaced by `…`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    const hidden = parsed.pathname !== '/' || parsed.search !== '' || parsed.username !== ''
    return `${parsed.protocol}//${parsed.host}${hidden ? '/…' : ''}`
  } catch {
    return '[unparseable URL]'
  }
}

/** Shorter path segments and query values are words such as `v3` or `mainnet`, not keys. */
const MIN_SECRET_LENGTH = 8

/**
 * What a text must not show of a node's URL: the URL after its scheme, its credentials, and each path segment and
 * query value long enough to be a key, each as written, decoded and encoded, longest first. A node's own error text can
 * quote any of them (a gateway's "key … over quota for POST /v3/…", or the URL percent-encoded).
 */
export function urlSecrets(url: string): string[] {
  const found = new Set<string>([url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')])
  try {
    const parsed = new URL(url)
    const parts = [parsed.username, parsed.password, ...parsed.pathname.split('/'), ...parsed.searchParams.values()]
    for (const part of parts) {
      let decoded = part
      try {
        decoded = decodeURIComponent(part)
      } catch {}
      for (const form of [part, decoded, encodeURIComponent(decoded)]) {
        if (form.length >= MIN_SECRET_LENGTH) found.add(form)
      }
    }
    found.add(encodeURIComponent(url))
  } catch {}
  return [...found].sort((a, b) => b.length - a.length)
}
