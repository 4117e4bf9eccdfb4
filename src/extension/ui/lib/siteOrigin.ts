/** Who asked, in words: the origin, or a sandboxed page and the site that served it (which it cannot act as). */
export function askingSite(request: { origin: string; sandboxed?: true }): string {
  return request.sandboxed ? `a sandboxed page from ${request.origin}` : request.origin
}

/** The origin Preflight can be paused for: scheme://host[:port] of an http(s) page, or null for anything else. */
export function pausableOrigin(url: string | undefined): string | null {
  if (!url) return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}
