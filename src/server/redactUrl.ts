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
